package check

import (
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// threeBranchControls read the same branch data (the org's repositories,
// then each default branch's protection) three ways, as the CIS branch
// controls do.
var threeBranchControls = "controls:\n" + branchProtectedControl("default-branch-protected", "scale") + `  - id: admins-enforced
    title: protection applies to admins
    sql: |
      SELECT r.name FROM github.repos.repos r
      JOIN github.branches.branch_protection bp
        ON bp.owner = 'scale' AND bp.repo = r.name AND bp.branch = r.default_branch
      WHERE r.org = 'scale' AND coalesce(json_extract(bp.enforce_admins, '$.enabled'), 0) = 0
  - id: reviews-required
    title: pull requests need two approvals
    sql: |
      SELECT r.name FROM github.repos.repos r
      JOIN github.branches.branch_protection bp
        ON bp.owner = 'scale' AND bp.repo = r.name AND bp.branch = r.default_branch
      WHERE r.org = 'scale'
        AND coalesce(json_extract(bp.required_pull_request_reviews, '$.required_approving_review_count'), 0) < 2
`

// TestCheckSendsEachURLOncePerRun: three controls reading the same branch
// data over 213 repositories, against a fake with 20 ms of latency, send
// each URL once in the run (issue 33 item 1: requests <= 1.2x the distinct
// URLs; before, each control sent its own, 3x), and the report counts the
// pages read from another control's request as shared.
func TestCheckSendsEachURLOncePerRun(t *testing.T) {
	gh := fakegithub.ForTest(t, fakegithub.WithRepos("scale", 213), fakegithub.WithLatency(20*time.Millisecond))
	env := testutil.FakeEnv(t, gh.URL())
	controls := testutil.TempFile(t, "controls.yaml", threeBranchControls)
	r := runCheck(t, env, "-o", "json", controls)
	rep := parseJSON(t, r)
	if rep.Totals.Error != 0 || rep.Totals.Controls != 3 {
		t.Fatalf("exit %d, totals %+v\n%s\n%s", r.Code, rep.Totals, r.Stdout, r.Stderr)
	}
	var stats struct {
		Stats struct {
			HTTPRequests int `json:"http_requests"`
			Pages        int `json:"pages"`
			Fetched      int `json:"fetched"`
			Shared       int `json:"shared"`
		} `json:"stats"`
	}
	testutil.StdoutJSON(t, r, &stats)
	distinct := map[string]bool{}
	reqs := gh.Requests()
	for _, q := range reqs {
		distinct[q.Path+"?"+q.RawQuery] = true
	}
	// 3 pages of repositories and 213 protections.
	if len(distinct) != 216 {
		t.Fatalf("%d distinct URLs, want 216", len(distinct))
	}
	t.Logf("%d requests for %d distinct URLs; stats %+v", len(reqs), len(distinct), stats.Stats)
	if float64(len(reqs)) > 1.2*float64(len(distinct)) {
		t.Fatalf("%d requests for %d distinct URLs: want at most 1.2x", len(reqs), len(distinct))
	}
	st := stats.Stats
	if st.HTTPRequests != len(reqs) || st.Shared == 0 || st.Fetched+st.Shared != st.Pages {
		t.Fatalf("stats %+v for %d requests received", st, len(reqs))
	}
	// The same answers read once or three times: the same verdicts as
	// each control run on its own.
	for _, id := range []string{"default-branch-protected", "admins-enforced", "reviews-required"} {
		alone := parseJSON(t, runCheck(t, env, "-o", "json", "--only", id, controls))
		if alone.Controls[0].RowCount == nil || *alone.Controls[0].RowCount != *rowCountOf(t, rep, id) {
			t.Fatalf("%s: alone %v rows, in the run %v", id, alone.Controls[0].RowCount, *rowCountOf(t, rep, id))
		}
	}
}

func rowCountOf(t *testing.T, rep jsonReport, id string) *int {
	t.Helper()
	for _, c := range rep.Controls {
		if c.ID == id && c.RowCount != nil {
			return c.RowCount
		}
	}
	t.Fatalf("control %s has no row count", id)
	return nil
}
