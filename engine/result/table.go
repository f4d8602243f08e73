package result

import (
	"io"
	"unicode/utf8"
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
