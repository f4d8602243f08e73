package sqlfront

import (
	"reflect"
	"testing"
)

func TestFilters(t *testing.T) {
	cases := []struct {
		sql  string
		want []string
	}{
		{"SELECT r.name FROM github.repos.repos r JOIN github.pulls.pulls p ON p.repo = r.name WHERE r.org = 'acme' AND NOT r.archived AND r.language = 'Go' AND p.state = 'open'",
			[]string{`"r"."org" = 'acme'`, `NOT ("r"."archived")`, `"r"."language" = 'Go'`}},
		// a term over both tables, a subquery, an unknown function: left out
		{"SELECT r.name FROM github.repos.repos r JOIN github.pulls.pulls p ON p.repo = r.name WHERE r.id > p.id AND r.name IN (SELECT 'x') AND hex(r.name) = 'x' AND (r.forks_count >= 3 OR r.fork IS NULL)",
			[]string{`("r"."forks_count" >= 3) OR (("r"."fork") IS NULL)`}},
		// the preserved side of a LEFT JOIN is narrowed ...
		{"SELECT r.name FROM github.repos.repos r LEFT JOIN github.pulls.pulls p ON p.repo = r.name WHERE p.id IS NULL AND r.private",
			[]string{`"r"."private"`}},
		// ... its NULL-extended side never
		{"SELECT r.name FROM github.repos.repos r RIGHT JOIN github.pulls.pulls p ON p.repo = r.name WHERE r.private", nil},
		{"SELECT r.name FROM github.pulls.pulls p LEFT JOIN github.repos.repos r ON p.repo = r.name WHERE r.private", nil},
		{"SELECT r.name FROM github.pulls.pulls p RIGHT JOIN github.repos.repos r ON p.repo = r.name WHERE r.private", []string{`"r"."private"`}},
		{"SELECT r.name FROM github.repos.repos r JOIN github.pulls.pulls p ON p.repo = r.name WHERE r.private AND (r.name || 'x') = 'ax'", nil},
		{`SELECT r.name FROM github.repos.repos r JOIN github.pulls.pulls p ON p.repo = r.name WHERE r.name = "x"`, nil},
		// GLOB (read by vitess as REGEXP) and REGEXP are never filters
		{"SELECT r.name FROM github.repos.repos r JOIN github.pulls.pulls p ON p.repo = r.name WHERE r.org = 'acme' AND r.name GLOB 'a*' AND r.name NOT GLOB 'b*' AND r.name REGEXP 'x'",
			[]string{`"r"."org" = 'acme'`}},
	}
	for _, c := range cases {
		st := parsed(t, c.sql)
		var r *TableRef
		for _, ref := range st.Query.Tables {
			if ref.RefName() == "r" {
				r = ref
			}
		}
		var got []string
		for _, f := range r.Filters {
			got = append(got, f.SQL)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.sql, got, c.want)
		}
	}
}
