package providers

import (
	"context"
	"sync/atomic"
	"time"
)

// The values a statement's runner and a provider's client exchange: the
// runner (engine/exec) names them through its Fetcher interface without
// importing the client (providers/client), which aliases them.

// Call is one execution of a method.
type Call struct {
	Method *Method
	// Params holds values by parameter name. Every required parameter must
	// be present; names the method does not declare are rejected.
	Params map[string]string
	// Limit > 0 stops fetching pages once this many items were emitted
	// (pages are then fetched sequentially). Pages are emitted whole, so
	// more than Limit items may be emitted.
	Limit int
	// OnPage, when set, is called after each emitted page with the number of
	// pages emitted so far. It is called serially from Do's goroutine.
	OnPage func(pages int)
}

// FetchStats count the work of one call or of a client's lifetime.
// Requests counts every HTTP attempt, retries included; Pages counts pages
// received successfully; CacheHits counts pages answered by the cache
// without a request; Revalidated counts requests answered 304 Not Modified
// (served from the cache, free of GitHub's rate limit). Parts counts the
// date ranges a query over the provider's result cap was split into; 0
// when it was not split. Shared counts pages read from an identical GET
// another asker sent, in flight or earlier in the run (the client's
// share.go): no request of their own.
type FetchStats struct{ Requests, Pages, CacheHits, Revalidated, Parts, Shared int }

// BucketBudget is what a statement learns of one rate-limit bucket.
type BucketBudget struct {
	Bucket    string
	Limit     int
	Remaining int
	Reset     time.Time
}

// A statement's request limit (--max-requests): the engine estimates the
// requests of a statement before it sends any and refuses one that needs
// more; WithRequestLimit makes the limit hold for the requests actually
// sent too, pages and retries included, whatever the provider answers (a
// server that keeps sending rel="next" is stopped at the limit, not at
// max-pages of every call). Requests answered by the cache without being
// sent, the free rate-limit probe and GitHub App token exchanges are not
// counted.

type requestLimitKey struct{}

// RequestLimit is the request limit a context carries.
type RequestLimit struct {
	max  int64
	sent atomic.Int64
}

// WithRequestLimit returns a context under which the calls of a client
// (any number, concurrently) send at most n requests in all; a request
// past the limit is not sent, and the call fails. n <= 0 means no limit.
func WithRequestLimit(ctx context.Context, n int) context.Context {
	if n <= 0 {
		return ctx
	}
	return context.WithValue(ctx, requestLimitKey{}, &RequestLimit{max: int64(n)})
}

// RequestLimitOf is the limit ctx carries, nil when none.
func RequestLimitOf(ctx context.Context) *RequestLimit {
	l, _ := ctx.Value(requestLimitKey{}).(*RequestLimit)
	return l
}

// Take counts one request to be sent; false when the limit is reached
// (nothing is counted then). A nil limit takes every request.
func (l *RequestLimit) Take() bool {
	if l == nil {
		return true
	}
	if l.sent.Add(1) > l.max {
		l.sent.Add(-1)
		return false
	}
	return true
}

// Max is the limit, 0 for none.
func (l *RequestLimit) Max() int {
	if l == nil {
		return 0
	}
	return int(l.max)
}
