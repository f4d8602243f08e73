package pg

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/catalog"
)

// SQLSTATE codes the endpoint answers with (docs/pg.md, "Errors").
const (
	stateSyntax          = "42601" // syntax_error: the statement does not parse
	stateUndefinedTable  = "42P01" // undefined_table
	stateUndefinedColumn = "42703" // undefined_column
	stateInvalidParam    = "22023" // invalid_parameter_value: usage, and plan refusals (a key missing, a value refused)
	stateLimit           = "54000" // program_limit_exceeded: the statement would pass --max-requests or --max-pages
	stateReadOnly        = "25006" // read_only_sql_transaction: anything but a read
	stateCancelled       = "57014" // query_canceled: CancelRequest, and the statement's time limit
	stateProvider        = "58000" // system_error: the provider (API) failed; kind provider
	stateIncomplete      = "58000" // the provider's answer is partial (kind incomplete): the same class, the detail says which
	stateInternal        = "XX000" // internal_error
	stateFeature         = "0A000" // feature_not_supported
	stateProtocol        = "08P01" // protocol_violation
	stateTooMany         = "53300" // too_many_connections
	stateAuth            = "28P01" // invalid_password
	stateNoDatabase      = "3D000" // invalid_catalog_name
	stateIdle            = "57P05" // idle_session_timeout
	stateSystemQuery     = "42883" // an unsupported construct in a system catalog query (undefined_function and the like)
)

// pgError is an error the endpoint sends as an ErrorResponse.
type pgError struct {
	severity, code, message, detail, hint string
	// position is the 1-based character position of a syntax error in
	// the statement as the client sent it (0: none).
	position int32
}

func (e *pgError) Error() string { return e.message }

func (e *pgError) response() *pgproto3.ErrorResponse {
	sev := e.severity
	if sev == "" {
		sev = "ERROR"
	}
	return &pgproto3.ErrorResponse{Severity: sev, SeverityUnlocalized: sev, Code: e.code, Message: e.message, Detail: e.detail, Hint: e.hint, Position: e.position}
}

func errorf(code, format string, args ...any) *pgError {
	return &pgError{code: code, message: fmt.Sprintf(format, args...)}
}

// fromEngine is an engine error as a Postgres error: its SQLSTATE by
// kind, its message, and a detail line with the fields of the engine's
// error object (kind, http_status, provider, retryable,
// retry_after_seconds) so that a client can tell a provider failure from
// an empty result, and a hint with the next step when there is one.
func fromEngine(err error) *pgError {
	var pe *pgError
	if errors.As(err, &pe) {
		return pe
	}
	e := engine.Classify(err)
	out := &pgError{message: e.Error()}
	var nf *catalog.NotFound
	msg := e.Error()
	// undefined names first, as SQL and plan errors both say them
	named := func() string {
		switch {
		case errors.As(e, &nf) || undefinedTable(msg):
			return stateUndefinedTable
		case strings.Contains(msg, "no such column"):
			return stateUndefinedColumn
		}
		return ""
	}
	switch e.Kind {
	case engine.KindSQL:
		switch out.code = named(); {
		case out.code != "":
		case strings.Contains(msg, "only read-only") || strings.Contains(msg, "statements are not allowed") || strings.Contains(msg, "is not allowed"):
			out.code = stateReadOnly
		default:
			out.code = stateSyntax
		}
	case engine.KindPlan:
		switch out.code = named(); {
		case out.code != "":
		case e.Setting == "max-requests" || e.Setting == "max-pages":
			out.code = stateLimit
		default:
			out.code = stateInvalidParam
		}
	case engine.KindUsage:
		out.code = stateInvalidParam
		if strings.Contains(msg, "views are created and dropped with") {
			out.code = stateReadOnly // CREATE VIEW, DROP VIEW: a write, refused as one
		}
	case engine.KindProvider:
		out.code = stateProvider
	case engine.KindIncomplete:
		out.code = stateIncomplete
	case engine.KindTimeout, engine.KindCancelled:
		out.code = stateCancelled
	default:
		out.code = stateInternal
	}
	fields := []string{"kind=" + string(e.Kind)}
	if p := e.Provider; p != nil {
		if p.Status > 0 {
			fields = append(fields, fmt.Sprintf("http_status=%d", p.Status))
		}
		if p.Provider != "" {
			fields = append(fields, "provider="+p.Provider)
			if !strings.Contains(out.message, p.Provider) {
				out.message = "provider " + p.Provider + ": " + out.message
			}
		}
		if s := p.RetryAfterSeconds(); s > 0 {
			fields = append(fields, fmt.Sprintf("retry_after_seconds=%d", s))
		}
	}
	fields = append(fields, fmt.Sprintf("retryable=%t", e.Retryable()))
	if e.Setting != "" {
		fields = append(fields, "setting="+e.Setting)
	}
	out.detail = strings.Join(fields, " ")
	switch {
	case e.NextStep() != "":
		out.hint = e.NextStep()
	case e.Retryable():
		out.hint = "a retryable failure: running the statement again may succeed"
	}
	return out
}

// undefinedTable reports whether an engine message is the catalog's
// "no such table" (engine.sqlNotFound's wordings, SQLite's own).
func undefinedTable(msg string) bool {
	for _, w := range []string{"no such table", "unknown table ", "no table ", "unknown provider ", "has no service "} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
