package exec_test

import (
	"strings"
	"testing"
)

// LIMIT 0 answers with the statement's columns and no row, and sends
// nothing (the fake's acme has 250 repositories over 3 pages); EXPLAIN
// says so. Planning still refuses what cannot be read.
func TestLimitZeroSendsNoRequest(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{`SELECT name, id FROM github.repos.repos WHERE org = 'acme' LIMIT 0`, "name,id\n"},
		{`SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme' LIMIT 0`, "n\n"},
		{`SELECT r.name, p.title FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme' LIMIT 0`, "name,title\n"},
	} {
		fake.ResetRequests()
		r := run(t, "-o", "csv", c.sql)
		if r.Code != 0 || r.Stdout != c.want {
			t.Errorf("%s: exit %d, stdout %q (want %q), stderr %s", c.sql, r.Code, r.Stdout, c.want, r.Stderr)
		}
		if n := len(fake.Requests()); n != 0 {
			t.Errorf("%s: %d requests sent, want none", c.sql, n)
		}
		e := run(t, "-o", "csv", "EXPLAIN "+c.sql)
		if e.Code != 0 || !strings.Contains(e.Stdout, "no request: LIMIT 0 returns no rows") || !strings.Contains(e.Stdout, "estimated requests: 0 ") {
			t.Errorf("EXPLAIN %s: exit %d: %s", c.sql, e.Code, e.Stdout)
		}
	}
	r := run(t, `SELECT title FROM github.pulls.pulls LIMIT 0`)
	if r.Code != 1 || !strings.Contains(r.Stderr, "cannot be read without binding required parameters") {
		t.Errorf("unplannable LIMIT 0: exit %d, stderr %s", r.Code, r.Stderr)
	}
}

// WHERE predicates on one key that admit no value (org = 'acme' AND org =
// 'tiny') answer as SQL does, with no row (an aggregate's one row), no
// request and a notice on stderr; values SQLite may read as equal and
// predicates in JOIN ... ON are refused instead (README, "Answers
// known to be empty").
func TestContradictoryKeysAnswerEmpty(t *testing.T) {
	for _, c := range []struct{ sql, want string }{
		{`SELECT name FROM github.repos.repos WHERE org = 'acme' AND org = 'tiny'`, "name\n"},
		{`SELECT count(*) AS n FROM github.repos.repos WHERE org IN ('acme', 'tiny') AND org = 'zeta'`, "n\n0\n"},
	} {
		fake.ResetRequests()
		r := run(t, "-o", "csv", c.sql)
		if r.Code != 0 || r.Stdout != c.want {
			t.Errorf("%s: exit %d, stdout %q (want %q), stderr %s", c.sql, r.Code, r.Stdout, c.want, r.Stderr)
		}
		if !strings.Contains(r.Stderr, "notice: no request for github.repos.repos: its WHERE predicates on org (") || !strings.Contains(r.Stderr, "admit no value, so it has no rows") {
			t.Errorf("%s: no notice on stderr: %q", c.sql, r.Stderr)
		}
		if n := len(fake.Requests()); n != 0 {
			t.Errorf("%s: %d requests sent, want none", c.sql, n)
		}
	}
	r := run(t, "-o", "json", `SELECT name FROM github.repos.repos WHERE org = 'acme' AND org = 'tiny'`)
	if r.Code != 0 || !strings.Contains(r.Stderr, `{"notice":"no request for github.repos.repos`) {
		t.Errorf("json: exit %d, stderr %q", r.Code, r.Stderr)
	}
	for _, c := range []struct{ sql, want string }{
		{`SELECT title FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-001' AND issue_number = '01' AND issue_number = 1`, "SQLite may read some of them as the same integer value"},
		{`SELECT r.name FROM github.repos.repos r LEFT JOIN github.repos.repos q ON q.org = 'acme' AND q.org = 'tiny' WHERE r.org = 'tiny'`, "is in JOIN ... ON"},
	} {
		fake.ResetRequests()
		r := run(t, c.sql)
		if r.Code != 1 || !strings.Contains(r.Stderr, c.want) || len(fake.Requests()) != 0 {
			t.Errorf("%s: exit %d, %d requests, stderr %q; want exit 1 with %q", c.sql, r.Code, len(fake.Requests()), r.Stderr, c.want)
		}
	}
}
