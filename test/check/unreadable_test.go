package check

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestUnreadableControlFile: a control file that cannot be read is a
// problem of the file like any other (docs/check.md, exit 2): with -o
// json stdout holds the problems report, never plain text only; and a
// bad setting of check (--max-rows 0) is exit 2 too, never 1, which says
// a control failed.
func TestUnreadableControlFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	r := runCheck(t, testutil.Env(t), "-o", "json", missing)
	var rep struct {
		File     string `json:"file"`
		ExitCode int    `json:"exit_code"`
		Problems []struct {
			File, Message string
		} `json:"problems"`
	}
	testutil.StdoutJSON(t, r, &rep)
	if r.Code != 2 || rep.ExitCode != 2 || rep.File != missing || len(rep.Problems) != 1 ||
		!strings.Contains(rep.Problems[0].Message, "cannot be read: no such file or directory") {
		t.Fatalf("exit %d, report %+v", r.Code, rep)
	}
	testutil.Contains(t, "stderr", r.Stderr, missing+": the control file cannot be read", "1 problem in "+missing+"; no control was run")

	ok := testutil.TempFile(t, "c.yaml", "controls:\n  - id: c1\n    sql: SELECT name FROM github.repos.repos WHERE org = 'tiny'\n")
	for _, bad := range [][]string{{"--max-rows", "0"}, {"--max-rows", "-1"}} {
		r = runCheck(t, testutil.Env(t), append(bad, ok)...)
		if r.Code != 2 || !strings.Contains(r.Stderr, strings.Join(bad, " ")+": give a positive number") {
			t.Errorf("%v: exit %d %s", bad, r.Code, r.Stderr)
		}
	}
	r = runCheck(t, testutil.Env(t, "ENGINE_DEBUG=maybe"), ok)
	if r.Code != 2 || !strings.Contains(r.Stderr, `ENGINE_DEBUG="maybe"`) {
		t.Errorf("ENGINE_DEBUG=maybe: exit %d %s", r.Code, r.Stderr)
	}
}
