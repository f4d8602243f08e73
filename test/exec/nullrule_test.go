package exec_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A statement whose WHERE reads a setting the token cannot see (the
// fake's comply-member org leaves the owner-only settings out, as GitHub
// does for a member), without coalesce or IS NULL, answers as SQL does:
// exit 0 with its rows (here none), and a notice on stderr that names the
// column, the likely cause and the forms that decide what unknown means
// (a {"notice": ...} line with -o json). The same statement over an org
// whose settings are visible, and one that says what unknown means, have
// no such notice.
func TestNullColumnNotice(t *testing.T) {
	const bare = `SELECT login FROM github.orgs.orgs WHERE org = 'comply-member' AND members_can_delete_issues`
	const want = "notice: github.orgs.orgs.members_can_delete_issues is NULL in every row read (1 row), and WHERE reads it without saying what NULL means"
	r := run(t, "-o", "csv", bare)
	if r.Code != 0 || r.Stdout != "login\n" || !strings.Contains(r.Stderr, want) ||
		!strings.Contains(r.Stderr, "coalesce(members_can_delete_issues, <failing value>)") || !strings.Contains(r.Stderr, "members_can_delete_issues IS NULL") {
		t.Errorf("exit %d, stdout %q, stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	r = run(t, "-o", "json", bare)
	var notice struct {
		Notice string `json:"notice"`
	}
	line, _, _ := strings.Cut(strings.TrimSpace(r.Stderr), "\n")
	if r.Code != 0 || json.Unmarshal([]byte(line), &notice) != nil || !strings.Contains(notice.Notice, "members_can_delete_issues is NULL in every row read") {
		t.Errorf("-o json: exit %d, stderr %s", r.Code, r.Stderr)
	}
	// the column unqualified in a FROM of two provider tables: the one
	// table that has it is judged (before: not checked, exit 0 silently)
	const joined = `SELECT o.login, r.name FROM github.orgs.orgs o JOIN github.repos.repos r ON 1 WHERE o.org = 'comply-member' AND r.org = 'comply-member' AND members_can_delete_issues`
	// through a select-list alias (SQLite lets WHERE read one), of the
	// column or of one JSON path of it (before: not checked)
	for _, sql := range []string{joined,
		`SELECT login, members_can_delete_issues AS m FROM github.orgs.orgs WHERE org = 'comply-member' AND m`,
		`WITH o AS (SELECT login, members_can_delete_issues AS m FROM github.orgs.orgs WHERE org = 'comply-member') SELECT login FROM o WHERE m`,
		// unqualified in a subquery in WHERE: its own FROM's column
		// (before: not checked, as the name might have meant the outer table's)
		`SELECT login FROM github.orgs.orgs WHERE org = 'comply-member' AND login IN (SELECT login FROM github.orgs.orgs WHERE org = 'comply-member' AND members_can_delete_issues)`,
		// IS TRUE is a boolean's test, false on NULL (before: taken as
		// saying what NULL means)
		`SELECT login FROM github.orgs.orgs WHERE org = 'comply-member' AND members_can_delete_issues IS TRUE`,
		// a computed column that is NULL when its column is (NOT x, lower(x),
		// x = 0) follows it (before: taken as deciding its own NULLs)
		`WITH o AS (SELECT login, NOT members_can_delete_issues AS m FROM github.orgs.orgs WHERE org = 'comply-member') SELECT login FROM o WHERE NOT m`,
		`SELECT login, members_can_delete_issues = 1 AS m FROM github.orgs.orgs WHERE org = 'comply-member' AND m`,
	} {
		r = run(t, "-o", "csv", sql)
		if r.Code != 0 || strings.Count(r.Stdout, "\n") != 1 || !strings.Contains(r.Stderr, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %s", sql, r.Code, r.Stdout, r.Stderr)
		}
	}
	for _, sql := range []string{
		strings.ReplaceAll(joined, "comply-member", "comply-fail") + " LIMIT 1",
		`SELECT login FROM github.orgs.orgs WHERE org = 'comply-fail' AND members_can_delete_issues`,
		`SELECT login FROM github.orgs.orgs WHERE org = 'comply-member' AND coalesce(members_can_delete_issues, 1) = 1`,
	} {
		r := run(t, "-o", "csv", sql)
		if r.Code != 0 || strings.Count(r.Stdout, "\n") != 2 || strings.Contains(r.Stderr, "NULL in every row") {
			t.Errorf("%s: exit %d, stdout %q, stderr %s", sql, r.Code, r.Stdout, r.Stderr)
		}
	}
}
