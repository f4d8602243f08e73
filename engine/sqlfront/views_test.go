package sqlfront

import (
	"strings"
	"testing"
)

func TestExpandViews(t *testing.T) {
	views := map[string]string{
		"langs":  "SELECT org, name, language FROM github.repos.repos WHERE language IS NOT NULL ORDER BY name",
		"star":   "SELECT * FROM github.repos.repos r",
		"counts": "SELECT org, count(*) AS n FROM github.repos.repos GROUP BY org",
		"golang": "SELECT org AS owner, name FROM langs WHERE language = 'Go'",
		"self":   "SELECT * FROM self",
	}
	view := func(n string) (string, bool) { q, ok := views[n]; return q, ok }
	cases := []struct{ in, want, err string }{
		{"SELECT 1", "SELECT 1", ""},
		{"SELECT * FROM langs WHERE org = 'acme'",
			"SELECT * FROM (SELECT org, name, language FROM github.repos.repos WHERE (language IS NOT NULL) AND `org` = 'acme' ORDER BY name\n) AS langs WHERE org = 'acme'", ""},
		{"SELECT v.name FROM langs v WHERE v.org IN ('a', 'b')",
			"SELECT v.name FROM (SELECT org, name, language FROM github.repos.repos WHERE (language IS NOT NULL) AND `org` IN ('a', 'b') ORDER BY name\n) v WHERE v.org IN ('a', 'b')", ""},
		{"SELECT * FROM star WHERE org = 'x'", "SELECT * FROM (SELECT * FROM github.repos.repos r WHERE `org` = 'x' \n) AS star WHERE org = 'x'", ""},
		// An aggregate: nothing pushed.
		{"SELECT * FROM counts WHERE org = 'x'", "SELECT * FROM (SELECT org, count(*) AS n FROM github.repos.repos GROUP BY org\n) AS counts WHERE org = 'x'", ""},
		// An OR binds nothing: nothing pushed.
		{"SELECT * FROM langs WHERE org = 'x' OR org = 'y'", "SELECT * FROM (SELECT org, name, language FROM github.repos.repos WHERE language IS NOT NULL ORDER BY name\n) AS langs WHERE org = 'x' OR org = 'y'", ""},
		// A view of a view: pushed through the alias, then again.
		{"SELECT name FROM golang WHERE owner = 'x'", "`org` = 'x'", ""},
		// A WITH name, a column and a dotted name are not views.
		{"WITH langs AS (SELECT 1 AS a) SELECT a FROM langs", "WITH langs AS (SELECT 1 AS a) SELECT a FROM langs", ""},
		{"SELECT langs FROM github.repos.repos WHERE org = 'x'", "SELECT langs FROM github.repos.repos WHERE org = 'x'", ""},
		{"SELECT * FROM self", "", "reads itself"},
	}
	for _, c := range cases {
		got, _, err := ExpandViews(c.in, isGH, view)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.in, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.in, err)
		case strings.HasPrefix(c.want, "`"):
			if strings.Count(got, c.want) != 2 {
				t.Errorf("%s: got %q, want %s pushed twice", c.in, got, c.want)
			}
		case got != c.want:
			t.Errorf("%s:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestSplit(t *testing.T) {
	ps, err := Split("-- a; b\nSELECT 'x;y' /* ; */ AS a;\n\n;SELECT `a;b` FROM t -- z;\n")
	if err != nil || len(ps) != 2 || ps[0].Text != "SELECT 'x;y' /* ; */ AS a" || ps[1].Text != "SELECT `a;b` FROM t -- z;" {
		t.Fatalf("%+v %v", ps, err)
	}
	if _, err := Split("SELECT 'open"); err == nil {
		t.Fatal("an open string split")
	}
	if _, err := Split("SELECT 1\x00; SELECT 2"); err == nil {
		t.Fatal("a NUL byte split")
	}
}
