package check

import (
	"strings"
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
	for _, sig := range testutil.StopSignals {
		t.Run(sig.String(), func(t *testing.T) {
			s := fakegithub.ForTest(t)
			s.Inject(fakegithub.Fault{Path: "/orgs/acme/repos", Kind: fakegithub.KindSlow, Delay: time.Minute})
			file := testutil.TempFile(t, "c.yaml", testutil.GhostControl)
			// Stopped while the listing is in flight.
			r := testutil.SignalInFlight(t, sig, testutil.FakeEnv(t, s.URL()), func() bool { return s.Arrived() > 0 }, "check", file, "-o", "json")
			if r.Code != 2 {
				t.Fatalf("%s: exit %d\nstdout %q\nstderr %q", sig, r.Code, r.Stdout, r.Stderr)
			}
			rep := parseJSON(t, r)
			if len(rep.Controls) != 1 || rep.Controls[0].Status != "error" || rep.Controls[0].Error == nil || !strings.Contains(rep.Controls[0].Error.Message, "cancel") {
				t.Fatalf("%s: the stopped control must be an error that says it was cancelled: %+v\nstderr %s", sig, rep.Controls, r.Stderr)
			}
		})
	}
}
