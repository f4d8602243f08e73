package plan

import "fmt"

// Error is a planning failure: an unknown table, required parameters that
// the query does not bind, or a statement that needs more requests than
// allowed. It is built only in this package (RequestLimitError for the
// executor's refusals).
type Error struct {
	Table string
	// Missing maps method names to the required parameters they lack.
	Missing map[string][]string
	Msg     string
	// Setting names the limit the statement would exceed
	// ("max-requests"), empty otherwise. Msg does not say how to raise it:
	// that is the surface's advice (a flag for the CLI).
	Setting string
}

func (e *Error) Error() string { return e.Msg }

// ErrorKind is "plan".
func (e *Error) ErrorKind() string { return "plan" }

// MissingKeys returns the table and the required keys its methods lack
// (empty when the error is not about missing keys).
func (e *Error) MissingKeys() (string, map[string][]string) {
	if len(e.Missing) == 0 {
		return "", nil
	}
	return e.Table, e.Missing
}

// ErrorSetting names the limit the statement would exceed, or "".
func (e *Error) ErrorSetting() string { return e.Setting }

func errorf(table string, format string, args ...any) *Error {
	return &Error{Table: table, Msg: fmt.Sprintf(format, args...)}
}

// SettingMaxRequests is the Setting of errors about the request limit.
const SettingMaxRequests = "max-requests"

// RequestLimitError is the refusal of a statement that needs more than
// limit requests; msg says how many and what to narrow.
func RequestLimitError(table string, format string, args ...any) *Error {
	e := errorf(table, format, args...)
	e.Setting = SettingMaxRequests
	return e
}
