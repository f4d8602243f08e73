package providers

import (
	"fmt"
	"time"
)

// ProviderError is the typed error for any failed provider request: an HTTP
// status >= 400, a transport failure, or a body that cannot be decoded. It
// never carries credentials: URL is stripped of userinfo and secret query
// parameters before it is stored.
type ProviderError struct {
	Provider string
	// Method is the HTTP method ("GET"); Operation is the operationId.
	Method    string
	Operation string
	URL       string
	// Status is the HTTP status, 0 for transport and decode failures.
	Status int
	// Body is an excerpt of the response body (at most a few hundred bytes).
	Body string
	// Message is a one-line description (e.g. "API rate limit exceeded").
	Message    string
	Retryable  bool
	RetryAfter time.Duration
	// RateLimited is true for primary or secondary rate limits (the
	// provider profile's headers and phrases, 429, an error-in-200 code).
	RateLimited bool
	// Kind is "http", "transport", "unreachable" (nothing answered: the
	// host name does not resolve, the host refuses the connection, or no
	// network; retried only for a DNS failure the resolver calls
	// temporary), "decode", "timeout", "redirect"
	// (a 3xx that was not followed) or "incomplete" (a 2xx the provider
	// marks as partial, e.g. GitHub search's "incomplete_results": true,
	// or a query matching more results than the provider serves that the
	// engine cannot split, Method.Cap);
	// for requests never sent, "budget" (the rate-limit bucket cannot cover
	// the statement before its reset) or "paused" (every request of the
	// credential waits out a secondary rate limit); "auth" when GitHub App
	// credentials could not be exchanged for a token; "pagination" when an
	// answer says there is more and the method's paging cannot get it (or
	// a cursor loops); "link" when an answer's Link rel="next" points
	// where the engine will not go (another host or path, a page already
	// read). A 2xx that the profile's "error in a 200" rule marks as
	// failed is "http" with that 2xx status.
	Kind string
	// Attempts is how many times the request was tried.
	Attempts int
}

// Error implements error: "GET URL failed: 403 message".
func (e *ProviderError) Error() string {
	msg := e.Message
	switch {
	case e.Status > 0 && msg != "":
		return fmt.Sprintf("%s %s failed: %d %s", httpMethod(e.Method), e.URL, e.Status, msg)
	case e.Status > 0:
		return fmt.Sprintf("%s %s failed: %d", httpMethod(e.Method), e.URL, e.Status)
	default:
		if msg == "" {
			msg = e.Kind + " error"
		}
		return fmt.Sprintf("%s %s failed: %s", httpMethod(e.Method), e.URL, msg)
	}
}

func httpMethod(m string) string {
	if m == "" {
		return "GET"
	}
	return m
}

// RetryAfterSeconds returns the retry delay rounded up to whole seconds, or
// 0. It is never negative, whatever RetryAfter holds.
func (e *ProviderError) RetryAfterSeconds() int {
	if e.RetryAfter <= 0 {
		return 0
	}
	s := int64(e.RetryAfter / time.Second)
	if e.RetryAfter%time.Second != 0 {
		s++
	}
	return int(s)
}

// ErrorKind is the error's kind for the engine's classification:
// "incomplete" for a partial answer, "provider" for every other failure.
func (e *ProviderError) ErrorKind() string {
	if e.Kind == "incomplete" || e.Kind == "pagination" {
		// An answer saying there is more that the engine cannot get, or
		// pages that loop: the rows would be incomplete.
		return "incomplete"
	}
	return "provider"
}
