package result

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Write renders r in the named format (a registered Format's name; ""
// is the table).
func Write(w io.Writer, r *Result, format string, width int) error {
	return writeAll(w, r, format, width)
}

// Text renders one value for text formats: NULL is empty, booleans are
// true/false, floats use the shortest exact form.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		if x {
			return "true"
		}
		return "false"
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

// CellText renders one value of column col for the text formats (table,
// line, CSV, TSV, Markdown): Text(v), except that a string in a JSON
// column, held as its JSON text ('"cus_123"'), shows as the string itself
// (cus_123), as it would in a TEXT column. Objects, arrays, numbers and
// booleans of a JSON column show as their JSON text.
func CellText(col Column, v any) string {
	if s, ok := v.(string); ok && col.Type == TypeJSON && len(s) > 1 && s[0] == '"' {
		var out string
		if json.Unmarshal([]byte(s), &out) == nil {
			return out
		}
	}
	return Text(v)
}

// writeAll renders a held result through a Stream; a table is sized over
// all its rows.
func writeAll(w io.Writer, r *Result, format string, width int) error {
	f, err := LookupFormat(format)
	if err != nil {
		return err
	}
	s := newStream(w, f, EncodeOptions{Width: width, HoldAll: true})
	if err := s.Begin(r.Columns); err != nil {
		return err
	}
	for _, row := range r.Rows {
		if err := s.Row(row); err != nil {
			return err
		}
	}
	return s.End()
}

// UniqueNames returns the column names made unique for use as JSON keys:
// a repeated name gets _2, _3, ... (skipping names the result already
// has), so that `SELECT name, name` gives {"name": .., "name_2": ..}
// instead of an object with a duplicate key.
func UniqueNames(cols []Column) []string {
	out := make([]string, len(cols))
	taken := make(map[string]bool, len(cols))
	for _, c := range cols {
		taken[c.Name] = true
	}
	seen := make(map[string]bool, len(cols))
	for i, c := range cols {
		name := c.Name
		if seen[name] {
			for n := 2; ; n++ {
				cand := c.Name + "_" + strconv.Itoa(n)
				if !taken[cand] {
					name = cand
					break
				}
			}
		}
		seen[name], taken[name] = true, true
		out[i] = name
	}
	return out
}

// CompactJSON renders rows as a compact JSON array of objects with keys
// in column order (the shape agents are usually given, for comparisons).
func CompactJSON(cols []Column, rows [][]any) ([]byte, error) {
	var b bytes.Buffer
	err := appendObjects(&b, cols, rows, false, nil)
	return b.Bytes(), err
}

// appendObjects writes the array; pretty puts each object on its own line.
// flush, when set, is called after each object.
func appendObjects(b *bytes.Buffer, cols []Column, rows [][]any, pretty bool, flush func() error) error {
	rowSep, fieldSep, kvSep := ",", ",", ":"
	if pretty {
		rowSep, fieldSep, kvSep = ",\n  ", ", ", ": "
	}
	keys := make([][]byte, len(cols))
	for j, name := range UniqueNames(cols) {
		keys[j], _ = json.Marshal(name)
	}
	b.WriteString("[")
	for i, row := range rows {
		switch {
		case i > 0:
			b.WriteString(rowSep)
		case pretty:
			b.WriteString("\n  ")
		}
		b.WriteString("{")
		for j, c := range cols {
			if j > 0 {
				b.WriteString(fieldSep)
			}
			b.Write(keys[j])
			b.WriteString(kvSep)
			v, err := json.Marshal(JSONValue(c, row[j]))
			if err != nil {
				return err
			}
			b.Write(v)
		}
		b.WriteString("}")
		if flush != nil {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if pretty && len(rows) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]")
	return nil
}

// EscapeTSV escapes backslash, tab, newline and carriage return.
func EscapeTSV(s string) string {
	if !strings.ContainsAny(s, "\\\t\n\r") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// cellText is CellText of the i-th value of a row of cols (Text when the
// row is longer than cols).
func cellText(cols []Column, i int, v any) string {
	if i < len(cols) {
		return CellText(cols[i], v)
	}
	return Text(v)
}

// TSVHeader is the header line of a TSV rendering (without newline).
func TSVHeader(cols []Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = EscapeTSV(c.Name)
	}
	return strings.Join(names, "\t")
}

// TSVRow renders one row of a result with columns cols (without
// newline; CellText, escaped); NULL is empty.
func TSVRow(cols []Column, row []any) string {
	cells := make([]string, len(row))
	for i, v := range row {
		cells[i] = EscapeTSV(cellText(cols, i, v))
	}
	return strings.Join(cells, "\t")
}
