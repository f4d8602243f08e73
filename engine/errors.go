package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/enginehq/engine/providers"
)

// Kind classifies an error for callers (exit codes, MCP error results).
type Kind string

// Error kinds, as in docs/architecture.md. Kinds lists them all; the MCP
// output schema's enum is derived from it.
const (
	// KindUsage: bad arguments, flags or configuration (an unknown
	// result_id, a negative offset, credentials that cannot be read).
	// Nothing was sent; fix the call, not the statement.
	KindUsage    Kind = "usage"
	KindSQL      Kind = "sql"
	KindPlan     Kind = "plan"
	KindProvider Kind = "provider"
	// KindIncomplete: the provider answered, but said the answer is partial
	// (GitHub search's "incomplete_results": true; retryable), or the
	// engine cannot get every row: a query matching more results than the
	// provider serves that it cannot split (GitHub code search past 1,000;
	// not retryable). Never rows.
	KindIncomplete Kind = "incomplete"
	KindTimeout    Kind = "timeout"
	// KindCancelled: the caller cancelled the statement (MCP
	// notifications/cancelled, a closed HTTP request, Ctrl-C). Not
	// retryable: nothing failed, and the caller no longer wants the answer.
	KindCancelled Kind = "cancelled"
	KindInternal  Kind = "internal"
)

// Kinds is every Kind, in the order of the wire contract.
func Kinds() []Kind {
	return []Kind{KindUsage, KindSQL, KindPlan, KindProvider, KindIncomplete, KindTimeout, KindCancelled, KindInternal}
}

// The interfaces a leaf error implements to classify itself; Classify
// asks them instead of knowing the leaf types. The leaf packages (plan,
// sqlfront, store, providers) sit below engine, so they return plain
// strings.
type (
	// kinder says the error's kind (one of Kinds).
	kinder interface {
		error
		ErrorKind() string
	}
	// prefixer asks for a prefix before the message ("SQL error").
	prefixer interface{ ErrorPrefix() string }
	// positioner gives the byte offset of a syntax error, -1 if unknown.
	positioner interface{ Position() int }
	// missinger names the table whose methods lack required WHERE keys.
	missinger interface {
		MissingKeys() (table string, missing map[string][]string)
	}
	// setter names the setting the error is about, e.g. the limit the
	// statement ran into ("max-requests", "max-pages"); surfaces say how
	// to change it in their own terms (a flag for the CLI).
	setter interface{ ErrorSetting() string }
)

// Error is every error Engine.Query returns. Surfaces read its fields, not
// the leaf errors it wraps.
type Error struct {
	Kind Kind
	Err  error
	// Provider is set for provider errors.
	Provider *providers.ProviderError
	// Pos is the byte offset of a SQL syntax error in the statement, -1
	// when unknown or not a syntax error.
	Pos int
	// Table and Missing are set for a table whose methods lack required
	// WHERE keys (method name -> missing keys).
	Table   string
	Missing map[string][]string
	// Setting names the setting the error is about, e.g. the limit the
	// statement ran into ("max-requests", "max-pages"); empty otherwise.
	// It may name its subject after a colon ("provider:acme").
	// The message does not say how to change it (flags are the CLI's,
	// and an MCP agent has none): surfaces add that advice.
	Setting string
}

func (e *Error) Error() string { return e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// ErrorSetting returns Setting (the method every error about a setting
// has, for the surfaces' advice).
func (e *Error) ErrorSetting() string { return e.Setting }

// Retryable reports whether running the statement again may succeed.
func (e *Error) Retryable() bool {
	if e.Provider != nil {
		return e.Provider.Retryable
	}
	return e.Kind == KindTimeout || e.Kind == KindIncomplete
}

// Errorf makes an *Error of kind k.
func Errorf(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Err: fmt.Errorf(format, args...), Pos: -1}
}

// Classify wraps any error from the data path into an *Error: the kind is
// the one the leaf error says (ErrorKind), else timeout or cancelled for
// the context's errors, else internal.
func Classify(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	out := &Error{Kind: KindInternal, Err: err, Pos: -1}
	var k kinder
	switch {
	case errors.As(err, &k):
		out.Kind = Kind(k.ErrorKind())
		if p, ok := k.(prefixer); ok {
			out.Err = fmt.Errorf("%s: %w", p.ErrorPrefix(), err)
		}
		if p, ok := k.(positioner); ok {
			out.Pos = p.Position()
		}
		if m, ok := k.(missinger); ok {
			out.Table, out.Missing = m.MissingKeys()
		}
		if l, ok := k.(setter); ok {
			out.Setting = l.ErrorSetting()
		}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Kind: KindTimeout, Err: fmt.Errorf("query timed out: %w", err), Pos: -1}
	case errors.Is(err, context.Canceled):
		return &Error{Kind: KindCancelled, Err: fmt.Errorf("query cancelled"), Pos: -1}
	}
	if pe := (*providers.ProviderError)(nil); errors.As(err, &pe) {
		out.Provider = pe
	}
	return out
}

// ErrorBody is the machine-readable error object (docs/architecture.md),
// the one declaration of the wire shape: `exec -o json`, MCP error results
// (and their output schema), check reports and the tests all use it.
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
