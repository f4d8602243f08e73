package result

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// WriteTable writes an aligned table. When width > 0 the table is fitted
// to it: the widest columns are narrowed and long cells end with "…".
// Names and values are Sanitized: control characters show as escapes
// (\n, \x1b), never reach the terminal raw. A value longer than
// TableMaxCell bytes is cut with a marker, and a note under the table
// says how many were.
func WriteTable(w io.Writer, r *Result, width int) error {
	return writeAll(w, r, "table", width)
}

// tableEncoder holds the first rows (TableBufferRows, at most
// TableBufferBytes; all of them when HoldAll) to size the columns, then
// streams the rest with those widths.
type tableEncoder struct {
	width     int
	holdAll   bool
	cols      []Column
	names     []string
	held      [][]string // the rendered rows held to size the columns
	widths    []int      // set once the held rows are out
	numeric   []bool
	heldBytes int // bytes of the held cells
	cut       int // cells cut at TableMaxCell
	wide      int // the table's width when it could not be fitted to width, else 0
}

// overflow is the table's width in columns when narrowing every column to
// its least (8) still left it wider than the terminal, else 0.
func (e *tableEncoder) overflow() int { return e.wide }

func (e *tableEncoder) Begin(b *bytes.Buffer, cols []Column) error {
	e.cols = cols
	e.names = sanitizedNames(cols)
	return nil
}

func (e *tableEncoder) Row(b *bytes.Buffer, row []any) error {
	cells := e.cells(row)
	if e.widths != nil {
		e.row(b, cells, false)
		return nil
	}
	if !e.holdAll {
		for j, v := range row {
			if e.cols[j].Type == "" && v != nil {
				e.cols[j].Type = ValueType(v)
			}
		}
	}
	e.held = append(e.held, cells)
	for _, c := range cells {
		e.heldBytes += len(c)
	}
	if e.holdAll || len(e.held) < TableBufferRows && e.heldBytes < TableBufferBytes {
		return nil
	}
	e.start(b)
	return nil
}

func (e *tableEncoder) End(b *bytes.Buffer) error {
	if e.widths == nil {
		e.start(b)
	}
	e.line(b)
	if e.cut > 0 {
		b.WriteString(cellsNote(e.cut))
	}
	return nil
}

// cells renders a row's cells for the table: cut at TableMaxCell,
// Sanitized, NULL shown as NULL.
func (e *tableEncoder) cells(row []any) []string {
	cells := make([]string, len(row))
	for j, v := range row {
		t, wasCut := CutCell(cellText(e.cols, j, v), TableMaxCell)
		if wasCut {
			e.cut++
		}
		c := Sanitize(t)
		if v == nil {
			c = "NULL"
		}
		cells[j] = c
	}
	return cells
}

// start sizes the columns from the header and the held rows, writes the
// header and the held rows, and lets go of them.
func (e *tableEncoder) start(b *bytes.Buffer) {
	n := len(e.cols)
	e.widths = make([]int, n)
	e.numeric = make([]bool, n)
	for i, c := range e.cols {
		e.widths[i] = displayWidth(e.names[i])
		e.numeric[i] = c.Type == TypeInteger || c.Type == TypeReal
	}
	for _, cells := range e.held {
		for j, c := range cells {
			e.widths[j] = max(e.widths[j], displayWidth(c))
		}
	}
	if total := fit(e.widths, e.width); e.width > 0 && total > e.width {
		e.wide = total
	}
	e.line(b)
	e.row(b, e.names, true)
	e.line(b)
	for _, cells := range e.held {
		e.row(b, cells, false)
	}
	e.held = nil
}

func (e *tableEncoder) line(b *bytes.Buffer) {
	b.WriteByte('+')
	for _, wd := range e.widths {
		b.WriteString(strings.Repeat("-", wd+2))
		b.WriteByte('+')
	}
	b.WriteByte('\n')
}

func (e *tableEncoder) row(b *bytes.Buffer, vals []string, header bool) {
	b.WriteByte('|')
	for j, v := range vals {
		v = cut(v, e.widths[j])
		pad := strings.Repeat(" ", e.widths[j]-displayWidth(v))
		b.WriteByte(' ')
		if e.numeric[j] && !header {
			b.WriteString(pad)
			b.WriteString(v)
		} else {
			b.WriteString(v)
			b.WriteString(pad)
		}
		b.WriteString(" |")
	}
	b.WriteByte('\n')
}

// fit narrows the widest columns until the table fits width (no column
// below 8) and returns the table's width.
func fit(widths []int, width int) int {
	total := func() int {
		t := 1
		for _, w := range widths {
			t += w + 3
		}
		return t
	}
	if width <= 0 {
		return total()
	}
	for total() > width {
		wi := 0
		for i, w := range widths {
			if w > widths[wi] {
				wi = i
			}
		}
		if widths[wi] <= 8 {
			break
		}
		widths[wi]--
	}
	return total()
}

// cut shortens s to w terminal columns, ending it with "…" when cut.
func cut(s string, w int) string {
	if displayWidth(s) <= w {
		return s
	}
	if w <= 1 {
		return runewidth.Truncate(s, w, "")
	}
	return runewidth.Truncate(s, w, "…")
}

// displayWidth is the columns s takes on a terminal (go-runewidth): 2 for
// a wide character (日本語), 0 for a combining mark (e + U+0301), as a
// terminal draws them; ASCII at one a byte.
func displayWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return runewidth.StringWidth(s)
		}
	}
	return len(s)
}
