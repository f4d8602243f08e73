package ratelimit

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// A 2,000-request dependent fan-out against a fake that allows 300 points
// per second (GitHub's 900 per minute, scaled) finishes with exactly 2,000
// successful requests and not one secondary-limit response: the governor
// paces under the limit instead of discovering it. (Before the governor,
// the fan-out fired at full speed and tripped the limit within the first
// second.)
func TestFanOutPacedUnderPointLimit(t *testing.T) {
	fake := fakegithub.ForTest(t, fakegithub.WithRepos("big", 1980), fakegithub.WithLimits(fakegithub.Limits{Points: 300, Window: time.Second}))
	r := run(t, noRetryEnv(t, fake, "ENGINE_RATE=285/1s", "ENGINE_MAX_REQUESTS=5000"), "exec", "-o", "csv", joinPulls("big"))
	if r.Code != 0 || r.Stdout != "repos\n1980\n" {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	got := statuses(fake.Requests())
	if got[200] != 2000 || len(got) != 1 {
		t.Fatalf("requests by status %v, want exactly 2000 answered 200", got)
	}
	if st := fake.LimiterStats(); st.SecondaryResponses != 0 || st.Trips != 0 {
		t.Fatalf("limiter: %+v, want no secondary limit", st)
	}
}

// With a fake that trips a secondary limit on the 50th concurrent request
// (403 "You have exceeded a secondary rate limit" with Retry-After: 1, and
// the same answer to every request during that second), a fan-out run at
// 64 concurrent requests degrades and completes: the first limit pauses
// every worker and halves the concurrency, so the limit trips once, and
// the only secondary-limit answers go to requests that were already in
// flight when it tripped (at most the concurrency cap, 64). Before the
// governor every worker discovered the limit on its own, retried at full
// concurrency and tripped it again until its retries ran out.
func TestSecondaryLimitPausesAndDegrades(t *testing.T) {
	fake := fakegithub.ForTest(t, fakegithub.WithRepos("big", 600), fakegithub.WithLatency(25*time.Millisecond),
		fakegithub.WithLimits(fakegithub.Limits{TripConcurrent: 50, RetryAfter: 1}))
	e := env(t, fake, "ENGINE_RATE=0", "ENGINE_MAX_CONCURRENCY=64", "ENGINE_CONCURRENCY=64", "ENGINE_RETRY_MAX=3", "ENGINE_MAX_RETRY_WAIT=20s", "ENGINE_MAX_REQUESTS=5000")
	r := run(t, e, "exec", "--debug", "-o", "csv", joinPulls("big"))
	if r.Code != 0 || r.Stdout != "repos\n600\n" {
		t.Fatalf("exit %d\n%s%.2000s", r.Code, r.Stdout, r.Stderr)
	}
	st := fake.LimiterStats()
	if st.Trips != 1 {
		t.Errorf("secondary limit tripped %d times, want once (the governor halves the concurrency after the first)", st.Trips)
	}
	if st.SecondaryResponses < 1 || st.SecondaryResponses > 64 {
		t.Errorf("%d secondary-limit responses, want between 1 and 64 (requests in flight when it tripped)", st.SecondaryResponses)
	}
	if n := strings.Count(r.Stderr, "governor: secondary rate limit: pausing"); n != 1 {
		t.Errorf("governor paused %d times, want once:\n%.3000s", n, r.Stderr)
	}
	reqs := fake.Requests()
	got := statuses(reqs)
	if got[200] != 606 {
		t.Errorf("requests by status %v, want 606 answered 200 (6 pages of repos, 600 pulls)", got)
	}
}

// The pause outlives the statement that met the limit: in one MCP server,
// a statement answered with a secondary limit (Retry-After 30 s, more than
// the 2 s retry budget) fails retryable, and the next statement, of
// another session, fails at once, retryable after the pause, without a
// request: GitHub bans clients that keep requesting while limited. Before
// the governor the second statement was sent (and answered 403 again).
func TestPauseHoldsLaterStatementsUnsent(t *testing.T) {
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindSecondaryRateLimit, RetryAfter: 30})
	endpoint, _ := mcpHTTPEnv(t, env(t, fake, "ENGINE_MAX_RETRY_WAIT=2s"))
	ctx := context.Background()
	first := mcptest.ConnectHTTP(t, endpoint).Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT name FROM github.repos.repos WHERE org = 'acme'"})
	if !first.IsError || !first.Error.Retryable || first.Error.HTTPStatus != 403 {
		t.Fatalf("first: %+v", first.Error)
	}
	sent := len(fake.Requests())
	second := mcptest.ConnectHTTP(t, endpoint).Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT login FROM github.users.users WHERE username = 'octocat'"})
	if !second.IsError || !second.Error.Retryable || second.Error.RetryAfterSeconds < 20 || !strings.Contains(second.Error.Message, "paused") {
		t.Fatalf("second: %+v", second.Error)
	}
	if n := len(fake.Requests()); n != sent {
		t.Fatalf("%d requests sent during the pause", n-sent)
	}
	// /rate_limit is free of every limit: the github.rate_limit table still
	// answers during the pause.
	rl := mcptest.ConnectHTTP(t, endpoint).Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT json_extract(resources, '$.core.limit') AS core FROM github.rate_limit.rate_limit"})
	if rl.IsError || len(rl.Rows) != 1 || fmt.Sprint(rl.Rows[0][0]) != "5000" {
		t.Fatalf("rate_limit during the pause: %+v %+v", rl.Rows, rl.Error)
	}
}
