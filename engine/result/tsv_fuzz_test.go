package result

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// FuzzTSVEscape: EscapeTSV leaves no tab, newline or carriage return and
// UnescapeTSV restores the input exactly.
func FuzzTSVEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "a\tb", "line\nbreak\r\n", `back\slash`, `\t literal`, "\\", "trailing\\", "\\\\n", "\x00\xff", "ünïcode\t✓"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := EscapeTSV(s)
		if strings.ContainsAny(e, "\t\n\r") {
			t.Fatalf("EscapeTSV(%q) = %q keeps a separator", s, e)
		}
		if got := testutil.UnescapeTSV(e); got != s {
			t.Fatalf("round trip %q -> %q -> %q", s, e, got)
		}
	})
}

// FuzzTSVRow: a row of every value type renders as one line whose cells,
// split on tabs and unescaped, give back the values (NULL as empty).
func FuzzTSVRow(f *testing.F) {
	f.Add("name", "alpha", int64(42), 1.5, true, "x\ty")
	f.Add("a\tb", "", int64(-1), math.Inf(-1), false, "\\n")
	f.Add("", "\n\r\\", int64(math.MinInt64), math.Copysign(0, -1), true, "")
	f.Fuzz(func(t *testing.T, col, s string, n int64, x float64, b bool, last string) {
		cols := []Column{{Name: col, Type: TypeText}, {Name: "n", Type: TypeInteger}, {Name: "x", Type: TypeReal},
			{Name: "b", Type: TypeBoolean}, {Name: "null", Type: TypeNull}, {Name: "last", Type: TypeText}}
		row := []any{s, n, x, b, nil, last}
		var buf bytes.Buffer
		if err := Write(&buf, &Result{Columns: cols, Rows: [][]any{row, row}}, "tsv", 0); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(buf.String(), "\n")
		if len(lines) != 4 || lines[3] != "" || lines[1] != lines[2] || lines[1] != TSVRow(cols, row) {
			t.Fatalf("WriteTSV lines %q", lines)
		}
		head := strings.Split(lines[0], "\t")
		if len(head) != len(cols) || testutil.UnescapeTSV(head[0]) != col {
			t.Fatalf("header %q does not give back column %q", lines[0], col)
		}
		cells := strings.Split(lines[1], "\t")
		if len(cells) != len(row) {
			t.Fatalf("row %q has %d cells, want %d", lines[1], len(cells), len(row))
		}
		for i := range cells {
			cells[i] = testutil.UnescapeTSV(cells[i])
		}
		if cells[0] != s || cells[5] != last || cells[4] != "" || cells[3] != strconv.FormatBool(b) {
			t.Fatalf("cells %q from row %#v", cells, row)
		}
		if got, err := strconv.ParseInt(cells[1], 10, 64); err != nil || got != n {
			t.Fatalf("integer %d -> %q", n, cells[1])
		}
		got, err := strconv.ParseFloat(cells[2], 64)
		if err != nil || (got != x && !(math.IsNaN(x) && math.IsNaN(got))) || math.Signbit(got) != math.Signbit(x) {
			t.Fatalf("real %v -> %q", x, cells[2])
		}
	})
}
