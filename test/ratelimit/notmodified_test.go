package ratelimit

import (
	"encoding/json"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
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
