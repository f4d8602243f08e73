// Package client owns HTTP execution of provider methods: one pooled
// go-retryablehttp client per provider, auth, pagination, retries and error
// classification. It must not know about SQL.
//
// A Client is built once per provider with New and is safe for concurrent
// use. Client.Do executes one Call: it builds the URL from the method's path
// and the bound parameters, follows pagination (RFC 8288 Link headers, with
// numbered pages fetched concurrently when rel="last" is known; otherwise
// the method's providers.Paging: a cursor, next URL or offset in the body,
// pages_body.go), retries
// retryable failures within a bounded wait budget and hands each page's items
// to the caller's emit function, serially and in page order.
//
// Every failure (HTTP status outside 2xx on any page, transport failure,
// undecodable body, page limit) is a *providers.ProviderError; context
// cancellation returns ctx.Err(). Nothing is returned partially as if
// complete: when Do returns an error, the items already emitted are
// incomplete and the caller must discard them.
//
// Decisions worth knowing:
//   - 204 No Content yields zero items (GitHub answers 204 for e.g. the
//     contributors of an empty repository), except for ShapeNone, which
//     yields one empty item {} on any 2xx.
//   - A wrapped response whose item key is absent yields zero items only when
//     the body says "total_count": 0; otherwise it is a decode error.
//   - Credentials from the description's security schemes
//     (providers/security.go) go where each method's requirement says (a
//     header, the query, a cookie, Authorization); a method whose
//     variables are unset fails before its request
//     (providers.MissingCredentialsError).
//   - Authorization is only sent to the base URL's origin (scheme, host and
//     port). Redirects to any other origin are not followed (an error), and
//     next-page URLs must stay on that origin and on the page's path.
//   - Redirects: only 301, 307 and 308 on the base origin are followed; a
//     302, 303 or cross-origin redirect is an error (kind "redirect") whose
//     message says where it pointed, plus the method's RedirectAdvice. An
//     absence (Method.Absent) is never read from an answer reached through
//     a redirect.
//   - A 2xx whose body sets the method's IncompleteFlag (GitHub search:
//     "incomplete_results": true) is an error of kind "incomplete",
//     retryable, on any page.
//   - A method with a result cap (Method.Cap; GitHub search serves the
//     first 1,000 matches) whose first page counts more than the cap is
//     split into date ranges that each fit, every range read and each
//     result kept once, or fails as "incomplete" when it cannot be split;
//     the split is checked against the rate-limit bucket before its parts
//     are fetched (capsplit.go).
//   - A 403 or 429 rate limit without Retry-After or x-ratelimit-reset waits
//     60s before retrying (GitHub's guidance for secondary rate limits), which
//     with the default MaxRetryWait is retried once the budget allows. A 403
//     with Retry-After, or saying "secondary rate limit" or "abuse
//     detection", is a (secondary) rate limit. Server-given waits are
//     clamped to [1s, 24h]; x-ratelimit-reset in milliseconds is read as such.
//   - Redaction comes before truncation everywhere (messages, body excerpts,
//     debug lines), so a secret cut by a length limit never leaks a prefix.
//   - The retry budget (MaxRetryWait) is an upper bound on the waits of one
//     request: a wait that does not fit ends the retries at once.
//   - Link rel="next" is followed whenever a response carries it, whatever paging
//     the method declares. With concurrent pages, the error of the
//     earliest failing page is returned.
//   - A response that says there is more (has_more, a next cursor or URL,
//     isLast false, ...) when the method's paging does not say how to get
//     it is an error of Kind "pagination" naming the operation and the
//     profile key to declare (pages_body.go); never a silent first page.
//   - Provider specifics are the profile's data (Header.Profile): the
//     error-message fields, the rate-limit header names, phrases and
//     wait, the free rate-limit probe and path buckets, and the "error in
//     a 200" rule (errin200.go: Slack's {"ok": false}), which makes such a
//     2xx an error, retried like a 429 when its code is a rate limit.
//   - Invalid calls (missing or unknown parameters, empty, "." or ".." path
//     values) are plain errors, not ProviderErrors: they are caller bugs.
//   - With Options.Governor, every attempt of the credential, process-wide,
//     is paced, bounded and paused by one Governor (governor.go); budget.go
//     refuses statements the rate-limit bucket cannot cover; appauth.go
//     mints GitHub App installation tokens and, for an app over every
//     installation, routes each request to its account's installation,
//     which has its own governor.
package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/defaults"
	"github.com/enginehq/engine/providers/httpcache"
)

// Options configure a Client. Zero values take the documented defaults.
type Options struct {
	// BaseURL overrides the provider's Header.BaseURL; one of them is required.
	BaseURL     string
	Credentials providers.Credentials
	// PerPage is sent as per_page on paginated methods (default 100).
	PerPage int
	// MaxPages bounds the pages of one call (default 1000). Hitting it is a
	// *PageLimitError (kind plan), never a silent cut.
	MaxPages int
	// PageConcurrency bounds the page requests in flight or waiting to be
	// emitted once a call's last page is known, for all the client's
	// calls together (default: the governor's MaxConcurrency, the
	// credential's budget of requests in flight; ungoverned or uncapped
	// DefaultMaxConcurrency).
	PageConcurrency int
	// RetryMax is the number of retries of a retryable failure (0 means the
	// default 4; negative means no retries).
	RetryMax int
	// MaxRetryWait is the total backoff budget per request (default 60s). When
	// the server asks for a longer wait than what remains, the error surfaces
	// at once with RetryAfter set.
	MaxRetryWait time.Duration
	// RetryWaitMin and RetryWaitMax bound the exponential backoff used when
	// the server gives no hint (defaults 200ms and 5s).
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	// RequestTimeout bounds each request attempt, body included (default 30s).
	RequestTimeout time.Duration
	// MaxBodyBytes bounds a response body (default 64 MiB); a larger body is
	// a ProviderError of Kind "decode".
	MaxBodyBytes int64
	// UserAgent is sent with every request (default "engine").
	UserAgent string
	// Transport replaces the pooled HTTP transport (tests).
	Transport http.RoundTripper
	// Cache, when set, answers identical requests within its TTL and
	// revalidates older entries with If-None-Match / If-Modified-Since.
	Cache *httpcache.Cache
	// Logf, when set, receives debug lines (URLs without secrets, statuses,
	// retry decisions). Headers and credentials are never logged.
	Logf func(format string, args ...any)
	// Governor, when set, paces and bounds the requests of the credential
	// process-wide (see governor.go); nil sends requests ungoverned.
	Governor *GovernorOptions
}

// Defaults.
const (
	DefaultPerPage        = 100
	DefaultMaxPages       = 1000
	DefaultRetryMax       = 4
	DefaultMaxRetryWait   = 60 * time.Second
	DefaultRetryWaitMin   = 200 * time.Millisecond
	DefaultRetryWaitMax   = 5 * time.Second
	DefaultRequestTimeout = 30 * time.Second
	DefaultMaxBodyBytes   = 64 << 20
	DefaultUserAgent      = "engine"
	maxRedirects          = 10
)

// Stats count the work of one call (Do) or of a client's lifetime
// (Totals): providers.FetchStats.
type Stats = providers.FetchStats

// Client executes methods of one provider. It is safe for concurrent use.
type Client struct {
	provider  string
	opts      Options
	base      *url.URL
	baseStr   string // without trailing slash
	headers   map[string]string
	prof      *providers.Profile // error fields, rate limits, errors in a 200
	hc        *http.Client
	rc        *retryablehttp.Client
	gov       *Governor
	app       *appTokens    // GitHub App installation tokens
	pageSlots chan struct{} // pages in flight or waiting to be emitted (paginate.go)

	requests    atomic.Int64
	pages       atomic.Int64
	cacheHits   atomic.Int64
	revalidated atomic.Int64
	shared      atomic.Int64

	flightMu sync.Mutex
	flights  map[string]*flight // identical GETs in flight (share.go)
	waiting  atomic.Int64       // askers waiting for one of them

	// secretForms are the configured credentials' secrets in every form
	// an answer may echo them in (providers.SecretForms), longest first:
	// fixed for the client's life, derived once.
	secretForms []string
}

// New builds the client of provider p.
func New(p *providers.Provider, opts Options) (*Client, error) {
	if p == nil {
		return nil, errors.New("client: nil provider")
	}
	setDefaults(&opts)
	raw := opts.BaseURL
	if raw == "" {
		raw = p.BaseURL
	}
	if raw == "" {
		return nil, fmt.Errorf("provider %s: no base URL: the provider definition has none and none was configured", p.Name())
	}
	base, err := url.Parse(raw)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("provider %s: base URL %q must be an absolute http(s) URL", p.Name(), sanitizeURL(raw))
	}
	if base.RawQuery != "" || base.Fragment != "" {
		return nil, fmt.Errorf("provider %s: base URL %q must not carry a query or fragment", p.Name(), sanitizeURL(raw))
	}
	c := &Client{
		provider: p.Name(),
		opts:     opts,
		base:     base,
		baseStr:  strings.TrimRight(raw, "/"),
		headers:  p.Headers,
		prof:     p.Profile,
	}
	if opts.Governor != nil {
		gopts := *opts.Governor
		if gopts.RateLimit == nil {
			rl := p.Profile.RateLimitOf()
			gopts.RateLimit = &rl
		}
		c.gov = SharedGovernor(governorKey(base, opts.Credentials.Identity()), gopts, opts.Logf)
	}
	if c.opts.PageConcurrency <= 0 {
		c.opts.PageConcurrency = DefaultMaxConcurrency
		if c.gov != nil && c.gov.MaxConcurrency() > 0 {
			c.opts.PageConcurrency = c.gov.MaxConcurrency()
		}
	}
	c.pageSlots = make(chan struct{}, c.opts.PageConcurrency)
	transport := opts.Transport
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = max(c.opts.PageConcurrency*2, 2*DefaultMaxConcurrency)
		transport = t
	}
	c.hc = &http.Client{Transport: transport, Timeout: opts.RequestTimeout, CheckRedirect: c.checkRedirect}
	c.rc = &retryablehttp.Client{
		HTTPClient:     c.hc,
		Logger:         nil, // retryablehttp must never log URLs itself
		RetryWaitMin:   opts.RetryWaitMin,
		RetryWaitMax:   opts.RetryWaitMax,
		RetryMax:       opts.RetryMax,
		CheckRetry:     c.afterAttempt,
		Backoff:        c.backoff,
		ErrorHandler:   keepLastResponse,
		RequestLogHook: c.beforeAttempt,
	}
	if app := opts.Credentials.App(); app != nil {
		c.app = sharedAppTokens(governorKey(base, opts.Credentials.Identity()), app)
		c.rc.PrepareRetry = c.prepareRetry
	}
	c.secretForms = providers.SecretForms(opts.Credentials.Secrets())
	slices.SortStableFunc(c.secretForms, func(a, b string) int { return len(b) - len(a) }) // user:password before password
	return c, nil
}

func setDefaults(o *Options) {
	defaults.Set(&o.PerPage, DefaultPerPage)
	defaults.Set(&o.MaxPages, DefaultMaxPages)
	if o.RetryMax < 0 {
		o.RetryMax = 0
	} else if o.RetryMax == 0 {
		o.RetryMax = DefaultRetryMax
	}
	defaults.Set(&o.MaxRetryWait, DefaultMaxRetryWait)
	defaults.Set(&o.RetryWaitMin, DefaultRetryWaitMin)
	defaults.Set(&o.RetryWaitMax, DefaultRetryWaitMax)
	if o.RetryWaitMax < o.RetryWaitMin {
		o.RetryWaitMax = o.RetryWaitMin
	}
	defaults.Set(&o.RequestTimeout, DefaultRequestTimeout)
	defaults.Set(&o.MaxBodyBytes, DefaultMaxBodyBytes)
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
}

// Totals returns the cumulative statistics of the client.
func (c *Client) Totals() Stats {
	return Stats{Requests: int(c.requests.Load()), Pages: int(c.pages.Load()), CacheHits: int(c.cacheHits.Load()), Revalidated: int(c.revalidated.Load()), Shared: int(c.shared.Load())}
}

// BaseURL returns the base URL requests are sent to.
func (c *Client) BaseURL() string { return c.baseStr }

// CloseIdleConnections closes pooled idle connections (shutdown, tests).
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// checkRedirect decides which redirects a data request follows: only a
// permanent or method-preserving move (301, 307, 308) on the base URL's
// origin, e.g. a renamed repository, at most maxRedirects times. Anything
// else (302 Found and 303 See Other, where another resource answers, and
// every redirect to another origin) is not followed: the 3xx comes back
// as the response and is reported as an error, because an answer from
// elsewhere is not this method's answer. A followed redirect is recorded
// so that no absence is read from the answer it leads to.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	status := 0
	if req.Response != nil {
		status = req.Response.StatusCode
	}
	if !sameOrigin(req.URL, c.base) || (status != http.StatusMovedPermanently && status != http.StatusTemporaryRedirect && status != http.StatusPermanentRedirect) {
		return http.ErrUseLastResponse
	}
	if st := stateFrom(req.Context()); st != nil {
		st.redirected = true
	}
	return nil
}

// sameOrigin compares scheme and host:port (default ports made explicit).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(hostPort(a), hostPort(b))
}

// governorKey identifies a credential at an origin: what the governor
// and the GitHub App token cache are shared by.
func governorKey(base *url.URL, identity string) string {
	return strings.ToLower(base.Scheme) + "://" + strings.ToLower(hostPort(base)) + "\x00" + identity
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return u.Host + ":443"
	case "http":
		return u.Host + ":80"
	}
	return u.Host
}

// logf sends one debug line, with the credentials' secret redacted from
// the whole line (provider messages included) before anything can cut it.
func (c *Client) logf(format string, args ...any) {
	if c.opts.Logf != nil {
		c.opts.Logf("%s", c.redact(fmt.Sprintf(format, args...)))
	}
}
