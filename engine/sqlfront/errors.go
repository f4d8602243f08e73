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
