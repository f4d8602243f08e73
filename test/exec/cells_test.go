package exec_test

import (
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

// TestTableCutsHugeCells: the human table cuts a cell longer than 4096
// bytes with an explicit marker and says so under the table; machine
// formats print it whole. Before the fix the table of one 3 MB cell was
// 15 MB (the cell, and borders as wide); now it is about 21 KB.
func TestTableCutsHugeCells(t *testing.T) {
	sql := "SELECT 'head' AS a, hex(zeroblob(1500000)) AS big"
	r := run(t, "-o", "table", sql)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	marker := "…[cut: 4096 of 3000000 bytes shown]"
	if len(r.Stdout) > 30_000 || !strings.Contains(r.Stdout, "| head | "+strings.Repeat("0", 4096)+marker+" |") {
		t.Fatalf("table of %d bytes: %.300q", len(r.Stdout), r.Stdout)
	}
	if !strings.Contains(r.Stdout, "note: 1 cell is longer than 4096 bytes and cut") {
		t.Fatalf("no note under the table: %q", r.Stdout[len(r.Stdout)-300:])
	}
	for _, f := range []string{"csv", "tsv", "json"} {
		r := run(t, "-o", f, sql)
		if r.Code != 0 || strings.Contains(r.Stdout, "cut") || !strings.Contains(r.Stdout, strings.Repeat("0", 3_000_000)) {
			t.Fatalf("-o %s: exit %d, %d bytes", f, r.Code, len(r.Stdout))
		}
	}
}

// TestTableAlignsWideCharacters: the table pads by the columns a terminal
// draws (2 for 日本語's characters, 0 for a combining accent), so every
// line of it is as wide as its border (before: padded by characters, the
// wide row stuck out by 3 columns and the accented one fell short).
func TestTableAlignsWideCharacters(t *testing.T) {
	r := run(t, "-o", "table", "SELECT '日本語' AS a, 'x' AS b UNION ALL SELECT 'e'||char(769)||'x', 'y' UNION ALL SELECT 'abc', 'z'")
	lines := strings.Split(strings.TrimRight(r.Stdout, "\n"), "\n")
	if r.Code != 0 || len(lines) != 7 {
		t.Fatalf("exit %d\n%s", r.Code, r.Stdout)
	}
	width := runewidth.StringWidth(lines[0])
	for _, l := range lines {
		if runewidth.StringWidth(l) != width {
			t.Errorf("line %q is %d columns wide, the border %d:\n%s", l, runewidth.StringWidth(l), width, r.Stdout)
		}
	}
}
