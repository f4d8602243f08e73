package shell

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitStatements(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		rest string
	}{
		{"SELECT 1; SELECT 2;", []string{"SELECT 1", "SELECT 2"}, ""},
		{"SELECT 'a;b', \"c;d\", `e;f`;", []string{"SELECT 'a;b', \"c;d\", `e;f`"}, ""},
		{"SELECT 'it''s;'; SELECT 'x\\';y';", []string{"SELECT 'it''s;'", "SELECT 'x\\'"}, "y';"}, // a backslash is itself
		{"SELECT 1 -- no end here;\n, 2;", []string{"SELECT 1 \n, 2"}, ""},
		{"SELECT /* ; */ 1;", []string{"SELECT   1"}, ""},
		{"SELECT /* multi\nline ; */ 1;", []string{"SELECT \n  1"}, ""},
		// '#' is no comment (the engine refuses it): kept, and a ';' after
		// it still ends the statement, a quote after it opens nothing.
		{"# comment;\nSELECT 1;", []string{"# comment", "SELECT 1"}, ""},
		{"SELECT 1 # c;", []string{"SELECT 1 # c"}, ""},
		{"SELECT 1 # it's; SELECT '#';", []string{"SELECT 1 # it's", "SELECT '#'"}, ""},
		{"SELECT 1 # note\nFROM t;", []string{"SELECT 1 # note\nFROM t"}, ""},
		{";;  ;\n", nil, ""},
		{"SELECT 'open\nstill open;'", nil, "SELECT 'open\nstill open;'"},
		{"SELECT 1;\nSELECT 2", []string{"SELECT 1"}, "SELECT 2"},
	}
	for _, c := range cases {
		got, rest := SplitStatements(c.in)
		if !reflect.DeepEqual(got, c.want) || rest != c.rest {
			t.Errorf("SplitStatements(%q) = %q, rest %q; want %q, rest %q", c.in, got, rest, c.want, c.rest)
		}
	}
}

func TestSplitterPending(t *testing.T) {
	var s splitter
	if got := s.Feed("-- only a comment"); len(got) != 0 || s.Pending() {
		t.Fatalf("comment line: %q pending=%v", got, s.Pending())
	}
	s.Feed("SELECT name")
	if !s.Pending() {
		t.Fatal("open statement not pending")
	}
	if got := s.Feed("FROM t;"); !reflect.DeepEqual(got, []string{"SELECT name\nFROM t"}) || s.Pending() {
		t.Fatalf("got %q pending=%v", got, s.Pending())
	}
	s.Feed("SELECT '")
	if !s.Pending() {
		t.Fatal("open quote not pending")
	}
	s.Reset()
	if s.Pending() {
		t.Fatal("pending after Reset")
	}
}

// SplitStatements splits a whole script (no meta commands).
func SplitStatements(text string) (stmts []string, rest string) {
	var s splitter
	for _, line := range strings.Split(text, "\n") {
		stmts = append(stmts, s.Feed(strings.TrimSuffix(line, "\r"))...)
	}
	return stmts, s.Rest()
}
