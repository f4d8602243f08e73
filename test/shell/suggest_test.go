package shell

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// The shell words an unknown table as exec does: the closest names, then
// the statement that lists them.
func TestScriptUnknownTableSuggestsNearest(t *testing.T) {
	_, env := fake(t)
	r := testutil.Run(t, env, "SELECT * FROM github.repo.get;", "shell")
	if r.Code != 1 || !strings.Contains(r.Stderr, "did you mean github.repos.repos (method get)?") || !strings.Contains(r.Stderr, "SHOW SERVICES IN github") {
		t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
	}
}
