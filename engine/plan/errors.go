package plan

import "fmt"

// Error is a planning failure: an unknown table, or required parameters
// that the query does not bind.
type Error struct {
	Table string
	// Missing maps method names to the required parameters they lack.
	Missing map[string][]string
	Msg     string
}

func (e *Error) Error() string { return e.Msg }

func errorf(table string, format string, args ...any) *Error {
	return &Error{Table: table, Msg: fmt.Sprintf(format, args...)}
}
