package result

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
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
type Stream struct {
	w      io.Writer
	format string
	width  int
	b      bytes.Buffer
	err    error
	cols   []Column
	begun  bool
	rows   int

	keys  [][]byte    // json
	csv   *csv.Writer // csv
	rec   []string    // csv
	names []string    // line, table
	wide  int         // line

	held      [][]string // table: the rendered rows held to size the columns
	holdAll   bool       // table: the rows are in memory already (writeAll): size over all of them, keep the declared types
	widths    []int      // table: set once the held rows are out
	numeric   []bool     // table
	heldBytes int        // table: bytes of the held cells
	cut       int        // table: cells cut at TableMaxCell
}

// NewStream returns a Stream writing format (one of Formats) to w; width
// > 0 fits a table to that many columns of a terminal.
func NewStream(w io.Writer, format string, width int) (*Stream, error) {
	switch format {
	case "":
		format = "table"
	case "table", "json", "csv", "tsv", "line":
	default:
		return nil, fmt.Errorf("unknown output format %q (use %s)", format, strings.Join(Formats, ", "))
	}
	return &Stream{w: w, format: format, width: width}, nil
}

// Rows is the number of rows given to Row so far.
func (s *Stream) Rows() int { return s.rows }

// Begin starts the result with its columns (the slice is copied).
func (s *Stream) Begin(cols []Column) error {
	if s.begun {
		return nil
	}
	s.begun = true
	s.cols = append([]Column(nil), cols...)
	switch s.format {
	case "json":
		s.keys = make([][]byte, len(cols))
		for j, name := range UniqueNames(cols) {
			s.keys[j], _ = json.Marshal(name)
		}
		s.b.WriteString("[")
	case "csv":
		s.csv = csv.NewWriter(&s.b)
		head := make([]string, len(cols))
		for i, c := range cols {
			head[i] = c.Name
		}
		s.rec = make([]string, len(cols))
		s.err = s.csv.Write(head)
	case "tsv":
		s.b.WriteString(TSVHeader(cols))
		s.b.WriteByte('\n')
	case "line", "table":
		s.names = make([]string, len(cols))
		for i, c := range cols {
			s.names[i] = Sanitize(c.Name)
			s.wide = max(s.wide, utf8.RuneCountInString(s.names[i]))
		}
	}
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
	switch s.format {
	case "json":
		if s.rows > 1 {
			s.b.WriteString(",")
		}
		s.b.WriteString("\n  {")
		for j, c := range s.cols {
			if j > 0 {
				s.b.WriteString(", ")
			}
			s.b.Write(s.keys[j])
			s.b.WriteString(": ")
			if err := appendJSON(&s.b, c, row[j]); err != nil {
				s.err = err
				return err
			}
		}
		s.b.WriteString("}")
	case "csv":
		for i, v := range row {
			s.rec[i] = Text(v)
		}
		if s.err = s.csv.Write(s.rec); s.err != nil {
			return s.err
		}
		s.csv.Flush()
	case "tsv":
		for i, v := range row {
			if i > 0 {
				s.b.WriteByte('\t')
			}
			s.b.WriteString(EscapeTSV(Text(v)))
		}
		s.b.WriteByte('\n')
	case "line":
		if s.rows > 1 {
			s.b.WriteByte('\n')
		}
		for j, name := range s.names {
			s.b.WriteString(strings.Repeat(" ", s.wide-utf8.RuneCountInString(name)))
			s.b.WriteString(name)
			s.b.WriteString(" = ")
			s.b.WriteString(Sanitize(Text(row[j])))
			s.b.WriteByte('\n')
		}
	case "table":
		cells := s.tableCells(row)
		if s.widths == nil {
			if !s.holdAll {
				for j, v := range row {
					if s.cols[j].Type == "" && v != nil {
						s.cols[j].Type = valueTypeOf(v)
					}
				}
			}
			s.held = append(s.held, cells)
			for _, c := range cells {
				s.heldBytes += len(c)
			}
			if s.holdAll || len(s.held) < TableBufferRows && s.heldBytes < TableBufferBytes {
				return nil
			}
			s.startTable()
			break
		}
		s.tableRow(cells, false)
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
	switch s.format {
	case "json":
		if s.rows > 0 {
			s.b.WriteString("\n")
		}
		s.b.WriteString("]\n")
	case "csv":
		s.csv.Flush()
		s.err = s.csv.Error()
	case "table":
		if s.widths == nil {
			s.startTable()
		}
		s.tableLine()
		if s.cut > 0 {
			s.b.WriteString(cellsNote(s.cut))
		}
	}
	if s.err != nil {
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

// tableCells renders a row's cells for the table: cut at TableMaxCell,
// Sanitized, NULL shown as NULL.
func (s *Stream) tableCells(row []any) []string {
	cells := make([]string, len(row))
	for j, v := range row {
		t, wasCut := CutCell(Text(v), TableMaxCell)
		if wasCut {
			s.cut++
		}
		c := Sanitize(t)
		if v == nil {
			c = "NULL"
		}
		cells[j] = c
	}
	return cells
}

// startTable sizes the columns from the header and the held rows, writes
// the header and the held rows, and lets go of them.
func (s *Stream) startTable() {
	n := len(s.cols)
	s.widths = make([]int, n)
	s.numeric = make([]bool, n)
	for i, c := range s.cols {
		s.widths[i] = utf8.RuneCountInString(s.names[i])
		s.numeric[i] = c.Type == TypeInteger || c.Type == TypeReal
	}
	for _, cells := range s.held {
		for j, c := range cells {
			s.widths[j] = max(s.widths[j], utf8.RuneCountInString(c))
		}
	}
	fit(s.widths, s.width)
	s.tableLine()
	s.tableRow(s.names, true)
	s.tableLine()
	for _, cells := range s.held {
		s.tableRow(cells, false)
	}
	s.held = nil
}

func (s *Stream) tableLine() {
	s.b.WriteByte('+')
	for _, wd := range s.widths {
		s.b.WriteString(strings.Repeat("-", wd+2))
		s.b.WriteByte('+')
	}
	s.b.WriteByte('\n')
}

func (s *Stream) tableRow(vals []string, header bool) {
	s.b.WriteByte('|')
	for j, v := range vals {
		v = cut(v, s.widths[j])
		pad := strings.Repeat(" ", s.widths[j]-utf8.RuneCountInString(v))
		s.b.WriteByte(' ')
		if s.numeric[j] && !header {
			s.b.WriteString(pad)
			s.b.WriteString(v)
		} else {
			s.b.WriteString(v)
			s.b.WriteString(pad)
		}
		s.b.WriteString(" |")
	}
	s.b.WriteByte('\n')
}

// valueTypeOf is the column type a value implies ("" for NULL).
func valueTypeOf(v any) string {
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
