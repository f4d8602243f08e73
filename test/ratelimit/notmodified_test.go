package ratelimit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// A repeat served by revalidation costs no rate limit: GitHub does not
// count a 304 to a conditional request with credentials, the fake models
// it, and the engine's statistics count none of those requests against
// the bucket (used 0) and report the bucket as the first run left it.
func TestRevalidatedRepeatIsFree(t *testing.T) {
	fake := fakegithub.ForTest(t)
	e := env(t, fake, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+t.TempDir())
	q := repoInAcme(5)
	type stats struct {
		Stats struct {
			HTTPRequests int `json:"http_requests"`
			Revalidated  int `json:"revalidated"`
			RateLimit    []struct {
				Bucket    string `json:"bucket"`
				Used      int    `json:"used"`
				Remaining *int   `json:"remaining"`
			} `json:"rate_limit"`
		} `json:"stats"`
	}
	exec := func() stats {
		t.Helper()
		r := run(t, e, "exec", "-o", "json", "--stats", q)
		var st stats
		if r.Code != 0 || json.Unmarshal([]byte(r.Stderr), &st) != nil || len(st.Stats.RateLimit) != 1 || st.Stats.RateLimit[0].Remaining == nil {
			t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
		}
		return st
	}
	first := exec()
	if first.Stats.Revalidated != 0 || first.Stats.RateLimit[0].Used != first.Stats.HTTPRequests {
		t.Fatalf("first run %+v", first.Stats)
	}
	left := *first.Stats.RateLimit[0].Remaining
	for i := 0; i < 2; i++ {
		again := exec()
		rl := again.Stats.RateLimit[0]
		if again.Stats.Revalidated != again.Stats.HTTPRequests || again.Stats.HTTPRequests == 0 || rl.Used != 0 || *rl.Remaining != left {
			t.Fatalf("repeat %d: %+v, remaining %d; want every request revalidated, none used, %d remaining", i+1, again.Stats, *rl.Remaining, left)
		}
	}
}

// The budget check before a statement leaves out the requests the
// response cache can revalidate: in one process (the shell) whose core
// bucket has 2 requests left until a reset an hour away, a repeat of a
// 5-request statement runs, every page answered 304 and free, where
// counting them would refuse it ("needs about 5 ... only 2 remain").
// Without the cache the same repeat is refused.
func TestBudgetLeavesOutRevalidations(t *testing.T) {
	q := repoInAcme(5) + ";\n"
	fake := coreFake(t, 7)
	r := testutil.Run(t, env(t, fake, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+t.TempDir()), q+q, "shell")
	if r.Code != 0 || strings.Contains(r.Stderr, "remain") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if st := statuses(fake.Requests()); st[200] != 5 || st[304] != 5 || len(st) != 2 {
		t.Fatalf("statuses %v; want 5 answered 200, then 5 answered 304", st)
	}
	if st := fake.LimiterStats(); st.Used["core"] != 5000-7+5 {
		t.Fatalf("core used %d, want 4998: 4993 before, 5 by the first run, none by the 304s", st.Used["core"])
	}
	// Without the cache nothing is free: the repeat is refused.
	fake = coreFake(t, 7)
	r = testutil.Run(t, env(t, fake), q+q, "shell")
	if r.Code == 0 || !strings.Contains(r.Stderr, "only 2 of 5000 remain") {
		t.Fatalf("without the cache: exit %d\n%s", r.Code, r.Stderr)
	}
}
