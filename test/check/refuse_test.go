package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// A control whose SQL names a column the table's method does not return,
// or binds a parameter with a double-quoted value, is an error found
// before anything runs (exit 2), never a PASS, and sends no request.
func TestUnknownColumnAndBadLiteralNeverPass(t *testing.T) {
	s, env := serverEnv(t)
	file := testutil.TempFile(t, "cols.yaml", `controls:
  - id: typo
    title: no admin hooks
    sql: SELECT id FROM github.orgs.webhooks WHERE org = 'acme' AND json_extract(confg, '$.insecure_ssl') = '1'
  - id: dq
    title: no public repos
    sql: SELECT name FROM github.repos.repos WHERE org = "acme" AND NOT private
`)
	r := runCheck(t, env, file)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	testutil.Contains(t, "stderr", r.Stderr, "control typo", "no such column: confg", "nearest: config", "control dq", `org = "acme"`, "write 'acme'")
	if strings.Contains(r.Stdout, "PASS") {
		t.Fatalf("a control passed:\n%s", r.Stdout)
	}
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// A control whose WHERE predicates on one key admit no value passes
// with no request, which is its query's true answer (README, "Answers
// known to be empty"); predicates the engine cannot prove empty (values
// SQLite may read as equal) make the file not plan (exit 2), never a
// pass, and nothing is sent.
func TestKnownEmptyControls(t *testing.T) {
	s, env := serverEnv(t)
	file := testutil.TempFile(t, "empty.yaml", `controls:
  - id: contradiction
    sql: SELECT name FROM github.repos.repos WHERE org = 'acme' AND org = 'tiny'
`)
	r := runCheck(t, env, file)
	testutil.WantRun(t, "check", r, 0, "PASS  contradiction", "")
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
	file = testutil.TempFile(t, "ambiguous.yaml", `controls:
  - id: ambiguous
    sql: SELECT title FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-001' AND issue_number = '01' AND issue_number = 1
`)
	r = runCheck(t, env, file)
	if r.Code != 2 || strings.Contains(r.Stdout, "PASS") {
		t.Fatalf("exit %d, want 2 and no pass\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	testutil.Contains(t, "stderr", r.Stderr, "control ambiguous", "SQLite may read some of them as the same integer value")
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// A control that leaves out the key (org) of github.repos.repos reads GET
// /user/repos, the token's user's repositories, and would pass on zero
// rows whatever the org holds. It is a problem of the file, at the line of
// the table, unless the control names the method (a four-part name).
func TestUnkeyedScopeIsAProblem(t *testing.T) {
	s, env := serverEnv(t)
	file := testutil.TempFile(t, "scope.yaml", `vars:
  org: acme
controls:
  - id: public-repos
    sql: |
      SELECT full_name
      FROM github.repos.repos
      WHERE visibility = 'public' AND owner->>'login' = {{org}}
  - id: org-public-repos
    sql: SELECT full_name FROM github.repos.repos WHERE org = {{org}} AND type = 'public'
`)
	r := runCheck(t, env, file)
	want := file + ":7: control public-repos: sql: github.repos.repos read with list_for_authenticated_user (GET /user/repos), which needs no key: " +
		"the rows are the credentials' user's; bind org (list_for_org) or username (list_for_user) for another owner's, " +
		"or name the method (FROM github.repos.repos.list_for_authenticated_user) to mean it; a control must name the scope it reads"
	lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
	if r.Code != 2 || len(lines) != 2 || lines[0] != want {
		t.Fatalf("exit %d, stderr:\n%s\nwant first line:\n%s", r.Code, r.Stderr, want)
	}
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests made before the file was valid", n)
	}

	// Named, the method is what the control means: it runs.
	named := testutil.TempFile(t, "named.yaml", `controls:
  - id: my-public-repos
    expect: nonempty
    sql: SELECT full_name FROM github.repos.repos.list_for_authenticated_user WHERE visibility = 'public'
`)
	rep := parseJSON(t, runCheck(t, env, named, "-o", "json"))
	if rep.ExitCode != 0 || statuses(rep)["my-public-repos"] != "pass" {
		t.Fatalf("named method: %+v", rep)
	}
}
