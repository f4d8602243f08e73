package result

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// TableBufferRows and TableBufferBytes bound the rows the table format
// holds to size its columns (whichever is reached first). A longer result
// streams on with those widths: a later cell wider than its column is cut
// with "…", as when the table is fitted to a terminal.
const (
	TableBufferRows  = 1000
	TableBufferBytes = 2 << 20
)

// flushBytes is how much rendered output a Stream gathers before writing:
// a result smaller than that is written in one piece, after its last row.
const flushBytes = 64 << 10

// Stream renders a result row by row, holding no more than one row (the
// table format: TableBufferRows rows), so that a result of any size is
// written in bounded memory. Call Begin with the columns, Row for each
// row, then End. An expression column whose Type is "" (not known before
// its first value) is typed by its first non-NULL value where the format
// needs a type (table alignment); JSON columns must be typed at Begin.
// The rendering itself is the format's Encoder (format.go).
type Stream struct {
	w      io.Writer
	format *Format
	enc    Encoder
	b      bytes.Buffer
	err    error
	begun  bool
	rows   int
}

// NewStream returns a Stream writing format (a registered Format's name;
// "" is the table) to w; width > 0 fits a table to that many columns of a
// terminal.
func NewStream(w io.Writer, format string, width int) (*Stream, error) {
	f, err := LookupFormat(format)
	if err != nil {
		return nil, err
	}
	return newStream(w, f, EncodeOptions{Width: width}), nil
}

// NewStreamWith is NewStream with the encoder's options (o.HoldAll is
// ignored: a Stream holds one row).
func NewStreamWith(w io.Writer, format string, o EncodeOptions) (*Stream, error) {
	f, err := LookupFormat(format)
	if err != nil {
		return nil, err
	}
	o.HoldAll = false
	return newStream(w, f, o), nil
}

func newStream(w io.Writer, f *Format, o EncodeOptions) *Stream {
	return &Stream{w: w, format: f, enc: f.NewEncoder(o)}
}

// Overflow is, once the table format has written its header, the
// table's width in columns when it could not be fitted to the width it
// was given (every column narrowed to its least and still wider), else 0
// (and 0 for every other format): the caller may then suggest a format
// that shows one column per line.
func (s *Stream) Overflow() int {
	if o, ok := s.enc.(interface{ overflow() int }); ok {
		return o.overflow()
	}
	return 0
}

// Rows is the number of rows given to Row so far.
func (s *Stream) Rows() int { return s.rows }

// Begin starts the result with its columns (the slice is copied).
func (s *Stream) Begin(cols []Column) error {
	if s.begun {
		return nil
	}
	s.begun = true
	s.err = s.enc.Begin(&s.b, append([]Column(nil), cols...))
	return s.err
}

// Row renders one row.
func (s *Stream) Row(row []any) error {
	if s.err != nil {
		return s.err
	}
	if !s.begun {
		return fmt.Errorf("internal: result row before its columns")
	}
	s.rows++
	if s.err = s.enc.Row(&s.b, row); s.err != nil {
		return s.err
	}
	return s.flush(flushBytes)
}

// End finishes the result and writes what is left. A result without
// Begin (no columns) writes only what its format writes for no rows.
func (s *Stream) End() error {
	if s.err != nil {
		return s.err
	}
	if !s.begun {
		if err := s.Begin(nil); err != nil {
			return err
		}
	}
	if s.err = s.enc.End(&s.b); s.err != nil {
		return s.err
	}
	return s.flush(0)
}

// flush writes the gathered output once it is over limit bytes.
func (s *Stream) flush(limit int) error {
	if s.b.Len() <= limit || s.b.Len() == 0 {
		return nil
	}
	if _, err := s.w.Write(s.b.Bytes()); err != nil {
		s.err = err
		return err
	}
	s.b.Reset()
	return nil
}

// jsonEncoder writes an array of objects, one per line, keys in column
// order (UniqueNames).
type jsonEncoder struct {
	cols []Column
	keys [][]byte
	rows int
}

func (e *jsonEncoder) Begin(b *bytes.Buffer, cols []Column) error {
	e.cols = cols
	e.keys = make([][]byte, len(cols))
	for j, name := range UniqueNames(cols) {
		e.keys[j], _ = json.Marshal(name)
	}
	b.WriteString("[")
	return nil
}

func (e *jsonEncoder) Row(b *bytes.Buffer, row []any) error {
	e.rows++
	if e.rows > 1 {
		b.WriteString(",")
	}
	b.WriteString("\n  {")
	for j, c := range e.cols {
		if j > 0 {
			b.WriteString(", ")
		}
		b.Write(e.keys[j])
		b.WriteString(": ")
		if err := appendJSON(b, c, row[j]); err != nil {
			return err
		}
	}
	b.WriteString("}")
	return nil
}

func (e *jsonEncoder) End(b *bytes.Buffer) error {
	if e.rows > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	return nil
}

// csvEncoder writes RFC 4180 CSV with a header line; safe applies
// SpreadsheetSafe to the header and the text values.
type csvEncoder struct {
	csv  *csv.Writer
	cols []Column
	rec  []string
	safe bool
}

func (e *csvEncoder) Begin(b *bytes.Buffer, cols []Column) error {
	e.csv = csv.NewWriter(b)
	e.cols = cols
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = safeText(c.Name, e.safe)
	}
	e.rec = make([]string, len(cols))
	return e.csv.Write(head)
}

func (e *csvEncoder) Row(b *bytes.Buffer, row []any) error {
	for i, v := range row {
		e.rec[i] = safeCell(e.cols, i, v, e.safe)
	}
	if err := e.csv.Write(e.rec); err != nil {
		return err
	}
	e.csv.Flush()
	return nil
}

func (e *csvEncoder) End(b *bytes.Buffer) error {
	e.csv.Flush()
	return e.csv.Error()
}

// tsvEncoder writes a header line and one line per row (EscapeTSV);
// safe applies SpreadsheetSafe to the header and the text values.
type tsvEncoder struct {
	cols []Column
	safe bool
}

func (e *tsvEncoder) Begin(b *bytes.Buffer, cols []Column) error {
	e.cols = cols
	for i, c := range cols {
		if i > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(EscapeTSV(safeText(c.Name, e.safe)))
	}
	b.WriteByte('\n')
	return nil
}

func (e *tsvEncoder) Row(b *bytes.Buffer, row []any) error {
	for i, v := range row {
		if i > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(EscapeTSV(safeCell(e.cols, i, v, e.safe)))
	}
	b.WriteByte('\n')
	return nil
}

func (e *tsvEncoder) End(*bytes.Buffer) error { return nil }

// lineEncoder writes one "column = value" line per cell, rows separated
// by a blank line; names and values are Sanitized, and NULL shows as NULL
// (as in the table: an empty string shows as nothing).
type lineEncoder struct {
	cols  []Column
	names []string
	wide  int
	rows  int
}

func (e *lineEncoder) Begin(b *bytes.Buffer, cols []Column) error {
	e.cols = cols
	e.names = sanitizedNames(cols)
	for _, n := range e.names {
		e.wide = max(e.wide, displayWidth(n))
	}
	return nil
}

func (e *lineEncoder) Row(b *bytes.Buffer, row []any) error {
	e.rows++
	if e.rows > 1 {
		b.WriteByte('\n')
	}
	for j, name := range e.names {
		b.WriteString(strings.Repeat(" ", e.wide-displayWidth(name)))
		b.WriteString(name)
		b.WriteString(" = ")
		if row[j] == nil {
			b.WriteString("NULL") // as the table shows it
		} else {
			b.WriteString(Sanitize(cellText(e.cols, j, row[j])))
		}
		b.WriteByte('\n')
	}
	return nil
}

func (e *lineEncoder) End(*bytes.Buffer) error { return nil }

// sanitizedNames are the column names as the human formats show them.
func sanitizedNames(cols []Column) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = Sanitize(c.Name)
	}
	return names
}

// ValueType is the column type a value read from SQLite implies: its
// storage class for integers, reals, text and booleans, "" for NULL, a
// blob or anything else (the caller decides).
func ValueType(v any) string {
	switch v.(type) {
	case int64:
		return TypeInteger
	case float64:
		return TypeReal
	case string:
		return TypeText
	case bool:
		return TypeBoolean
	}
	return ""
}

// appendJSON writes v as json.Marshal(JSONValue(col, v)) would, without
// reflection for the usual values: integers, booleans, NULL, strings of
// plain ASCII and JSON text that needs no escaping go straight to b;
// anything else (floats, strings with characters json.Marshal escapes)
// goes through json.Marshal.
func appendJSON(b *bytes.Buffer, col Column, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
		return nil
	case int64:
		var tmp [20]byte
		b.Write(strconv.AppendInt(tmp[:0], x, 10))
		return nil
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
		return nil
	case string:
		if col.Type == TypeJSON {
			// json.Marshal(json.RawMessage) compacts the text and escapes
			// <, >, & and U+2028/2029 in it; json.Compact does the former
			// and validates, so text without those characters is written
			// by it as Marshal would.
			if !strings.ContainsAny(x, "<>&\u2028\u2029") {
				n := b.Len()
				if json.Compact(b, []byte(x)) == nil {
					return nil
				}
				b.Truncate(n) // not JSON: a string, as JSONValue makes it
			}
			break
		}
		if plainASCII(x) {
			b.WriteByte('"')
			b.WriteString(x)
			b.WriteByte('"')
			return nil
		}
	}
	out, err := json.Marshal(JSONValue(col, v))
	if err != nil {
		return err
	}
	b.Write(out)
	return nil
}

// plainASCII reports whether json.Marshal writes s as is between quotes:
// printable ASCII without '"', '\\' and the HTML characters it escapes.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
