package providers

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Profile is the run-time part of a provider's profile (the data about a
// provider that its OpenAPI document cannot express, see
// providers/openapi.ProfileFile, the file as written, and docs/providers.md): how to read its
// errors and its rate-limit answers, and its "error in a 200" rule. It is
// carried in the index header (Header.Profile), so the client needs no
// provider-specific code (app auth included: App). The token variables and default headers of a
// profile are Header.TokenEnv and Header.Headers; pagination is per
// method (Method.Paging). A nil *Profile, or a zero field, means the
// generic defaults documented on each field.
type Profile struct {
	// ErrorMessage lists the dotted paths of the message in an error body,
	// tried in order (GitHub "message"; Slack "error"; Atlassian
	// "errorMessages", an array whose strings are joined). Empty: the
	// generic list DefaultErrorMessage.
	ErrorMessage []string `json:"error_message,omitempty"`
	// RateLimit names the provider's rate-limit headers and phrases; nil:
	// DefaultRateLimit.
	RateLimit *RateLimit `json:"rate_limit,omitempty"`
	// ErrorIn200 is the rule by which a 2xx body says the request failed
	// (Slack: "ok": false with the code in "error"); nil: none.
	ErrorIn200 *ErrorIn200 `json:"error_in_200,omitempty"`
	// Credentials is the advice shown when the provider refuses or hides
	// an answer for want of credentials, e.g. "set GITHUB_TOKEN"; empty:
	// the generic advice naming --auth.
	Credentials string `json:"credentials,omitempty"`
	// RateLimitProbe is the path of a free endpoint reporting every
	// rate-limit bucket in GitHub's /rate_limit format; empty: none.
	RateLimitProbe string `json:"rate_limit_probe,omitempty"`
	// Buckets maps a path fragment to the rate-limit bucket of the paths
	// containing it, first match wins (GitHub: "/search/code" is
	// "code_search"); paths matching none are in bucket "core".
	Buckets []PathBucket `json:"buckets,omitempty"`
	// App is the provider's app-installation auth kind (auth type "app"),
	// nil when it has none (appkind.go).
	App *AppAuth `json:"app,omitempty"`
}

// PathBucket is one entry of Profile.Buckets.
type PathBucket struct {
	Contains string `json:"contains"`
	Bucket   string `json:"bucket"`
}

// BucketWindow returns the window of a bucket's budget as the profile's
// rate_limit.windows declare it (GitHub: search 30 per minute, 60 s): how
// far a statement can count on the bucket's refills before its deadline
// (a split search, see providers/client); 0 when the profile does not say.
func (p *Profile) BucketWindow(bucket string) time.Duration {
	if p == nil || p.RateLimit == nil {
		return 0
	}
	if w, ok := p.RateLimit.WindowOf(bucket); ok {
		return time.Duration(w.Seconds) * time.Second
	}
	return 0
}

// RateLimit names the headers and phrases by which a provider reports its
// rate limits.
type RateLimit struct {
	// Header names of the primary limit: requests remaining, the reset
	// time (epoch seconds or milliseconds), the limit, the requests used,
	// and the bucket ("resource") they count against.
	Remaining string `json:"remaining,omitempty"`
	Reset     string `json:"reset,omitempty"`
	Limit     string `json:"limit,omitempty"`
	Used      string `json:"used,omitempty"`
	Resource  string `json:"resource,omitempty"`
	// Phrases: a 403 whose body contains one of them (any case) is a rate
	// limit, retryable.
	Phrases []string `json:"phrases,omitempty"`
	// SecondaryPhrases: a 403 or 429 whose body contains one of them is a
	// secondary limit that pauses every request of the credential.
	SecondaryPhrases []string `json:"secondary_phrases,omitempty"`
	// SecondaryWaitSeconds is the wait after a rate limit that names no
	// reset time (default 60).
	SecondaryWaitSeconds int `json:"secondary_wait_seconds,omitempty"`
	// Windows are the provider's request budgets per window, which the
	// governor spends and never exceeds: Bucket "" counts every request
	// (GitHub: 900 per minute), a named bucket only its own requests in
	// addition (GitHub: search 30, code_search 10 per minute). Flags
	// (--rate, ...) override them; none: the governor's defaults.
	Windows []RateWindow `json:"windows,omitempty"`
}

// RateWindow is one entry of RateLimit.Windows: at most Limit requests
// of Bucket in any Seconds.
type RateWindow struct {
	Bucket  string `json:"bucket,omitempty"`
	Limit   int    `json:"limit"`
	Seconds int    `json:"seconds"`
}

// WindowOf returns the window of bucket ("" for every request).
func (r RateLimit) WindowOf(bucket string) (RateWindow, bool) {
	for _, w := range r.Windows {
		if w.Bucket == bucket && w.Limit > 0 && w.Seconds > 0 {
			return w, true
		}
	}
	return RateWindow{}, false
}

// DefaultErrorMessage is the generic list of error-message fields, tried
// in order when neither the profile nor the document names one.
var DefaultErrorMessage = []string{"message", "error.message", "error_description", "error", "errorMessages", "detail", "title"}

// DefaultRateLimit is the generic rate-limit description: the common
// X-RateLimit-* header convention, "rate limit" in a 403 body, no
// secondary phrases (only 429 or Retry-After pause), a 60 s wait.
var DefaultRateLimit = RateLimit{
	Remaining: "X-RateLimit-Remaining",
	Reset:     "X-RateLimit-Reset",
	Limit:     "X-RateLimit-Limit",
	Used:      "X-RateLimit-Used",
	Phrases:   []string{"rate limit"},
}

// RateLimitOf returns the rate-limit description of p, defaults filled in.
func (p *Profile) RateLimitOf() RateLimit {
	r := DefaultRateLimit
	if p != nil && p.RateLimit != nil {
		r = *p.RateLimit
	}
	if r.SecondaryWaitSeconds <= 0 {
		r.SecondaryWaitSeconds = 60
	}
	return r
}

// SecondaryWait is the wait after a rate limit without a reset time.
func (r RateLimit) SecondaryWait() time.Duration {
	if r.SecondaryWaitSeconds <= 0 {
		return time.Minute
	}
	return time.Duration(r.SecondaryWaitSeconds) * time.Second
}

// CheckProbePath validates a RateLimitProbe: a path on the provider's
// base URL ("/rate_limit"), which the client appends to it. Anything that
// could make the joined text name another host ("@evil.example/x", a
// scheme, "//host", a backslash) or another request is refused, because
// the probe is sent with the provider's credentials.
func CheckProbePath(p string) error {
	if p == "" {
		return nil
	}
	bad := func(why string) error {
		return fmt.Errorf("rate_limit probe %q: %s; give a path on the base URL, e.g. \"/rate_limit\"", p, why)
	}
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return bad("it must start with one \"/\"")
	}
	for _, r := range p {
		if r <= ' ' || r == 0x7f || r == '\\' || r == '@' {
			return bad(fmt.Sprintf("it contains %q", r))
		}
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return bad("it is not a plain path")
	}
	return nil
}

// ErrorMessageFields returns the error-message paths of p (defaults when
// none).
func (p *Profile) ErrorMessageFields() []string {
	if p == nil || len(p.ErrorMessage) == 0 {
		return DefaultErrorMessage
	}
	return p.ErrorMessage
}

// BucketOf returns the rate-limit bucket of a request path: "" for the
// free probe endpoint, the first Buckets entry whose fragment the path
// contains, else "core".
func (p *Profile) BucketOf(path string) string {
	if p == nil {
		return "core"
	}
	if p.RateLimitProbe != "" && (path == p.RateLimitProbe || strings.HasSuffix(path, p.RateLimitProbe)) {
		return ""
	}
	for _, b := range p.Buckets {
		if strings.Contains(path, b.Contains) {
			return b.Bucket
		}
	}
	return "core"
}

// ErrorIn200 is a provider's rule for failures answered with a 2xx status:
// when the body's Field equals Equals (a JSON literal: false, "error",
// ...), the answer is an error whose code is the string at Code.
type ErrorIn200 struct {
	Field  string `json:"field"`
	Equals string `json:"equals"`
	Code   string `json:"code,omitempty"`
	// Auth lists the codes meaning the credentials are missing, wrong or
	// lack a scope; RateLimited the codes of a rate limit (retryable);
	// Retryable other codes worth retrying (temporary failures).
	Auth        []string `json:"auth,omitempty"`
	RateLimited []string `json:"rate_limited,omitempty"`
	Retryable   []string `json:"retryable,omitempty"`
}

// Paging describes how to get a method's further pages (all paths are
// dotted paths into the response body).
type Paging struct {
	Style PagingStyle `json:"style"`
	// Param is the request parameter carrying the cursor, offset or page.
	Param string `json:"param,omitempty"`
	// Size is the page-size request parameter (limit, maxResults), sent
	// with SizeValue (default the client's page size, at most SizeMax).
	Size    string `json:"size,omitempty"`
	SizeMax int    `json:"size_max,omitempty"`
	// SizeMin is the parameter's documented minimum: a page size below it
	// is refused by the API (YouTube's liveChat maxResults >= 200).
	SizeMin int `json:"size_min,omitempty"`
	// Next is the body path of the next URL (next_url) or cursor (cursor).
	Next string `json:"next,omitempty"`
	// HasMore is the body path of a boolean "there is more".
	HasMore string `json:"has_more,omitempty"`
	// LastItem is the item property whose value, on the last item of a
	// page, is the cursor of the next (Stripe "id").
	LastItem string `json:"last_item,omitempty"`
	// Total is the body path of the total number of items; IsLast of a
	// boolean "this is the last page"; Pages (page style) of the number
	// of pages (Slack's paging.pages).
	Total  string `json:"total,omitempty"`
	IsLast string `json:"is_last,omitempty"`
	Pages  string `json:"pages,omitempty"`
}

// Params returns the request parameters the paging owns.
func (p *Paging) Params() []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, s := range []string{p.Param, p.Size} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// PagingStyle is how a method's further pages are asked for.
type PagingStyle string

// Paging styles (Paging.Style).
const (
	// PagingLink: RFC 8288 Link rel="next" headers (GitHub).
	PagingLink PagingStyle = "link"
	// PagingNextURL: the body holds the next page's URL (Twilio
	// next_page_uri, DigitalOcean links.pages.next); null or "" ends.
	PagingNextURL PagingStyle = "next_url"
	// PagingCursor: the body holds a cursor sent back as Param (Slack
	// response_metadata.next_cursor -> cursor, Kubernetes
	// metadata.continue -> continue), or, with LastItem, a has-more flag
	// and the last item's LastItem value is the cursor (Stripe has_more,
	// id -> starting_after).
	PagingCursor PagingStyle = "cursor"
	// PagingOffset: Param is the offset of the first item (Jira startAt),
	// advanced by the items received; ends on IsLast true, offset >= Total,
	// an empty page or a page shorter than the size asked for.
	PagingOffset PagingStyle = "offset"
	// PagingPage: Param is a page number (from 1), ends like PagingOffset.
	PagingPage PagingStyle = "page"
	// PagingNone: the method is known to answer in one page; the engine
	// does not look for "more" signals in its answers.
	PagingNone PagingStyle = "none"
)
