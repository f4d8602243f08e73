package result

import (
	"fmt"
	"unicode/utf8"
)

// TableMaxCell bounds one cell of the human table (bytes): a longer value
// is cut (CutCell) and the table ends with a note. Machine formats (json,
// csv, tsv, line) always print values whole.
const TableMaxCell = 4096

// CutCell cuts s to at most max bytes (at a UTF-8 boundary) and appends an
// explicit marker, "…[cut: 4096 of 31457280 bytes shown]". It reports
// whether s was cut; max <= 0 means no bound.
func CutCell(s string, max int) (string, bool) {
	if max <= 0 || len(s) <= max {
		return s, false
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("…[cut: %d of %d bytes shown]", i, len(s)), true
}

// CutRow returns row with every string longer than max cut by CutCell
// (a copy when any is cut, else row itself) and the number of cells cut.
func CutRow(row []any, max int) ([]any, int) {
	if max <= 0 {
		return row, 0
	}
	var out []any
	n := 0
	for i, v := range row {
		s, ok := v.(string)
		if !ok || len(s) <= max {
			continue
		}
		if out == nil {
			out = append([]any(nil), row...)
		}
		out[i], _ = CutCell(s, max)
		n++
	}
	if out == nil {
		return row, 0
	}
	return out, n
}

// cellsNote is the note under a table whose cells were cut.
func cellsNote(n int) string {
	what := "1 cell is"
	if n != 1 {
		what = fmt.Sprintf("%d cells are", n)
	}
	return fmt.Sprintf("note: %s longer than %d bytes and cut (marked …[cut: ...]); the json, csv and tsv formats print values whole\n", what, TableMaxCell)
}
