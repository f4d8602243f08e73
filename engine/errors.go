package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

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
	// retryabler says whether the error is retryable, when its kind
	// alone does not (an incomplete answer that no retry changes).
	retryabler interface{ Retryable() bool }
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

// Retryable reports whether running the same statement again may
// succeed. A statement stopped by its own time limit (Setting
// SettingQueryTimeout) is not: under the same limit it is expected to
// run out again, and the way out is a narrower statement; a timeout of
// another making (a caller's deadline) is.
func (e *Error) Retryable() bool {
	if e.Provider != nil {
		return e.Provider.Retryable
	}
	var r retryabler
	if errors.As(e.Err, &r) {
		return r.Retryable()
	}
	return (e.Kind == KindTimeout && e.Setting != SettingQueryTimeout && e.Setting != SettingRunTimeout) || e.Kind == KindIncomplete
}

// SettingRunTimeout is the Setting of a statement stopped by its run's
// time limit (the CLI's --run-timeout of a check run or an exec script):
// like the statement's own limit, not retryable under the same limit.
const SettingRunTimeout = "run-timeout"

// SettingQueryTimeout is the Setting of a statement stopped by its time
// limit (Options.QueryTimeout; the CLI's --query-timeout).
const SettingQueryTimeout = "query-timeout"

// QueryTimeoutError is a statement stopped by the engine's time limit of
// one statement (Options.QueryTimeout). Its message names the limit and
// the way out, and no flag (surfaces add how to change the setting).
type QueryTimeoutError struct {
	Limit time.Duration
	// Queued, when the limit counts the statement's own work only
	// (Options.QueueNotCounted), is the time its requests waited in the
	// rate-limit queue besides, which did not count.
	Queued time.Duration
}

func (e *QueryTimeoutError) Error() string {
	after := e.Limit.String()
	if e.Queued > 0 {
		after += fmt.Sprintf(" of its own work (besides %s waiting for the rate limit, which does not count)", e.Queued)
	}
	return fmt.Sprintf("query timed out after %s, the time limit of one statement (query-timeout): narrow the query (WHERE keys, LIMIT, fewer IN values); running the same statement again will time out again", after)
}

// ErrorKind is "timeout".
func (e *QueryTimeoutError) ErrorKind() string { return string(KindTimeout) }

// ErrorSetting names the limit.
func (e *QueryTimeoutError) ErrorSetting() string { return SettingQueryTimeout }

// Is makes the error a context.DeadlineExceeded for errors.Is.
func (e *QueryTimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// NextStep is the next step of a provider's refusal that no retry
// changes, in no surface's terms (no flag, no tool): 401 (credentials
// missing or refused), 403 (a permission the credentials lack, or a rate
// or abuse limit when the provider said so) and 404 (a name misspelt, or
// not visible to the credentials). "" for any other error. The MCP
// surface adds it to the message; the CLI's advice says the same with
// the variables and flags it knows.
func (e *Error) NextStep() string {
	p := e.Provider
	if p == nil || p.Kind != "http" {
		return ""
	}
	switch {
	case p.Status == 401:
		return "the credentials for " + p.Provider + " were missing or refused (the query is not at fault): they must be set and valid; running it again fails the same way"
	case p.Status == 403 && p.RateLimited && p.RetryAfterSeconds() > 0:
		return fmt.Sprintf("a rate or abuse limit of the provider, not a permission: wait %ds (retry_after_seconds), then run it again; fewer requests (WHERE keys, LIMIT) spend less of the limit", p.RetryAfterSeconds())
	case p.Status == 403 && p.RateLimited:
		return "a rate or abuse limit of the provider, not a permission: wait a minute, then run it again; fewer requests (WHERE keys, LIMIT) spend less of the limit"
	case p.Status == 403:
		return "the credentials lack a permission this request needs (a token scope, an app permission, or the organization's policy; the provider's own message says which when it does): no query changes that; query what these credentials may read"
	case p.Status == 404:
		return "check the spelling of the names in WHERE (owner, repo, org, ...): a 404 also means the credentials cannot see it (a private resource); running it again fails the same way"
	}
	return ""
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
