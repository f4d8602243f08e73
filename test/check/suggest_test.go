package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// A control over a mistyped table is a problem that says the table it
// probably meant, before anything runs.
func TestUnknownTableControlSuggestsNearest(t *testing.T) {
	s, env := serverEnv(t)
	file := testutil.TempFile(t, "typo.yaml", "controls:\n  - id: typo\n    sql: SELECT name FROM github.repos.list_for_orgs WHERE org = 'acme'\n")
	r := runCheck(t, env, file)
	if r.Code != 2 || !strings.Contains(r.Stderr, "control typo") || !strings.Contains(r.Stderr, "did you mean github.repos.repos (method list_for_org)?") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d requests", n)
	}
}

// A control over an unknown provider, or over a table name of two parts,
// is a problem that says so (as exec and MCP do), before anything runs.
func TestShortOrUnknownNameControls(t *testing.T) {
	s, env := serverEnv(t)
	file := testutil.TempFile(t, "names.yaml", "controls:\n"+
		"  - id: provider\n    sql: SELECT name FROM gitlab.repos.repos\n"+
		"  - id: short\n    sql: SELECT name FROM github.repos WHERE org = 'acme'\n")
	r := runCheck(t, env, file)
	for _, want := range []string{
		"control provider", `unknown provider "gitlab"; SHOW PROVIDERS lists them`,
		"control short", "no table github.repos: tables are named provider.service.resource; did you mean github.repos.repos",
	} {
		if r.Code != 2 || !strings.Contains(r.Stderr, want) {
			t.Errorf("exit %d, want %q in\n%s%s", r.Code, want, r.Stdout, r.Stderr)
		}
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d requests", n)
	}
}
