package exec_test

import (
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestScriptRunTimeout: exec -f --run-timeout bounds the whole script
// (issue 33 item 2): against a server that takes 2 s per answer, a script
// of three one-request statements under a limit of 3 s ends in error of
// kind timeout naming the limit (not retryable: the same script under
// the same limit runs out again), exit 2, and the statements after the
// one it stopped are not sent. Each statement alone is well within its own
// --query-timeout. Before, the flag did not exist (a usage error).
func TestScriptRunTimeout(t *testing.T) {
	slow := fakegithub.ForTest(t, fakegithub.WithLatency(2*time.Second))
	script := testutil.TempFile(t, "script.sql", strings.Repeat("SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 1;\n", 3))
	r := testutil.Run(t, execEnvOn(t, slow), "", "exec", "-o", "json", "--run-timeout", "3s", "-f", script)
	if r.Code != 2 || !strings.Contains(r.Stderr, `"kind":"timeout"`) || !strings.Contains(r.Stderr, "(--run-timeout 3s) ran out") || !strings.Contains(r.Stderr, `"retryable":false`) {
		t.Fatalf("exit %d, want 2 with a timeout naming --run-timeout\n%s", r.Code, r.Stderr)
	}
	if n := len(slow.Requests()); n >= 3 {
		t.Errorf("%d requests: the script went on past its limit: %+v\n%s", n, slow.Requests(), r.Stderr)
	}
	// Without the limit, the same script runs whole.
	r = testutil.Run(t, execEnvOn(t, slow), "", "exec", "-o", "json", "-f", script)
	if r.Code != 0 {
		t.Fatalf("without --run-timeout: exit %d\n%s", r.Code, r.Stderr)
	}
}
