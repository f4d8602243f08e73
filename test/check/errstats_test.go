package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestCheckFanOutErrorNamesEveryKey: a fan-out whose calls the provider
// refuses for three repositories ends in an error naming all three (not
// only the first), with their count, and the errored control reports
// what it cost in its stats, as does the run (issue 33 item 4).
func TestCheckFanOutErrorNamesEveryKey(t *testing.T) {
	gh := fakegithub.ForTest(t, fakegithub.WithRepos("keys", 30))
	for _, r := range []string{"repo-003", "repo-011", "repo-020"} {
		gh.Inject(fakegithub.Fault{Path: "^/repos/keys/" + r + "/branches/main/protection$", Kind: fakegithub.KindStatus, Status: 403, Message: "Resource not accessible by integration"})
	}
	env := testutil.FakeEnv(t, gh.URL())
	controls := testutil.TempFile(t, "controls.yaml", `controls:
  - id: protected
    sql: |
      SELECT r.name FROM github.repos.repos r
      LEFT JOIN github.branches.branch_protection bp
        ON bp.owner = 'keys' AND bp.repo = r.name AND bp.branch = r.default_branch
      WHERE r.org = 'keys' AND bp.url IS NULL
`)
	r := runCheck(t, env, "-o", "json", controls)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	var rep struct {
		Controls []struct {
			Status string `json:"status"`
			Error  *struct {
				Message    string `json:"message"`
				HTTPStatus int    `json:"http_status"`
			} `json:"error"`
			Stats *struct {
				HTTPRequests int `json:"http_requests"`
				Pages        int `json:"pages"`
			} `json:"stats"`
		} `json:"controls"`
		Stats struct {
			HTTPRequests int `json:"http_requests"`
		} `json:"stats"`
	}
	testutil.StdoutJSON(t, r, &rep)
	c := rep.Controls[0]
	if c.Status != "error" || c.Error == nil || c.Error.HTTPStatus != 403 {
		t.Fatalf("control %+v", c)
	}
	for _, want := range []string{"3 of the fan-out's 30 calls failed", "repo=repo-003 (403)", "repo=repo-011 (403)", "repo=repo-020 (403)"} {
		if !strings.Contains(c.Error.Message, want) {
			t.Errorf("message %q lacks %q", c.Error.Message, want)
		}
	}
	// The repositories' page and the 30 protections were asked for.
	if n := len(gh.Requests()); c.Stats == nil || c.Stats.HTTPRequests != n || n != 31 || rep.Stats.HTTPRequests != n {
		t.Fatalf("errored control's stats %+v, run's %+v; %d requests received", c.Stats, rep.Stats, n)
	}
}

// TestCheckSQLiteErrorsBeforeAnyRequest: what only SQLite catches (a
// function it lacks, a column of an alias the query never joined) is a
// problem of the file reported before any request, like SQL that does
// not parse (issue 33 item 4: it was found after the control's requests).
func TestCheckSQLiteErrorsBeforeAnyRequest(t *testing.T) {
	gh, env := serverEnv(t)
	controls := testutil.TempFile(t, "controls.yaml", `controls:
  - id: fine
    sql: SELECT name FROM github.repos.repos WHERE org = 'acme' AND private
  - id: no-such-function
    sql: SELECT r.name FROM github.repos.repos r WHERE r.org = 'acme' AND nosuchfunc(r.name) = 1
  - id: having-unknown-alias
    sql: |
      SELECT r.name, count(*) FROM github.repos.repos r WHERE r.org = 'acme'
      GROUP BY r.name HAVING c.x > 1
`)
	r := runCheck(t, env, controls)
	if r.Code != 2 || !strings.Contains(r.Stderr, "no such function: nosuchfunc") || !strings.Contains(r.Stderr, "no such column: c.x") || !strings.Contains(r.Stderr, "no control was run") {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if n := len(gh.Requests()); n != 0 {
		t.Fatalf("%d requests sent before the problems were reported", n)
	}
}
