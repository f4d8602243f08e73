package exec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// Statements that cannot be right are refused at plan time, exit 1 kind
// plan, before any request is sent: a column the chosen method does not
// return (with the nearest names), and a parameter bound from a literal
// that SQLite reads differently from the API.
func TestRefusedBeforeAnyRequest(t *testing.T) {
	cases := []struct {
		name, sql string
		want      []string
	}{
		{"unknown column", `SELECT stat FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-001'`,
			[]string{"no such column: stat", "nearest: state"}},
		{"unknown qualified column", `SELECT r.nme FROM github.repos.repos r WHERE r.org = 'acme'`,
			[]string{"no such column: r.nme", "nearest: name"}},
		{"per_page is no column", `SELECT name FROM github.repos.repos WHERE org = 'acme' AND per_page = 3`,
			[]string{"no such column: per_page"}},
		{"unknown column in WHERE", `SELECT name FROM github.repos.repos WHERE org = 'acme' AND stargazer_count > 3`,
			[]string{"no such column: stargazer_count", "stargazers_count"}},
		{"unbound parameter read", `SELECT sort FROM github.pulls.pulls WHERE owner = 'acme' AND repo = 'repo-001'`,
			[]string{"sort is a parameter", "does not bind it"}},
		{"double-quoted value", `SELECT name FROM github.repos.repos WHERE org = "acme"`,
			[]string{`org = "acme"`, "double quotes name a column in SQLite; write 'acme'"}},
		{"TRUE for a text parameter", `SELECT name FROM github.repos.repos WHERE org = TRUE`,
			[]string{"org = TRUE", "number 1"}},
		{"float literal", `SELECT name FROM github.repos.repos WHERE org = 1.5e3`,
			[]string{"org = 1.5e3", "'1.5e3'"}},
		{"integer not written canonically", `SELECT name FROM github.repos.repos WHERE org IN ('acme', 007)`,
			[]string{"007", "'007'"}},
		{"method of another entity table", `SELECT name FROM github.repos.repos.list_tags WHERE owner = 'acme' AND repo = 'repo-001'`,
			[]string{`has no method "list_tags"`, "list_tags is a method of github.repos.tags", "FROM github.repos.tags"}},
		{"a key of another method, its other key left out", `SELECT title FROM github.issues.issues WHERE owner = 'acme'`,
			[]string{"owner is a WHERE key of method list_for_repo", "bind repo too"}},
		{"text for a boolean parameter", `SELECT count(*) FROM github.actions.workflow_runs WHERE owner = 'acme' AND repo = 'repo-005' AND exclude_pull_requests = 'true'`,
			[]string{"exclude_pull_requests = TRUE"}},
		{"text for a boolean column", `SELECT name FROM github.repos.repos WHERE org = 'acme' AND private = 'true'`,
			[]string{"`private = 'true'`", "BOOLEAN column", "write private = TRUE"}},
		{"unknown column in a CTE's body", `WITH x AS (SELECT nme FROM github.repos.repos WHERE org = 'acme') SELECT * FROM x`,
			[]string{"no such column: nme", "nearest: name"}},
		{"unknown column in a subquery in FROM", `SELECT * FROM (SELECT nme FROM github.repos.repos WHERE org = 'acme') t`,
			[]string{"no such column: nme", "nearest: name"}},
		{"text for a boolean column in IN", `SELECT r.name FROM github.repos.repos r WHERE r.org = 'acme' AND r.archived IN ('false')`,
			[]string{"BOOLEAN column", "write archived = FALSE"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake.ResetRequests()
			r := run(t, "-o", "json", c.sql)
			if r.Code != 1 {
				t.Fatalf("exit %d, want 1\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
			}
			var body errorBody
			if err := json.Unmarshal([]byte(r.Stderr), &body); err != nil {
				t.Fatalf("stderr: %v: %s", err, r.Stderr)
			}
			if body.Error.Kind != "plan" {
				t.Fatalf("kind %q, want plan: %s", body.Error.Kind, body.Error.Message)
			}
			for _, w := range c.want {
				if !strings.Contains(body.Error.Message, w) {
					t.Fatalf("message %q does not say %q", body.Error.Message, w)
				}
			}
			if n := len(fake.Requests()); n != 0 {
				t.Fatalf("%d requests sent before the refusal", n)
			}
		})
	}
}

// Names that are not this table's columns but are right in SQLite are not
// refused: select aliases, table-function columns, CTE and derived-table
// columns, correlated outer columns, rowid, bound parameters, integers.
func TestColumnCheckAcceptsWhatSQLiteAccepts(t *testing.T) {
	cases := []struct{ name, sql, want string }{
		{"alias in ORDER BY", `SELECT name AS n FROM github.repos.repos WHERE org = 'tiny' ORDER BY n`, "n\nalpha\nbeta\ngamma\n"},
		{"table function column", `SELECT value FROM github.repos.repos r, json_each(r.topics) WHERE r.org = 'tiny' AND r.name = 'beta'`, "value\npython\n"},
		{"cte column", `WITH x AS (SELECT name AS nm FROM github.repos.repos WHERE org = 'tiny') SELECT nm FROM x ORDER BY nm LIMIT 1`, "nm\nalpha\n"},
		{"derived table column", `SELECT nm FROM (SELECT name AS nm FROM github.repos.repos WHERE org = 'tiny') d ORDER BY nm LIMIT 1`, "nm\nalpha\n"},
		{"correlated outer column", `SELECT name FROM github.repos.repos r WHERE org = 'tiny' AND EXISTS (SELECT 1 FROM github.orgs.members m WHERE m.org = 'tiny' AND r.name = 'alpha')`, "name\nalpha\n"},
		{"rowid", `SELECT count(rowid) AS c FROM github.repos.repos WHERE org = 'tiny'`, "c\n3\n"},
		{"bound parameter as a column", `SELECT DISTINCT org FROM github.repos.repos WHERE org = 'tiny'`, "org\ntiny\n"},
		{"integer parameter", `SELECT title FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-001' AND issue_number = 3`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, "-o", "csv", c.sql)
			if r.Code != 0 {
				t.Fatalf("exit %d: %s", r.Code, r.Stderr)
			}
			if c.want != "" && r.Stdout != c.want {
				t.Fatalf("got %q, want %q", r.Stdout, c.want)
			}
		})
	}
}

// The slips an author of SQL (an LLM agent most of all) makes often are
// refused before any request with the form to write, and the form given
// runs: a table of that name in another service, a service abbreviated
// (repos for repositories), owner/name in the key repo, a key of a JSON
// column as a name part, a column named by one of its words
// (docs/sql.md, "Unknown names").
func TestHintsForCommonSlips(t *testing.T) {
	gh := fakegithub.ForTest(t)
	env := execEnvOn(t, gh)
	for _, c := range []struct {
		name, sql, want, fixed string
	}{
		{"table in another service", `SELECT name FROM github.repos.branches WHERE owner = 'acme' AND repo = 'repo-001'`,
			"unknown table github.repos.branches; did you mean github.branches.branches",
			`SELECT name FROM github.branches.branches WHERE owner = 'acme' AND repo = 'repo-001'`},
		{"table in another service, no such service", `SELECT * FROM github.repo.branch_protection WHERE owner = 'acme' AND repo = 'repo-001' AND branch = 'main'`,
			"did you mean github.branches.branch_protection?", ""},
		{"two parts, a service abbreviated", `SELECT name FROM github.repositories WHERE org = 'acme'`,
			"no table github.repositories: tables are named provider.service.resource; did you mean github.repos.repos,",
			`SELECT name FROM github.repos.repos WHERE org = 'acme'`},
		{"owner/name in repo", `SELECT login FROM github.repos.contributors WHERE repo = 'acme/repo-001'`,
			"list_contributors needs owner; repo takes the repository's name; write owner = 'acme' AND repo = 'repo-001'",
			`SELECT login FROM github.repos.contributors WHERE owner = 'acme' AND repo = 'repo-001'`},
		{"a JSON column's key as a name part", `SELECT p.user.login FROM github.pulls.pulls p WHERE p.owner = 'acme' AND p.repo = 'repo-001'`,
			"no such column: p.user.login: user is a JSON column: write p.user ->> 'login' (or json_extract(p.user, '$.login'))",
			`SELECT p.user ->> 'login' AS login FROM github.pulls.pulls p WHERE p.owner = 'acme' AND p.repo = 'repo-001'`},
		{"a JSON column's key, unqualified", `SELECT number FROM github.pulls.pulls WHERE owner = 'acme' AND repo = 'repo-001' AND user.login = 'x'`,
			"user is a JSON column: write user ->> 'login' (or json_extract(user, '$.login'))",
			`SELECT number FROM github.pulls.pulls WHERE owner = 'acme' AND repo = 'repo-001' AND json_extract(user, '$.login') <> 'x'`},
		{"a column by one of its words", `SELECT name, stars FROM github.repos.repos WHERE org = 'acme'`,
			"no such column: stars: the rows of github.repos.repos (method list_for_org) have no column stars; nearest: stargazers_count.",
			`SELECT name, stargazers_count FROM github.repos.repos WHERE org = 'acme'`},
	} {
		t.Run(c.name, func(t *testing.T) {
			gh.ResetRequests()
			r := testutil.Run(t, env, "", "exec", "-o", "json", c.sql)
			var body errorBody
			if r.Code != 1 || json.Unmarshal([]byte(r.Stderr), &body) != nil {
				t.Fatalf("exit %d, want 1 with a JSON error\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
			}
			if body.Error.Kind != "plan" || !strings.Contains(body.Error.Message, c.want) {
				t.Fatalf("kind %q, message %q; want kind plan saying %q", body.Error.Kind, body.Error.Message, c.want)
			}
			if n := len(gh.Requests()); n != 0 {
				t.Fatalf("%d requests sent before the refusal", n)
			}
			if c.fixed == "" {
				return
			}
			r = testutil.Run(t, env, "", "exec", "-o", "json", c.fixed)
			if r.Code != 0 || len(testutil.JSONRows(t, r)) == 0 {
				t.Fatalf("the form suggested: exit %d, stdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}
