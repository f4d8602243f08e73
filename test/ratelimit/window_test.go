package ratelimit

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
)

// joinContributors is the fan-out of the bench's latency rows: the org's
// repository pages, then one contributors request per repository.
func joinContributors(org string) string {
	return fmt.Sprintf(`SELECT count(DISTINCT r.name) AS repos
FROM github.repos.repos r
LEFT JOIN github.repos.contributors c ON c.owner = '%s' AND c.repo = r.name
WHERE r.org = '%s'`, org, org)
}

// arrivals returns the fake's request times (the free /rate_limit left
// out), ascending.
func arrivals(reqs []fakegithub.Request) []time.Time {
	var ts []time.Time
	for _, r := range reqs {
		if r.Path != "/rate_limit" {
			ts = append(ts, r.Time)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	return ts
}

// A window's budget is spent at once and never exceeded: with a budget of
// 40 requests in any 3 s (the fake enforces exactly that, GitHub's "900
// points per minute" scaled), a 100-request fan-out sends its first 40
// requests in a burst, then the next ones as the oldest answers leave the
// window, and meets no limit. (Before, a token bucket of burst 2% paced
// every request past the first at 13 per second: the first 40 took 3 s.)
func TestWindowBudgetSpentAtOnce(t *testing.T) {
	const budget, window = 40, 3 * time.Second
	fake := fakegithub.ForTest(t, fakegithub.WithRepos("win", 99), fakegithub.WithLimits(fakegithub.Limits{Points: budget, Window: window}))
	r := run(t, noRetryEnv(t, fake, fmt.Sprintf("ENGINE_RATE=%d/3s", budget)), "exec", "-o", "csv", joinContributors("win"))
	if r.Code != 0 || r.Stdout != "repos\n99\n" {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if got := statuses(fake.Requests()); got[200] != 100 || len(got) != 1 {
		t.Fatalf("requests by status %v, want exactly 100 answered 200", got)
	}
	if st := fake.LimiterStats(); st.SecondaryResponses != 0 {
		t.Fatalf("limiter: %+v, want no secondary limit", st)
	}
	ts := arrivals(fake.Requests())
	if d := ts[budget-1].Sub(ts[0]); d > window/3 {
		t.Errorf("the first %d requests (the window's budget) arrived over %s, want at once, not paced", budget, d)
	}
	for i := budget; i < len(ts); i++ {
		if d := ts[i].Sub(ts[i-budget]); d < window {
			t.Fatalf("requests %d and %d arrived %s apart: %d requests within %s, more than the budget", i-budget+1, i+1, d, budget+1, window)
		}
	}
}

// A server that serves 3 requests at once and answers any further one with
// a secondary-limit 403 (Retry-After 1) is found by the concurrency, not
// by the rate: with default settings, the 240-request fan-out meets the
// limit once, cuts the requests in flight and stays under it; the rate
// stays 900 a minute. (Before, every answer halved the rate with the
// concurrency: 11 secondary-limit answers and 94 s at 100 ms latency.)
func TestConcurrencyLimitFoundNotRate(t *testing.T) {
	fake := fakegithub.ForTest(t, fakegithub.WithRepos("fan", 237), fakegithub.WithLatency(20*time.Millisecond),
		fakegithub.WithLimits(fakegithub.Limits{MaxConcurrent: 3, RetryAfter: 1}))
	r := run(t, env(t, fake), "exec", "--debug", "-o", "csv", joinContributors("fan"))
	if r.Code != 0 || r.Stdout != "repos\n237\n" {
		t.Fatalf("exit %d\n%s%.3000s", r.Code, r.Stdout, r.Stderr)
	}
	st := fake.LimiterStats()
	t.Logf("limiter: %+v", st)
	if st.SecondaryResponses > 3 {
		t.Errorf("%d secondary-limit answers, want at most 3 (the concurrency is cut once per event and grows back only below the level that met the limit)", st.SecondaryResponses)
	}
	for _, line := range strings.Split(r.Stderr, "\n") {
		if strings.Contains(line, "governor: secondary rate limit") && !strings.Contains(line, "rate 15/s") {
			t.Errorf("a concurrency limit lowered the rate: %s", line)
		}
	}
	if got := statuses(fake.Requests()); got[200] != 240 {
		t.Errorf("requests by status %v, want 240 answered 200", got)
	}
}

// Once the last page is known, the remaining pages are fetched with the
// credential's concurrency (--max-concurrency, 16 by default, reached by
// growing from 4 while the requests succeed), not a fixed 4.
func TestPagesUseCredentialConcurrency(t *testing.T) {
	fake := fakegithub.ForTest(t, fakegithub.WithLatency(30*time.Millisecond), fakegithub.WithLimits(fakegithub.Limits{}))
	r := run(t, env(t, fake), "exec", "-o", "csv", "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'scale-4000'")
	if r.Code != 0 || r.Stdout != "n\n4000\n" {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if st := fake.LimiterStats(); st.MaxInFlight <= 4 || st.MaxInFlight > 16 {
		t.Fatalf("at most %d page requests in flight, want more than 4 and at most 16 (--max-concurrency)", st.MaxInFlight)
	}
}
