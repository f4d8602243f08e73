package exec_test

import (
	"strings"
	"testing"
)

// An unknown table gets the closest names of its provider: a table is
// named by entity (github.repos.repos) and its methods by operation
// (list_for_org), so a method's name, or a near miss of one, points to
// its table; an unknown service points to the closest service; nothing
// close, no suggestion. The SELECT, DESCRIBE and SHOW paths say the same
// (docs/sql.md, "Unknown names").
func TestUnknownTableSuggestsNearestNames(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{`SELECT * FROM github.repos.list_for_orgs`, "did you mean github.repos.repos (method list_for_org)?"},
		{`SELECT * FROM github.repos.list_for_org`, "did you mean github.repos.repos (method list_for_org)?"},
		{`SELECT * FROM github.repo.get`, "did you mean github.repos.repos (method get)?"},
		{`SELECT * FROM github.issues.list_for_repos`, "did you mean github.issues.issues (method list_for_repo)?"},
		{`SELECT * FROM github.repos.repo`, "did you mean github.repos.repos?"},
		{`DESCRIBE github.repos.lst_for_org`, "did you mean github.repos.repos (method list_for_org)?"},
		{`SHOW RESOURCES IN github.repo`, "did you mean github.repos?"},
		{`SHOW SERVICES IN gitub`, "did you mean github?"},
	} {
		r := run(t, c.sql)
		if r.Code != 1 || !strings.Contains(r.Stderr, "error (plan)") || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 with %q", c.sql, r.Code, r.Stderr, c.want)
		}
		if !strings.Contains(r.Stderr, "SHOW ") {
			t.Errorf("%s: no statement that lists the names: %q", c.sql, r.Stderr)
		}
	}
	r := run(t, `SELECT * FROM github.nope.zzzzzz`)
	if r.Code != 1 || strings.Contains(r.Stderr, "did you mean") || !strings.Contains(r.Stderr, "SHOW SERVICES IN github") {
		t.Errorf("nothing close: exit %d, stderr %q", r.Code, r.Stderr)
	}
	// -o json carries the same message in the error object.
	r = run(t, "-o", "json", `SELECT * FROM github.repos.list_for_orgs`)
	if r.Code != 1 || !strings.Contains(r.Stderr, `"kind":"plan"`) || !strings.Contains(r.Stderr, "did you mean github.repos.repos (method list_for_org)?") {
		t.Errorf("json: exit %d, stderr %q", r.Code, r.Stderr)
	}
}
