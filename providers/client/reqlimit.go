package client

import (
	"context"
	"fmt"

	"github.com/enginehq/engine/providers"
)

// WithRequestLimit is providers.WithRequestLimit: the calls of a client
// under the context send at most n requests in all; a request past the
// limit is not sent, and the call fails with a *RequestLimitError.
func WithRequestLimit(ctx context.Context, n int) context.Context {
	return providers.WithRequestLimit(ctx, n)
}

// takeRequest counts one request to be sent; false when the limit of ctx
// is reached (nothing is counted then).
func takeRequest(ctx context.Context) bool { return providers.RequestLimitOf(ctx).Take() }

// requestLimitOf is the limit of ctx, 0 when none.
func requestLimitOf(ctx context.Context) int { return providers.RequestLimitOf(ctx).Max() }

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
	sent := fmt.Sprintf("%d requests", e.Limit)
	if e.Limit == 1 {
		sent = "1 request"
	}
	return fmt.Sprintf("the statement sent %s, its limit (max-requests), and %s (GET %s) was not sent; no rows are returned. The provider kept asking for more pages than the estimate: narrow the query (WHERE keys, LIMIT)",
		sent, what, e.URL)
}

// ErrorKind is "plan", as for a statement refused on its estimate.
func (e *RequestLimitError) ErrorKind() string { return "plan" }

// ErrorSetting names the limit.
func (e *RequestLimitError) ErrorSetting() string { return "max-requests" }
