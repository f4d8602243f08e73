package exec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

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
			if r.Code != 0 || len(jsonRows(t, r)) == 0 {
				t.Fatalf("the form suggested: exit %d, stdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}
