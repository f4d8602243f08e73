package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers"
)

// Kind classifies an error for callers (exit codes, MCP error results).
type Kind string

// Error kinds, as in DESIGN.md.
const (
	KindSQL      Kind = "sql"
	KindPlan     Kind = "plan"
	KindProvider Kind = "provider"
	// KindIncomplete: the provider answered, but said the answer is partial
	// (GitHub search's "incomplete_results": true). Never rows; retryable.
	KindIncomplete Kind = "incomplete"
	KindTimeout    Kind = "timeout"
	// KindCancelled: the caller cancelled the statement (MCP
	// notifications/cancelled, a closed HTTP request, Ctrl-C). Not
	// retryable: nothing failed, and the caller no longer wants the answer.
	KindCancelled Kind = "cancelled"
	KindInternal  Kind = "internal"
)

// Error is every error Engine.Query returns.
type Error struct {
	Kind Kind
	Err  error
	// Provider is set for provider errors.
	Provider *providers.ProviderError
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether running the statement again may succeed.
func (e *Error) Retryable() bool {
	if e.Provider != nil {
		return e.Provider.Retryable
	}
	return e.Kind == KindTimeout || e.Kind == KindIncomplete
}

// Classify wraps any error from the data path into an *Error.
func Classify(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var pe *providers.ProviderError
	if errors.As(err, &pe) {
		kind := KindProvider
		if pe.Kind == "incomplete" {
			kind = KindIncomplete
		}
		return &Error{Kind: kind, Err: err, Provider: pe}
	}
	var se *sqlfront.Error
	if errors.As(err, &se) {
		return &Error{Kind: KindSQL, Err: err}
	}
	var qe *store.QueryError
	if errors.As(err, &qe) {
		return &Error{Kind: KindSQL, Err: fmt.Errorf("SQL error: %w", err)}
	}
	var pl *plan.Error
	if errors.As(err, &pl) {
		return &Error{Kind: KindPlan, Err: err}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Kind: KindTimeout, Err: fmt.Errorf("query timed out: %w", err)}
	case errors.Is(err, context.Canceled):
		return &Error{Kind: KindCancelled, Err: fmt.Errorf("query cancelled")}
	}
	return &Error{Kind: KindInternal, Err: err}
}

// ErrorBody is the machine-readable error object of DESIGN.md, shared by
// `exec -o json`, MCP error results and check reports.
type ErrorBody struct {
	Message           string `json:"message"`
	Kind              Kind   `json:"kind"`
	HTTPStatus        int    `json:"http_status,omitempty"`
	Provider          string `json:"provider,omitempty"`
	Retryable         bool   `json:"retryable"`
	RetryAfterSeconds int    `json:"retry_after_seconds,omitempty"`
}

// Body returns the error object.
func (e *Error) Body() ErrorBody {
	b := ErrorBody{Message: e.Error(), Kind: e.Kind, Retryable: e.Retryable()}
	if p := e.Provider; p != nil {
		b.HTTPStatus = p.Status
		b.Provider = p.Provider
		b.RetryAfterSeconds = p.RetryAfterSeconds()
	}
	return b
}
