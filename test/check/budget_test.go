package check

import (
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// twoFanOuts are two controls that each read one answer per repository of
// the org: 900 repositories make 1,800 distinct URLs (and 9 shared pages of
// the list), twice a 900-request window.
const twoFanOuts = `controls:
  - id: protected
    title: every default branch is protected
    sql: |
      SELECT r.name FROM github.repos.repos r
      LEFT JOIN github.branches.branch_protection bp
        ON bp.owner = 'big' AND bp.repo = r.name AND bp.branch = r.default_branch
      WHERE r.org = 'big' AND bp.url IS NULL
  - id: collaborators
    title: no repository has a collaborator named mallory
    sql: |
      SELECT r.name FROM github.repos.repos r
      JOIN github.collaborators.collaborators c ON c.owner = 'big' AND c.repo = r.name
      WHERE r.org = 'big' AND c.login = 'mallory'
`

// TestCheckQueueTimeNotCounted: two fan-out controls over 900
// repositories share one credential's window (scaled: 900 requests per
// 6 s on both sides, so 1,809 requests need more than 6 s of window
// whatever the machine). Each control's --query-timeout (5 s here, 120 s
// by default against GitHub's 900/min) counts its own work, not the time
// its requests wait for the window or for the other control's fetch of a
// shared page: both controls are evaluated (pass or fail, never error).
// Before, both ran out of their time waiting for the window and ended in
// error (timeout).
func TestCheckQueueTimeNotCounted(t *testing.T) {
	gh := fakegithub.ForTest(t, fakegithub.WithRepos("big", 900),
		fakegithub.WithLimits(fakegithub.Limits{Points: 900, Window: 6 * time.Second, RetryAfter: 6}))
	env := append(testutil.FakeEnv(t, gh.URL()), "ENGINE_GOVERNOR=on", "ENGINE_RATE=900/6s", "ENGINE_QUERY_TIMEOUT=5s")
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
	if n := len(gh.Requests()); n < 1800 {
		t.Errorf("%d requests, want the 1,809 of two fan-outs over 900 repositories", n)
	}
	if t.Failed() {
		t.Logf("exit %d\n%s", r.Code, strings.TrimSpace(r.Stderr))
	}
}
