package check

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// twoFanOuts are two controls that each read one answer per repository of
// org big: n repositories make 2n distinct URLs, and the pages of the
// list, which the controls share.
var twoFanOuts = "controls:\n" + branchProtectedControl("protected", "big") + `  - id: collaborators
    title: no repository has a collaborator named mallory
    sql: |
      SELECT r.name FROM github.repos.repos r
      JOIN github.collaborators.collaborators c ON c.owner = 'big' AND c.repo = r.name
      WHERE r.org = 'big' AND c.login = 'mallory'
`

// TestCheckQueueTimeNotCounted: two fan-out controls over an org's
// repositories share one credential's window, which makes them wait far
// longer than their --query-timeout: over 900 repositories at GitHub's
// 900/min, 1,809 requests wait two minutes against the default 120 s
// (measured in docs/check.md, "Time limits"); here, scaled so that the
// test takes seconds and its own work stays small on a busy machine, 300
// repositories (609 requests) at 100 per 2 s on both sides wait 12 s
// against a --query-timeout of 5 s. Each control's time limit counts its
// own work, not the time its requests wait for the window or for the
// other control's fetch of a shared page: both controls are evaluated
// (pass or fail, never error), with default settings otherwise (the
// run's time limit derived from the estimate). Before, both ran out of
// their time waiting for the window and ended in error (timeout).
func TestCheckQueueTimeNotCounted(t *testing.T) {
	gh := fakegithub.ForTest(t, fakegithub.WithRepos("big", 300),
		fakegithub.WithLimits(fakegithub.Limits{Points: 100, Window: 2 * time.Second, RetryAfter: 2}))
	env := append(testutil.FakeEnv(t, gh.URL()), "ENGINE_GOVERNOR=on", "ENGINE_RATE=100/2s", "ENGINE_QUERY_TIMEOUT=5s")
	controls := testutil.TempFile(t, "controls.yaml", twoFanOuts)
	r := runCheck(t, env, "-o", "json", controls)
	rep := parseJSON(t, r)
	for _, c := range rep.Controls {
		if c.Status == "error" {
			msg := ""
			if c.Error != nil {
				msg = c.Error.Kind + ": " + c.Error.Message
			}
			t.Errorf("%s: %s %s", c.ID, c.Status, msg)
		}
	}
	st := gh.LimiterStats()
	if st.SecondaryResponses != 0 {
		t.Errorf("the fake's window answered %d secondary limits: the governor did not pace", st.SecondaryResponses)
	}
	// The fan-outs' 600 requests are known once the repositories are
	// listed: the run says then how long its first pages take (the list's
	// first and 600: 12 s at 100 per 2 s), and its default time limit
	// grew with them (5 min + twice 12 s).
	want := "notice: ~601 requests, the fan-outs' keys now known: about 12 s at 100/2s (the run's time limit is 5 min 24 s)"
	if !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr lacks %q", want)
	}
	if n := len(gh.Requests()); n < 603 {
		t.Errorf("%d requests, want the 603 of two fan-outs over 300 repositories", n)
	}
	if t.Failed() {
		t.Logf("exit %d\n%s", r.Code, strings.TrimSpace(r.Stderr))
	}
}

// inList is n repository names of org big, quoted for an IN list: the
// fake's repositories that have a main branch (not repo-000, repo-025, ...).
func inList(n int) string {
	var names []string
	for i := 1; len(names) < n; i++ {
		if i%25 != 0 {
			names = append(names, fmt.Sprintf("'repo-%03d'", i))
		}
	}
	return strings.Join(names, ", ")
}

// literalControls are two controls over the same n repositories' branch
// protections (the same URLs: n requests for the run, not 2n) and one
// over their collaborators (n more).
func literalControls(n int) string {
	in := inList(n)
	return `controls:
  - id: protected
    title: main is protected
    sql: SELECT repo FROM github.branches.branch_protection WHERE owner = 'big' AND branch = 'main' AND repo IN (` + in + `) AND url IS NULL
  - id: admins
    title: admins are held to it
    sql: SELECT repo FROM github.branches.branch_protection WHERE owner = 'big' AND branch = 'main' AND repo IN (` + in + `) AND coalesce(json_extract(enforce_admins, '$.enabled'), 0) = 0
  - id: collaborators
    title: no collaborator named mallory
    sql: SELECT repo FROM github.collaborators.collaborators WHERE owner = 'big' AND repo IN (` + in + `) AND login = 'mallory'
`
}

// TestCheckBudgetRefusedUpFront: the controls need 60 distinct requests
// of the core bucket (90 as written: two read the same 30 URLs), the
// credential has 25 left (the fake's /rate_limit, free) and the reset is
// an hour away, past the run's time limit: nothing but /rate_limit is
// sent, the run is refused (exit 2) with the figures and the ways out.
func TestCheckBudgetRefusedUpFront(t *testing.T) {
	left := 25
	gh := fakegithub.ForTest(t, fakegithub.WithRepos("big", 40),
		fakegithub.WithLimits(fakegithub.Limits{Buckets: map[string]fakegithub.BucketLimit{"core": {Limit: 5000, Remaining: &left, Window: time.Hour}}}))
	env := append(testutil.FakeEnv(t, gh.URL()), "ENGINE_GOVERNOR=on")
	controls := testutil.TempFile(t, "controls.yaml", literalControls(30))
	r := runCheck(t, env, "-o", "json", controls)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{"about 60 requests", `"core" rate-limit bucket`, "only 25 of 5,000 remain", "until the reset at ", "nothing was sent", "--run-timeout", "--only"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	rep := parseJSON(t, r)
	if len(rep.Problems) != 1 || len(rep.Controls) != 0 {
		t.Errorf("report: %d problems, %d controls; want the refusal alone\n%s", len(rep.Problems), len(rep.Controls), r.Stdout)
	}
	for _, q := range gh.Requests() {
		if q.Path != "/rate_limit" {
			t.Errorf("sent %s before refusing", q.Path)
		}
	}
	// With the budget, the same file runs.
	gh2, env2 := serverEnv(t, fakegithub.WithRepos("big", 40))
	r = runCheck(t, append(env2, "ENGINE_GOVERNOR=on"), "-o", "json", controls)
	if rep := parseJSON(t, r); rep.Totals.Controls != 3 || rep.Totals.Error != 0 {
		t.Fatalf("with 5,000 left: exit %d, totals %+v\n%s\n%s", r.Code, rep.Totals, r.Stdout, r.Stderr)
	}
	if n := len(gh2.Requests()); n > 61 {
		t.Errorf("%d requests for 60 distinct URLs (and /rate_limit)", n)
	}
}

// TestCheckBudgetNotice: a run the window makes long says how long before
// it starts, counting the URLs two controls share once: 36 requests at 10
// per 2 s (scaled from 900/min) are about 6 s.
func TestCheckBudgetNotice(t *testing.T) {
	gh := fakegithub.ForTest(t, fakegithub.WithRepos("big", 20))
	env := append(testutil.FakeEnv(t, gh.URL()), "ENGINE_GOVERNOR=on", "ENGINE_RATE=10/2s")
	controls := testutil.TempFile(t, "controls.yaml", literalControls(18))
	r := runCheck(t, env, "-o", "json", controls)
	if rep := parseJSON(t, r); rep.Totals.Controls != 3 || rep.Totals.Error != 0 {
		t.Fatalf("exit %d, totals %+v\n%s", r.Code, rep.Totals, r.Stderr)
	}
	want := "notice: ~36 requests: about 6 s at 10/2s"
	if !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
	}
	// A short run says nothing.
	r = runCheck(t, append(env, "ENGINE_RATE=900"), "-o", "json", controls)
	if strings.Contains(r.Stderr, "notice: ~") {
		t.Errorf("a run of 36 requests at 900/min announced its length:\n%s", r.Stderr)
	}
}

// TestCheckRunTimeout: the run's time limit (--run-timeout) ends the
// controls still running and those not started in error of kind timeout,
// naming the limit; never a pass, exit 2. The fan-out's 60 requests at
// 10 per 2 s need 10 s, far past the limit of 2 s; the estimate cannot
// know it before the repositories are listed, so the run starts.
func TestCheckRunTimeout(t *testing.T) {
	gh := fakegithub.ForTest(t, fakegithub.WithRepos("big", 60))
	env := append(testutil.FakeEnv(t, gh.URL()), "ENGINE_GOVERNOR=on", "ENGINE_RATE=10/2s")
	controls := testutil.TempFile(t, "controls.yaml", twoFanOuts)
	r := runCheck(t, env, "-o", "json", "--parallel", "1", "--run-timeout", "2s", controls)
	rep := parseJSON(t, r)
	if r.Code != 2 || rep.Totals.Error != 2 {
		t.Fatalf("exit %d, totals %+v; want both controls in error, exit 2\n%s", r.Code, rep.Totals, r.Stderr)
	}
	// One at a time (--parallel 1): one control was cut short, the other
	// never started.
	seen := map[string]bool{}
	for _, c := range rep.Controls {
		if c.Error == nil || c.Error.Kind != "timeout" || !strings.Contains(c.Error.Message, "--run-timeout 2 s") {
			t.Errorf("%s: %s %+v, want a timeout naming --run-timeout", c.ID, c.Status, c.Error)
			continue
		}
		for _, w := range []string{"before this control finished", "before this control was started"} {
			if strings.Contains(c.Error.Message, w) {
				seen[w] = true
			}
		}
	}
	if len(seen) != 2 {
		t.Errorf("want one control cut short and one never started: %+v", rep.Controls)
	}
	if n := len(gh.Requests()); n >= 60 {
		t.Errorf("%d requests: the run went on past its limit", n)
	}
	// Given in the environment too.
	r = runCheck(t, append(env, "ENGINE_RUN_TIMEOUT=2s"), "-o", "json", "--parallel", "1", controls)
	if rep := parseJSON(t, r); rep.Totals.Error != 2 {
		t.Errorf("ENGINE_RUN_TIMEOUT=2s: totals %+v", rep.Totals)
	}
	// A run the estimate knows cannot fit is refused before it starts.
	r = runCheck(t, env, "-o", "json", "--run-timeout", "2s", testutil.TempFile(t, "literal.yaml", literalControls(30)))
	if r.Code != 2 || !strings.Contains(r.Stderr, "more than the run's time limit (--run-timeout 2 s)") {
		t.Errorf("exit %d, want a refusal naming the limit:\n%s", r.Code, r.Stderr)
	}
}

// The run's time limit counts from the command's start: a rate-limit
// probe that hangs is cut by it, and the control is an error of kind
// timeout (before: the probe waited out its own request timeout, then
// the controls ran in full, and the report said they took milliseconds).
func TestCheckRunTimeoutBoundsTheProbe(t *testing.T) {
	gh := fakegithub.ForTest(t)
	gh.Inject(fakegithub.Fault{Path: "^/rate_limit$", Kind: fakegithub.KindSlow, Delay: time.Minute})
	env := append(testutil.FakeEnv(t, gh.URL()), "ENGINE_GOVERNOR=on")
	r := runCheck(t, env, "-o", "json", "--run-timeout", "2s", testutil.TempFile(t, "c.yaml", testutil.GhostControl))
	rep := parseJSON(t, r)
	if r.Code != 2 || len(rep.Controls) != 1 || rep.Controls[0].Error == nil || rep.Controls[0].Error.Kind != "timeout" ||
		!strings.Contains(rep.Controls[0].Error.Message, "--run-timeout 2 s") {
		t.Fatalf("exit %d, controls %+v; want the control in error (timeout, naming --run-timeout)\n%s", r.Code, rep.Controls, r.Stderr)
	}
	for _, q := range gh.Requests() {
		if q.Path == "/orgs/acme/repos" {
			t.Errorf("the control ran after its run's time limit: %s", q.Path)
		}
	}
}
