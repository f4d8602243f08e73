package client

import (
	"context"
	"fmt"
	"sync/atomic"
)

// A statement's request limit (--max-requests): the engine estimates the
// requests of a statement before it sends any and refuses one that needs
// more; WithRequestLimit makes the limit hold for the requests actually
// sent too, pages and retries included, whatever the provider answers (a
// server that keeps sending rel="next" is stopped at the limit, not at
// max-pages of every call). Requests answered by the cache without being
// sent, the free rate-limit probe and GitHub App token exchanges are not
// counted.

type requestLimitKey struct{}

type requestLimit struct {
	max  int64
	sent atomic.Int64
}

// WithRequestLimit returns a context under which the calls of a client
// (Do, any number, concurrently) send at most n requests in all; a
// request past the limit is not sent, and the call fails with a
// *RequestLimitError. n <= 0 means no limit.
func WithRequestLimit(ctx context.Context, n int) context.Context {
	if n <= 0 {
		return ctx
	}
	return context.WithValue(ctx, requestLimitKey{}, &requestLimit{max: int64(n)})
}

// takeRequest counts one request to be sent; false when the limit of ctx
// is reached (nothing is counted then).
func takeRequest(ctx context.Context) bool {
	l, _ := ctx.Value(requestLimitKey{}).(*requestLimit)
	if l == nil {
		return true
	}
	if l.sent.Add(1) > l.max {
		l.sent.Add(-1)
		return false
	}
	return true
}

// requestLimitOf is the limit of ctx, 0 when none.
func requestLimitOf(ctx context.Context) int {
	if l, _ := ctx.Value(requestLimitKey{}).(*requestLimit); l != nil {
		return int(l.max)
	}
	return 0
}

// RequestLimitError is a request not sent because the statement had sent
// as many as its limit allows. Its kind is "plan", the kind of the
// estimate's refusal, and it names the same setting.
type RequestLimitError struct {
	Provider string
	URL      string // sanitized
	Limit    int
	// Retry is true when the request not sent was a retry.
	Retry bool
}

func (e *RequestLimitError) Error() string {
	what := "the next request"
	if e.Retry {
		what = "a retry"
	}
	return fmt.Sprintf("the statement sent %d requests, its limit (max-requests), and %s (GET %s) was not sent; no rows are returned. The provider kept asking for more pages than the estimate: narrow the query (WHERE keys, LIMIT)",
		e.Limit, what, e.URL)
}

// ErrorKind is "plan", as for a statement refused on its estimate.
func (e *RequestLimitError) ErrorKind() string { return "plan" }

// ErrorSetting names the limit.
func (e *RequestLimitError) ErrorSetting() string { return "max-requests" }
