package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// --only with an id no control has is a usage problem (exit 2, nothing
// runs) that names the ids a typo away: licence is license.
func TestOnlyUnknownIDSuggestsNearest(t *testing.T) {
	s, env := serverEnv(t)
	file := testutil.TempFile(t, "c.yaml", "controls:\n"+
		"  - id: license\n    sql: SELECT name FROM github.repos.repos WHERE org = 'acme' AND license IS NULL\n"+
		"  - id: no-2fa\n    sql: SELECT login FROM github.orgs.members WHERE org = 'acme' AND filter = '2fa_disabled'\n")
	for only, want := range map[string]string{
		"licence": "--only licence: no control has this id; did you mean license?",
		"zzzzzz":  "--only zzzzzz: no control has this id",
	} {
		r := runCheck(t, env, file, "--only", only)
		if r.Code != 2 || !strings.Contains(r.Stderr, want) {
			t.Errorf("--only %s: exit %d, want 2 saying %q\n%s%s", only, r.Code, want, r.Stdout, r.Stderr)
		}
		if only == "zzzzzz" && strings.Contains(r.Stderr, "did you mean") {
			t.Errorf("--only %s: a suggestion though none is close: %s", only, r.Stderr)
		}
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d requests", n)
	}
}
