package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/enginehq/engine/providers"
)

// Retry policy (docs/architecture.md, "Errors"):
//
//	retryable:     408, 429, 500-599, connection resets, timeouts,
//	               403 with x-ratelimit-remaining: 0, with Retry-After, or
//	               with a body saying "rate limit" or "abuse detection"
//	not retryable: every other status >= 300, TLS certificate failures,
//	               redirect loops, invalid URLs, oversized bodies, a host
//	               that is unreachable (name not found, connection refused,
//	               no route); a DNS failure the resolver calls temporary is
//	               retried
//
// The wait before a retry is Retry-After (seconds or HTTP date), else
// x-ratelimit-reset when the quota is spent, else 60s for a rate limit
// without hints (GitHub: "wait at least one minute"), else exponential
// backoff with jitter between RetryWaitMin and RetryWaitMax. Server-given
// waits are clamped to [1s, maxServerWait]. The sum of waits of one request stays within
// MaxRetryWait: a wait that does not fit ends the retries at once.

// maxServerWait bounds a wait read from Retry-After or x-ratelimit-reset, so
// that a hostile or garbled value cannot overflow retry_after_seconds.
// GitHub's own resets are at most an hour away.
const maxServerWait = 24 * time.Hour

// bodyExcerpt is how much of a response body a ProviderError keeps;
// messageLimit is how much of a provider's message. Both are cut after
// redaction.
const (
	bodyExcerpt  = 300
	messageLimit = 300
)

// bodyKeep is how much of an oversized body is kept for the error excerpt:
// more than bodyExcerpt, so that a secret straddling the excerpt's end is
// still whole when it is redacted.
const bodyKeep = 4096

type stateKey struct{}

// attemptState is the per-request state shared by the retryablehttp hooks,
// reached through the request context. Hooks run on the goroutine that
// called retryablehttp's Do, so no locking is needed.
type attemptState struct {
	client   *Client
	url      string // sanitized, for logs
	attempts int
	waited   time.Duration // backoff budget spent
	nextWait time.Duration // wait planned by checkRetry for backoff
	body     []byte
	readErr  error
	tooBig   bool
	// redirected is set when a redirect was followed (checkRedirect).
	redirected bool
	// limited is set when a retry was not sent: the statement's request
	// limit was reached (reqlimit.go).
	limited bool
}

func stateFrom(ctx context.Context) *attemptState {
	st, _ := ctx.Value(stateKey{}).(*attemptState)
	return st
}

// countAttempt is the RequestLogHook: it runs before every attempt.
func countAttempt(_ retryablehttp.Logger, req *http.Request, retry int) {
	if st := stateFrom(req.Context()); st != nil {
		st.attempts = retry + 1
		st.body, st.readErr, st.tooBig, st.redirected = nil, nil, false, false
	}
}

// keepLastResponse is the ErrorHandler: it hands back the last response
// and error unchanged so that fetch can build the ProviderError.
func keepLastResponse(resp *http.Response, err error, _ int) (*http.Response, error) {
	return resp, err
}

// checkRetry is the CheckRetry policy. It reads the body (bounded) so that
// the decision can look at it, and plans the next wait within the budget.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	st := stateFrom(ctx)
	if st == nil {
		return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
	}
	var d decision
	switch {
	case err != nil:
		d.retryable = transportRetryable(err)
		d.message = err.Error()
	default:
		st.readBody(resp, c.opts.MaxBodyBytes)
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		switch {
		case st.readErr != nil:
			d.retryable = transportRetryable(st.readErr)
			d.message = st.readErr.Error()
		case st.tooBig && resp.StatusCode >= 200 && resp.StatusCode <= 299:
			return false, nil // fetch reports it; error statuses are classified on the excerpt
		default:
			d = classifyWith(c.prof, resp.StatusCode, resp.Header, st.body, time.Now())
		}
	}
	if !d.retryable || st.attempts > c.opts.RetryMax {
		return false, nil
	}
	var wait, account time.Duration
	if d.retryAfter > 0 {
		wait, account = d.retryAfter, d.retryAfter
	} else {
		lo, hi := expBounds(c.opts.RetryWaitMin, c.opts.RetryWaitMax, st.attempts-1)
		wait, account = jitter(lo, hi), hi
		if resp != nil {
			account = wait // backoff will use exactly this wait
		}
	}
	if remaining := c.opts.MaxRetryWait - st.waited; account > remaining {
		c.logf("GET %s: not retrying: wait %s exceeds the remaining retry budget %s (%s)", st.url, wait, remaining.Round(time.Millisecond), d.message)
		return false, nil
	}
	if !takeRequest(ctx) {
		st.limited = true // the statement's request limit (reqlimit.go)
		return false, nil
	}
	st.waited += account
	st.nextWait = wait
	c.logf("GET %s: retrying in %s (attempt %d of %d: %s)", st.url, wait.Round(time.Millisecond), st.attempts, c.opts.RetryMax+1, d.message)
	return true, nil
}

// backoff is the Backoff policy: the wait planned by checkRetry when the
// request is reachable, else (transport errors) exponential with jitter
// within the bounds checkRetry accounted for.
func (c *Client) backoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	if resp != nil && resp.Request != nil {
		if st := stateFrom(resp.Request.Context()); st != nil {
			return st.nextWait
		}
	}
	return jitter(expBounds(min, max, attemptNum))
}

// expBounds returns the jitter range of the n-th retry (0-based):
// [min*2^n, 1.5*min*2^n], both capped at max.
func expBounds(min, max time.Duration, n int) (lo, hi time.Duration) {
	lo = max
	if n < 30 {
		if d := min << n; d > 0 && d < max {
			lo = d
		}
	}
	hi = lo + lo/2
	if hi > max {
		hi = max
	}
	return lo, hi
}

func jitter(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + rand.N(hi-lo+1)
}

// readBody reads at most limit bytes of the body into the state and leaves
// a replayable body on resp (retryablehttp drains it before a retry).
func (st *attemptState) readBody(resp *http.Response, limit int64) {
	defer resp.Body.Close()
	if resp.ContentLength > limit {
		st.tooBig = true
		resp.Body = http.NoBody
		return
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		st.readErr = fmt.Errorf("reading response body: %w", err)
	} else if int64(len(data)) > limit {
		st.tooBig = true
		data = data[:min(len(data), bodyKeep)]
	}
	st.body = data
	resp.Body = io.NopCloser(bytes.NewReader(data))
}

// decision is the classification of one response.
type decision struct {
	retryable   bool
	rateLimited bool
	retryAfter  time.Duration
	message     string
}

// classifyWith classifies a response status (meaningful for non-2xx)
// with the provider's profile: its error-message fields, its rate-limit
// headers and phrases (providers.Profile; nil means the generic defaults).
// A 2xx that the profile's "error in a 200" rule marks as failed is
// classified by its code (errin200.go).
func classifyWith(prof *providers.Profile, status int, h http.Header, body []byte, now time.Time) decision {
	rl := prof.RateLimitOf()
	d := decision{message: apiMessageOf(prof, body)}
	if d.message == "" {
		d.message = http.StatusText(status)
	}
	if status >= 200 && status < 300 {
		if f, ok := failedIn200(prof, body); ok {
			return f.decision(h, now)
		}
		return d
	}
	spent := rl.Remaining != "" && strings.TrimSpace(h.Get(rl.Remaining)) == "0"
	hinted := strings.TrimSpace(h.Get("Retry-After")) != ""
	switch {
	case status == http.StatusTooManyRequests:
		d.retryable, d.rateLimited = true, true
	case status == http.StatusForbidden && (spent || hinted || bodyMentions(body, rl.Phrases...)):
		// primary (remaining 0) or secondary (the profile's phrases,
		// Retry-After) rate limit.
		d.retryable, d.rateLimited = true, true
	case status == http.StatusRequestTimeout, status >= 500 && status <= 599:
		d.retryable = true
	}
	if !d.retryable {
		return d
	}
	d.retryAfter = parseRetryAfter(h.Get("Retry-After"), now)
	if d.retryAfter <= 0 && spent && rl.Reset != "" {
		d.retryAfter = resetWait(h.Get(rl.Reset), now)
	}
	if d.retryAfter <= 0 && d.rateLimited {
		d.retryAfter = rl.SecondaryWait()
	}
	return d
}

// bodyMentions reports whether the first 4 KiB of body contain one of
// phrases (lower case), ignoring case.
func bodyMentions(body []byte, phrases ...string) bool {
	b := bytes.ToLower(body[:min(len(body), 4096)])
	for _, p := range phrases {
		if p != "" && bytes.Contains(b, []byte(strings.ToLower(p))) {
			return true
		}
	}
	return false
}

// parseRetryAfter reads Retry-After as delay-seconds or an HTTP date; 0
// means no usable value.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		if n > int64(maxServerWait/time.Second) {
			return maxServerWait
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if t.After(now.Add(maxServerWait)) {
			return maxServerWait
		}
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// resetWait is the wait until x-ratelimit-reset (parseReset). A reset in
// the past waits one second; one further than maxServerWait waits
// maxServerWait.
func resetWait(v string, now time.Time) time.Duration {
	reset, ok := parseReset(v)
	if !ok {
		return 0
	}
	if reset.Unix() >= now.Add(maxServerWait).Unix() {
		return maxServerWait
	}
	if d := reset.Sub(now); d > 0 {
		return d.Round(time.Second)
	}
	return time.Second
}

// parseReset reads x-ratelimit-reset: epoch seconds, or milliseconds when
// the value is too large to be seconds.
func parseReset(v string) (time.Time, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}, false
	}
	if n >= 1e11 { // epoch seconds reach 1e11 only in the year 5138
		n /= 1000
	}
	return time.Unix(n, 0), true
}

// apiMessage extracts an error body's message with the generic list of
// message fields (used before a client and its profile exist).
func apiMessage(body []byte) string { return apiMessageOf(nil, body) }

// apiMessageOf extracts an error body's message on one line, whole
// (callers redact before they cut it, providers.OneLine): the first of the
// profile's error-message paths (GitHub "message", Slack "error",
// "error.message", Atlassian's "errorMessages" array, joined) that holds
// a non-empty string.
func apiMessageOf(prof *providers.Profile, body []byte) string {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return ""
	}
	for _, path := range prof.ErrorMessageFields() {
		if s := stringAt(b, path); s != "" {
			return providers.OneLine(s, 0)
		}
	}
	return ""
}

// transportRetryable reports whether a transport failure may succeed on a
// retry (same exclusions as retryablehttp's default policy).
func transportRetryable(err error) bool {
	var ue *url.Error
	if errors.As(err, &ue) {
		msg := ue.Err.Error()
		if strings.Contains(msg, "stopped after") && strings.Contains(msg, "redirects") {
			return false
		}
		if strings.Contains(msg, "unsupported protocol scheme") || strings.Contains(msg, "invalid header") {
			return false
		}
	}
	if yes, retry := unreachable(err); yes {
		return retry
	}
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	if errors.As(err, &certErr) || errors.As(err, &unknownAuth) || errors.As(err, &hostErr) {
		return false
	}
	return true
}

// unreachable reports whether a transport failure means that nothing
// answered because the host could not be reached: its name does not
// resolve (DNS), the host refuses the connection (nothing listens on the
// port), or there is no route to any network (offline); and whether a
// retry may mend it (a DNS failure the resolver calls temporary, not "no
// such host").
func unreachable(err error) (yes, retry bool) {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true, !dns.IsNotFound && (dns.IsTimeout || dns.IsTemporary)
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENETUNREACH) {
		return true, false
	}
	return false, false
}

// classifyTransport fills a ProviderError for a transport failure.
func classifyTransport(err error, pe *providers.ProviderError, redact func(string) string) {
	pe.Kind = "transport"
	pe.Retryable = transportRetryable(err)
	inner := err
	var ue *url.Error
	if errors.As(err, &ue) {
		inner = ue.Err // url.Error repeats the URL, which pe.URL already has
	}
	if yes, _ := unreachable(err); yes {
		pe.Kind = "unreachable"
	}
	var ne net.Error
	if (errors.As(err, &ne) && ne.Timeout()) || errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout") {
		pe.Kind = "timeout"
	}
	pe.Message = providers.OneLine(redact(inner.Error()), messageLimit)
}

// statusError builds the ProviderError of a non-2xx response. Provider
// text (message, body excerpt) is redacted first, then cut.
func (c *Client) statusError(call Call, r *response) *providers.ProviderError {
	d := classifyWith(c.prof, r.status, r.header, r.body, time.Now())
	pe := c.newError(call, r.url.String(), "http", "")
	pe.Message = providers.OneLine(c.redact(d.message), messageLimit)
	pe.Status = r.status
	pe.Body = providers.TruncateUTF8(c.redact(string(r.body)), bodyExcerpt)
	pe.Retryable = d.retryable
	pe.RateLimited = d.rateLimited
	pe.RetryAfter = d.retryAfter
	pe.Attempts = r.attempts
	switch {
	case r.status >= 300 && r.status <= 399:
		pe.Kind = "redirect"
		pe.Message = c.redirectMessage(call, r)
	case r.redirected:
		pe.Message += " (after a redirect; an answer reached through a redirect is never read as \"no rows\")"
	}
	return pe
}

// redirectMessage explains a redirect that was not followed.
func (c *Client) redirectMessage(call Call, r *response) string {
	loc := strings.TrimSpace(r.header.Get("Location"))
	var msg string
	target, err := r.url.Parse(loc)
	switch {
	case loc == "" || err != nil:
		msg = "a redirect without a usable Location; the answer is not this request's data"
	case !sameOrigin(target, c.base):
		msg = fmt.Sprintf("redirected to another host (%s); data from another origin is not read as this table's rows", c.sanitize(target.Scheme+"://"+target.Host))
	default:
		msg = fmt.Sprintf("redirected to %s; a different resource answers there, so the engine cannot tell this request's answer", c.sanitize(target.RequestURI()))
	}
	if call.Method != nil && call.Method.RedirectAdvice != "" {
		msg += ". " + call.Method.RedirectAdvice
	}
	return msg
}
