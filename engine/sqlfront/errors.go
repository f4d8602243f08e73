package sqlfront

import "fmt"

// Error is a syntax or validation error in the statement text.
type Error struct {
	Pos int // byte offset in the statement, -1 when unknown
	Msg string
}

func (e *Error) Error() string {
	if e.Pos >= 0 {
		return fmt.Sprintf("SQL error at position %d: %s", e.Pos+1, e.Msg)
	}
	return "SQL error: " + e.Msg
}

// ErrorKind is "sql": the statement text is at fault.
func (e *Error) ErrorKind() string { return "sql" }

// Position is the byte offset of the error in the statement, -1 when
// unknown.
func (e *Error) Position() int { return e.Pos }
