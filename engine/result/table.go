package result

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"
)

// WriteTable writes an aligned table. When width > 0 the table is fitted
// to it: the widest columns are narrowed and long cells end with "…".
// Names and values are Sanitized: control characters show as escapes
// (\n, \x1b), never reach the terminal raw. A value longer than
// TableMaxCell bytes is cut with a marker, and a note under the table
// says how many were.
func WriteTable(w io.Writer, r *Result, width int) error {
	n := len(r.Columns)
	cells := make([][]string, len(r.Rows))
	widths := make([]int, n)
	numeric := make([]bool, n)
	for i, c := range r.Columns {
		widths[i] = utf8.RuneCountInString(Sanitize(c.Name))
		numeric[i] = c.Type == TypeInteger || c.Type == TypeReal
	}
	cutCells := 0
	for i, row := range r.Rows {
		cells[i] = make([]string, n)
		for j, v := range row {
			t, wasCut := CutCell(Text(v), TableMaxCell)
			if wasCut {
				cutCells++
			}
			s := Sanitize(t)
			if v == nil {
				s = "NULL"
			}
			cells[i][j] = s
			if l := utf8.RuneCountInString(s); l > widths[j] {
				widths[j] = l
			}
		}
	}
	fit(widths, width)
	var b bytes.Buffer
	line := func() {
		b.WriteByte('+')
		for _, wd := range widths {
			b.WriteString(strings.Repeat("-", wd+2))
			b.WriteByte('+')
		}
		b.WriteByte('\n')
	}
	row := func(vals []string, header bool) {
		b.WriteByte('|')
		for j, v := range vals {
			v = cut(v, widths[j])
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(v))
			b.WriteByte(' ')
			if numeric[j] && !header {
				b.WriteString(pad + v)
			} else {
				b.WriteString(v + pad)
			}
			b.WriteString(" |")
		}
		b.WriteByte('\n')
	}
	line()
	head := make([]string, n)
	for i, c := range r.Columns {
		head[i] = Sanitize(c.Name)
	}
	row(head, true)
	line()
	for _, c := range cells {
		row(c, false)
		if b.Len() > 1<<16 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	line()
	if cutCells > 0 {
		b.WriteString(cellsNote(cutCells))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// fit narrows the widest columns until the table fits width.
func fit(widths []int, width int) {
	if width <= 0 {
		return
	}
	total := func() int {
		t := 1
		for _, w := range widths {
			t += w + 3
		}
		return t
	}
	for total() > width {
		wi := 0
		for i, w := range widths {
			if w > widths[wi] {
				wi = i
			}
		}
		if widths[wi] <= 8 {
			return
		}
		widths[wi]--
	}
}

func cut(s string, w int) string {
	if utf8.RuneCountInString(s) <= w {
		return s
	}
	rs := []rune(s)
	if w <= 1 {
		return string(rs[:w])
	}
	return string(rs[:w-1]) + "…"
}
