package ratelimit

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
)

// The search buckets are paced on their own. github.search.code is code
// search (GET /search/code), GitHub's code_search bucket (10
// per minute; here 5 per second): ten searches in one statement, fanned
// out eight at a time,
// never hit the search limit, while the core requests of the same
// statement are not held to the search pace. Before the governor the
// searches were sent at once and all but five were answered 403.
func TestSearchBucketPacedSeparately(t *testing.T) {
	fake := fakegithub.ForTest(t, fakegithub.WithLimits(fakegithub.Limits{Buckets: map[string]fakegithub.BucketLimit{
		"code_search": {Limit: 5, Window: time.Second},
		"core":        {Limit: 5000, Window: time.Hour},
	}}))
	qs := make([]string, 10)
	for i := range qs {
		qs[i] = fmt.Sprintf("'org:acme repo-00%d'", i) // one match each
	}
	sql := `SELECT s.name FROM github.search.code s WHERE s.q IN (` + strings.Join(qs, ",") + `)
UNION ALL SELECT r.name FROM github.repos.repos r WHERE r.owner = 'acme' AND r.repo IN ('repo-001','repo-002','repo-003','repo-004','repo-005','repo-006','repo-007','repo-008','repo-009','repo-010','repo-011','repo-012')`
	r := run(t, noRetryEnv(t, fake, "ENGINE_CODE_SEARCH_RATE=4/1s"), "exec", "-o", "csv", sql)
	if r.Code != 0 || strings.Count(r.Stdout, "\n") != 1+10+12 {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	st := fake.LimiterStats()
	if st.PrimaryResponses != 0 || st.SecondaryResponses != 0 {
		t.Fatalf("limiter %+v, want no limited response", st)
	}
	var search, core []time.Time
	for _, q := range fake.Requests() {
		switch {
		case strings.HasPrefix(q.Path, "/search/"):
			search = append(search, q.Time)
		case strings.HasPrefix(q.Path, "/repos/"):
			core = append(core, q.Time)
		}
	}
	if len(search) != 10 || len(core) != 12 {
		t.Fatalf("%d searches, %d core requests", len(search), len(core))
	}
	// Paced: ten searches at 4 a second (burst 1) span at least 2 s.
	if span := search[len(search)-1].Sub(search[0]); span < 2*time.Second {
		t.Errorf("searches spanned %s, want paced over >= 2s", span)
	}
	// Not held to the search pace: the twelve core requests take far less
	// time than twelve searches would.
	if span := core[len(core)-1].Sub(core[0]); span > 2*time.Second {
		t.Errorf("core requests spanned %s, paced like searches", span)
	}
}
