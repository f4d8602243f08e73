package ratelimit

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
)

const sprawlCount = "SELECT count(DISTINCT id) AS n FROM github.search.repos WHERE q = 'org:sprawl'"

// searchFake is a fake whose search bucket allows limit requests per
// window, left of them remaining at start.
func searchFake(t *testing.T, limit, left int, window time.Duration) *fakegithub.Server {
	return fakegithub.ForTest(t, fakegithub.WithLimits(fakegithub.Limits{Buckets: map[string]fakegithub.BucketLimit{
		"search": {Limit: limit, Remaining: &left, Window: window},
		"core":   {Limit: 5000, Window: time.Hour},
	}}))
}

func searchRequests(fake *fakegithub.Server) int {
	n := 0
	for _, q := range fake.Requests() {
		if strings.HasPrefix(q.Path, "/search/") {
			n++
		}
	}
	return n
}

// A search matching 2,500 (GitHub serves 1,000) needs at least 25 more
// search requests once its first page counts them. With 20 of GitHub's
// 30 a minute left and a statement time limit shorter than the minute to
// the reset, the split is refused right after the first page: one search
// request sent, a rate-limit error naming the bucket and the counts.
func TestSplitOverSearchBudgetRefused(t *testing.T) {
	fake := searchFake(t, 30, 20, time.Minute)
	// The default retry budget (60s) could wait for the reset: only the
	// statement's time limit (20s) makes the split impossible.
	r := run(t, env(t, fake, "ENGINE_QUERY_TIMEOUT=20s"), "exec", "-o", "json", sprawlCount)
	e := providerRefusal(t, r)
	for _, want := range []string{"2500", "1000", `"search" rate-limit bucket`, "19 of 30 left", "time limit", "nothing more was sent", "LIMIT"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message lacks %q: %s", want, e.Message)
		}
	}
	if e.Kind != engine.KindProvider {
		t.Errorf("error %+v", e)
	}
	if n := searchRequests(fake); n != 1 {
		t.Errorf("%d search requests, want only the first page", n)
	}
	// With a retry budget shorter than the minute to the reset, the
	// bucket's own check refuses it, saying why the split was needed.
	fake = searchFake(t, 30, 20, time.Minute)
	r = run(t, noRetryEnv(t, fake), "exec", "-o", "json", sprawlCount)
	if r.Code != 2 || !strings.Contains(r.Stderr, "must split it") || !strings.Contains(r.Stderr, "only 19 of 30 remain") || searchRequests(fake) != 1 {
		t.Fatalf("exit %d, %d search requests\n%s", r.Code, searchRequests(fake), r.Stderr)
	}
}

// With the governor on and a search budget that covers it, the split
// runs and its requests are counted against the search bucket.
func TestSplitWithinSearchBudget(t *testing.T) {
	fake := searchFake(t, 1000, 1000, time.Minute)
	r := run(t, noRetryEnv(t, fake, "ENGINE_SEARCH_RATE=600/1s"), "exec", "-o", "json", "--stats", sprawlCount)
	if r.Code != 0 || strings.Join(strings.Fields(r.Stdout), "") != `[{"n":2500}]` {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	var st struct {
		Stats struct {
			Parts     int `json:"parts"`
			RateLimit []struct {
				Bucket string `json:"bucket"`
				Used   int    `json:"used"`
			} `json:"rate_limit"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(r.Stderr), &st); err != nil {
		t.Fatalf("stats: %v\n%s", err, r.Stderr)
	}
	n := searchRequests(fake)
	if st.Stats.Parts < 2 || len(st.Stats.RateLimit) != 1 || st.Stats.RateLimit[0].Bucket != "search" || st.Stats.RateLimit[0].Used != n {
		t.Fatalf("stats %+v, %d search requests", st.Stats, n)
	}
}
