package result

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCutCellAtRuneBoundary(t *testing.T) {
	s := strings.Repeat("é", 10) // 20 bytes
	got, cut := CutCell(s, 5)
	if !cut || got != "éé…[cut: 4 of 20 bytes shown]" || !utf8.ValidString(got) {
		t.Fatalf("%q %v", got, cut)
	}
	if got, cut := CutCell(s, 20); cut || got != s {
		t.Fatalf("%q %v", got, cut)
	}
	if got, cut := CutCell(s, 0); cut || got != s {
		t.Fatalf("no bound: %q %v", got, cut)
	}
	row := []any{"short", strings.Repeat("x", 50), int64(3), nil}
	out, n := CutRow(row, 10)
	if n != 1 || out[1] != "xxxxxxxxxx…[cut: 10 of 50 bytes shown]" || row[1] != strings.Repeat("x", 50) || out[0] != "short" {
		t.Fatalf("%v %d", out, n)
	}
}
