package exec_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// A WHERE key bound to a value outside its enum in the description is
// refused before any request, naming the values it takes (for = and
// IN, compared exactly, as the API reads them); allowed values pass.
// GitHub ignores an unknown role or type and answers every row.
func TestKeyValuesOutsideEnumRefused(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{`SELECT login FROM github.orgs.members WHERE org = 'acme' AND role = 'owner'`,
			"role = 'owner': role takes one of all, admin, member"},
		{`SELECT name FROM github.repos.repos WHERE org = 'acme' AND type = 'privat'`,
			"type = 'privat': type takes one of all, public, private, forks, sources, member"},
		{`SELECT title FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-007' AND state IN ('open', 'opened')`,
			"state IN (... 'opened' ...): state takes one of open, closed, all"},
		{`SELECT title FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-007' AND state = 'Closed'`,
			"state takes one of open, closed, all (values are compared exactly: write 'closed')"},
	} {
		fake.ResetRequests()
		r := run(t, c.sql)
		if r.Code != 1 || !strings.Contains(r.Stderr, c.want) || !strings.Contains(r.Stderr, "(plan)") {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 with %q", c.sql, r.Code, r.Stderr, c.want)
		}
		if n := len(fake.Requests()); n != 0 {
			t.Errorf("%s: %d requests sent, want none", c.sql, n)
		}
	}
	r := run(t, "-o", "csv", `SELECT count(*) AS n FROM github.orgs.members WHERE org = 'acme' AND role IN ('admin')`)
	if r.Code != 0 || r.Stdout != "n\n3\n" {
		t.Errorf("role = admin: exit %d, stdout %q, stderr %s", r.Code, r.Stdout, r.Stderr)
	}
}

// A key left unbound whose declared default makes the API answer only
// part of the rows (issues and pulls: state, default open), when the
// query reads the column of that name, gets a notice on stderr saying
// so and what to bind; binding it, or not reading the column, is quiet.
func TestUnboundDefaultKeyNotice(t *testing.T) {
	const want = "github.issues.issues: state is not bound: the API answers with its default, state = 'open', so only those rows are read; bind state = 'all' (or IN (...)) for the others"
	r := run(t, "-o", "csv", `SELECT state, count(*) AS n FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-007' GROUP BY state`)
	if r.Code != 0 || r.Stdout != "state,n\nopen,5\n" || !strings.Contains(r.Stderr, "notice: "+want) {
		t.Errorf("unbound state: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	r = run(t, "-o", "json", `SELECT number, state FROM github.pulls.pulls WHERE owner = 'acme' AND repo = 'repo-007'`)
	if r.Code != 0 || !strings.Contains(r.Stderr, `{"notice":"github.pulls.pulls: state is not bound: the API answers with its default, state = 'open'`) {
		t.Errorf("pulls json: exit %d, stderr %q", r.Code, r.Stderr)
	}
	for _, sql := range []string{
		`SELECT state, count(*) AS n FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-007' AND state = 'all' GROUP BY state`,
		`SELECT state FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-007' AND state IN ('open', 'closed')`,
		`SELECT title FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-007'`,
		`SELECT login FROM github.orgs.members WHERE org = 'acme'`,
	} {
		r := run(t, "-o", "csv", sql)
		if r.Code != 0 || strings.Contains(r.Stderr, "notice") {
			t.Errorf("%s: exit %d, stderr %q; want no notice", sql, r.Code, r.Stderr)
		}
	}
}

// DESCRIBE shows the values a key takes and its default, per method
// where the methods differ.
func TestDescribeShowsKeyValues(t *testing.T) {
	r := run(t, "-o", "csv", "DESCRIBE github.issues.issues")
	if r.Code != 0 || !strings.Contains(r.Stdout, "\nstate,TEXT,optional key,") || !strings.Contains(r.Stdout, ",\"One of open, closed, all (default open).\"\n") {
		t.Errorf("DESCRIBE issues: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = run(t, "-o", "csv", "DESCRIBE github.repos.repos")
	if r.Code != 0 || !strings.Contains(r.Stdout, "list_for_org: one of all, public, private, forks, sources, member (default all); list_for_authenticated_user: one of all, owner, public, private, member (default all); list_for_user: one of all, owner, member (default owner).") {
		t.Errorf("DESCRIBE repos: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// A table of several methods is described by what its rows are, not by
// one method's summary (github.repos.repos is not "the repositories of
// the authenticated user"); SHOW METHODS gives each method its own.
func TestTableSummaryIsNotOneMethods(t *testing.T) {
	r := run(t, "-o", "csv", "DESCRIBE github.repos.repos")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "name,type,kind,methods,description\ngithub.repos.repos,,table,5,Repository.\n") {
		t.Errorf("DESCRIBE repos: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = run(t, "-o", "csv", "SHOW METHODS IN github.repos.repos")
	if !testutil.Contains(t, "SHOW METHODS", r.Stdout,
		"method,required_params,optional_params,http,item_key,summary\n",
		",GET /user/repos,,List repositories for the authenticated user\n",
		",GET /orgs/{org}/repos,,List organization repositories\n") {
		t.Errorf("exit %d, stderr %s", r.Code, r.Stderr)
	}
}
