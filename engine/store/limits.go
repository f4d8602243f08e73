package store

import (
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// DefaultMaxValueBytes bounds one value (a string or blob), one stored row
// and one result row of a statement: 8 MiB, eight times GitHub's largest
// inline values (a file's contents up to 1 MB, about 1.4 MB in base64; a
// gist file is cut at 1 MB; an issue body is at most 65,536 characters).
// Without this bound SQLite accepts values of up to 1e9 bytes, and one
// 36-character expression (hex(zeroblob(100000000))) took a process past
// 1.4 GB. Memory at the bound is a few times the bound (SQLite's copy
// while it computes the value, the Go copy, the output buffer):
// docs/reliability.md, "Memory per value".
const DefaultMaxValueBytes = 8 << 20

// SettingMaxValueBytes is the setting a LimitError names.
const SettingMaxValueBytes = "max-value-bytes"

// SetMaxValueBytes sets SQLite's length limit (SQLITE_LIMIT_LENGTH: the
// longest string or blob, and the longest stored row) of the store's
// connection to n bytes, and bounds each result row to n bytes of text
// (QueryRows). n <= 0 keeps DefaultMaxValueBytes; SQLite caps n at its
// compiled maximum (1e9).
func (s *Store) SetMaxValueBytes(n int) error {
	if n <= 0 {
		n = DefaultMaxValueBytes
	}
	n = min(n, sqlite3.SQLITE_MAX_LENGTH)
	if _, err := sqlite.Limit(s.conn, sqlite3.SQLITE_LIMIT_LENGTH, n); err != nil {
		return fmt.Errorf("setting the value limit: %w", err)
	}
	s.maxValue = n
	funcLimit.Store(int64(n)) // the SQL functions' bound (funcs.go)
	return nil
}

// LimitError is a value, a stored row or a result row longer than the
// store's limit (SetMaxValueBytes). It is kind "sql": the statement (or
// the data it reads) asks for more than the engine holds per value; the
// setting names the bound to raise.
type LimitError struct {
	Limit int
	// Loading is the table being loaded when an API value was too long
	// (the executor names the table); empty when the query made it.
	Loading string
}

func (e *LimitError) Error() string {
	if e.Loading != "" {
		return fmt.Sprintf("a value or row of the API's answer is longer than %d bytes, the value limit (%s); select fewer columns of the table", e.Limit, SettingMaxValueBytes)
	}
	return fmt.Sprintf("a value or result row is longer than %d bytes, the value limit (%s); select less (substr(), fewer columns)", e.Limit, SettingMaxValueBytes)
}

// ErrorKind is "sql".
func (e *LimitError) ErrorKind() string { return "sql" }

// ErrorPrefix is put before the message when the error is classified.
func (e *LimitError) ErrorPrefix() string { return "SQL error" }

// ErrorSetting names the setting to raise.
func (e *LimitError) ErrorSetting() string { return SettingMaxValueBytes }

// tooBig reports whether err is SQLite's SQLITE_TOOBIG (string or blob
// too big).
func tooBig(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_TOOBIG
}

// limitError turns SQLite's "too big" (or a function's result past the
// value limit, funcs.go) into a LimitError naming the
// setting; other errors are returned as they are.
func (s *Store) limitError(err error, loading string) error {
	if err == nil || !tooBig(err) && !funcTooLong(err) {
		return err
	}
	n := s.maxValue
	if n == 0 {
		n = sqlite3.SQLITE_MAX_LENGTH
	}
	return &LimitError{Limit: n, Loading: loading}
}

// rowBytes is the text a result row holds (strings and blobs), for the
// bound of a result row.
func rowBytes(row []any) int {
	n := 0
	for _, v := range row {
		switch x := v.(type) {
		case string:
			n += len(x)
		case []byte:
			n += len(x)
		}
	}
	return n
}
