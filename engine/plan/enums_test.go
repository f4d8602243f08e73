package plan

import (
	"strings"
	"testing"
)

func TestEnumRefusesValuesOutsideIt(t *testing.T) {
	cat := github(t)
	for _, c := range []struct{ q, want string }{
		{"SELECT login FROM github.orgs.members WHERE org = 'acme' AND role = 'owner'", "github.orgs.members: role = 'owner': role takes one of all, admin, member; unbound, the API reads role = 'all'"},
		{"SELECT login FROM github.orgs.members WHERE org = 'acme' AND role IN ('admin', 'owner')", "role IN (... 'owner' ...): role takes one of all, admin, member"},
		{"SELECT name FROM github.repos.repos WHERE type = 'forks'", "type = 'forks': type takes one of all, owner, public, private, member"}, // list_for_authenticated_user's enum, not list_for_org's
		{"SELECT title FROM github.issues.issues WHERE owner = 'a' AND repo = 'b' AND state = 'OPEN'", "(values are compared exactly: write 'open')"},
	} {
		_, err := build(t, cat, c.q)
		var pe *Error
		if err == nil || !strings.Contains(err.Error(), c.want) || !asPlanError(err, &pe) {
			t.Errorf("%s: %v; want a plan error with %q", c.q, err, c.want)
		}
	}
	for _, q := range []string{
		"SELECT login FROM github.orgs.members WHERE org = 'acme' AND role IN ('admin', 'member')",
		"SELECT name FROM github.repos.repos WHERE org = 'acme' AND type = 'forks'",
		"SELECT name FROM github.repos.repos WHERE org = 'acme' AND sort = 'full_name'",
		// a key without an enum takes any value
		"SELECT title FROM github.issues.issues WHERE owner = 'a' AND repo = 'b' AND labels = 'anything'",
	} {
		if _, err := build(t, cat, q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}

func asPlanError(err error, pe **Error) bool {
	e, ok := err.(*Error)
	*pe = e
	return ok && e.ErrorKind() == "plan"
}

func TestDefaultNotice(t *testing.T) {
	cat := github(t)
	for _, c := range []struct{ q, want string }{
		{"SELECT state, count(*) FROM github.issues.issues WHERE owner = 'a' AND repo = 'b' GROUP BY state",
			"github.issues.issues: state is not bound: the API answers with its default, state = 'open', so only those rows are read; bind state = 'all' (or IN (...)) for the others"},
		{"SELECT * FROM github.pulls.pulls WHERE owner = 'a' AND repo = 'b'", "github.pulls.pulls: state is not bound"},
		// no value means all: the whole enum is the way to widen
		{"SELECT type FROM github.security_advisories.global_advisories", "type is not bound: the API answers with its default, type = 'reviewed', so only those rows are read; bind type IN ('reviewed', 'malware', 'unreviewed') for the others"},
		// quiet: bound (a literal, or another table), not read, or no default that filters
		{"SELECT state FROM github.issues.issues WHERE owner = 'a' AND repo = 'b' AND state = 'closed'", ""},
		{"SELECT title FROM github.issues.issues WHERE owner = 'a' AND repo = 'b'", ""},
		{"SELECT visibility FROM github.repos.repos WHERE org = 'a'", ""},
		{"SELECT state FROM github.issues.issues WHERE owner = 'a' AND repo = 'b' LIMIT 0", ""},
	} {
		p := planned(t, cat, c.q)
		if got := p.Notice(); (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: notice %q, want %q", c.q, got, c.want)
		}
	}
}
