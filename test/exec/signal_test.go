package exec_test

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestStopSignals: SIGTERM (what CI runners and container stops send)
// cancels a running statement as SIGINT does: "query cancelled" on
// stderr, exit 2 (docs/architecture.md, "Exit codes").
func TestStopSignals(t *testing.T) {
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		t.Run(sig.String(), func(t *testing.T) {
			s := fakegithub.ForTest(t)
			s.Inject(fakegithub.Fault{Path: "/orgs/tiny/repos", Kind: fakegithub.KindSlow, Delay: time.Minute})
			p := testutil.Start(t, 50*time.Second, execEnvOn(t, s), "exec", "SELECT name FROM github.repos.repos WHERE org = 'tiny'")
			for s.Arrived() == 0 {
				time.Sleep(10 * time.Millisecond) // until the request is in flight
			}
			p.Signal(sig)
			r, hung := p.Wait()
			if hung || r.Code != 2 || strings.TrimSpace(r.Stderr) != "query cancelled" || r.Stdout != "" {
				t.Fatalf("%s: exit %d hung %t\nstdout %q\nstderr %q", sig, r.Code, hung, r.Stdout, r.Stderr)
			}
		})
	}
}
