package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

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
