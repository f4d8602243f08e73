package check

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// A check stopped by SIGTERM (a CI job cancelled) or SIGINT while a
// control waits on the provider reports that control as an error (kind
// cancelled) and exits 2, as exec does: before, SIGTERM killed it with
// no report (exit 143), and a job reading the report found none.
func TestCheckStopSignals(t *testing.T) {
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		t.Run(sig.String(), func(t *testing.T) {
			s := fakegithub.ForTest(t)
			s.Inject(fakegithub.Fault{Path: "/orgs/acme/repos", Kind: fakegithub.KindSlow, Delay: time.Minute})
			file := testutil.TempFile(t, "c.yaml", testutil.GhostControl)
			p := testutil.Start(t, 50*time.Second, testutil.FakeEnv(t, s.URL()), "check", file, "-o", "json")
			for s.Arrived() == 0 {
				time.Sleep(10 * time.Millisecond) // until the listing is in flight
			}
			p.Signal(sig)
			r, hung := p.Wait()
			if hung || r.Code != 2 {
				t.Fatalf("%s: exit %d hung %t\nstdout %q\nstderr %q", sig, r.Code, hung, r.Stdout, r.Stderr)
			}
			rep := parseJSON(t, r)
			if len(rep.Controls) != 1 || rep.Controls[0].Status != "error" || rep.Controls[0].Error == nil || !strings.Contains(rep.Controls[0].Error.Message, "cancel") {
				t.Fatalf("%s: the stopped control must be an error that says it was cancelled: %+v\nstderr %s", sig, rep.Controls, r.Stderr)
			}
		})
	}
}
