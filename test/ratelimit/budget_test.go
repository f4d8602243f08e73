package ratelimit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// repoIn is a statement estimated at n requests: one per repository of an
// IN list.
func repoIn(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("'repo-%03d'", i)
	}
	return "SELECT name FROM github.repos.repos WHERE owner = 'big' AND repo IN (" + strings.Join(names, ",") + ")"
}

// A statement estimated at 600 requests while core has 100 left before
// its reset (in an hour) is refused before its first request: exit 2, a
// retryable provider error whose retry_after_seconds is the time to the
// reset, and nothing sent but the free /rate_limit. Before the budget
// check it sent 100 requests and then failed half-way on 403s.
func TestStatementOverBudgetRefusedBeforeFirstRequest(t *testing.T) {
	fake := coreFake(t, 100, fakegithub.WithRepos("big", 600))
	r := run(t, noRetryEnv(t, fake), "exec", "-o", "json", repoIn(600))
	e := providerRefusal(t, r)
	if e.Kind != "provider" || !e.Retryable || e.RetryAfterSeconds < 3500 || e.RetryAfterSeconds > 3600 ||
		!strings.Contains(e.Message, "600") || !strings.Contains(e.Message, "only 100 of 5000 remain") || !strings.Contains(e.Message, "nothing was sent") {
		t.Fatalf("error %+v", e)
	}
	for _, q := range fake.Requests() {
		if q.Path != "/rate_limit" {
			t.Fatalf("request sent: %s %s", q.Method, q.Path)
		}
	}
	// A statement that fits the budget runs.
	r = run(t, env(t, fake), "exec", "-o", "csv", repoIn(50))
	if r.Code != 0 || strings.Count(r.Stdout, "\n") != 51 {
		t.Fatalf("exit %d\n%.300s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// A dependent fan-out is checked once its bindings are known: the 6 pages
// of repositories are fetched, then the 600 pulls requests they bind are
// refused before the first of them is sent (300 left).
func TestDependentFanOutOverBudgetRefused(t *testing.T) {
	fake := coreFake(t, 300, fakegithub.WithRepos("big", 600))
	r := run(t, noRetryEnv(t, fake), "exec", joinPulls("big"))
	if r.Code != 2 || !strings.Contains(r.Stderr, "needs about 600 requests") || !strings.Contains(r.Stderr, "only 294 of 5000 remain") || !strings.Contains(r.Stderr, "retryable") {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	got := statuses(fake.Requests())
	if got[200] != 6 || len(got) != 1 {
		t.Fatalf("requests by status %v, want only the 6 repository pages", got)
	}
}

// A bucket that runs out (x-ratelimit-remaining: 0, reset in an hour)
// holds every later request of the credential: in one MCP server, a
// statement of 12 requests, one at a time, gets 10 answers and then fails,
// retryable after the reset, without sending the 11th; the next
// statement is refused before its first request (the budget check knows
// the bucket from the headers), with nothing sent. Before the governor both sent a request
// that was refused with 403.
func TestSpentBucketHoldsLaterRequests(t *testing.T) {
	fake := coreFake(t, 10)
	endpoint, _ := mcpHTTPEnv(t, noRetryEnv(t, fake, "ENGINE_CONCURRENCY=1"))
	first := mcptest.ConnectHTTP(t, endpoint).Query(t, repoInAcme(12))
	if !first.IsError || !first.Error.Retryable || first.Error.RetryAfterSeconds < 3500 || !strings.Contains(first.Error.Message, "spent") {
		t.Fatalf("first: %+v", first.Error)
	}
	sent := len(fake.Requests())
	if st := statuses(fake.Requests()); st[200] != 10 || len(st) != 1 {
		t.Fatalf("first statement: requests by status %v, want the 10 the bucket allowed and no 403", st)
	}
	second := mcptest.ConnectHTTP(t, endpoint).Query(t, repoInAcme(3))
	if !second.IsError || !second.Error.Retryable || second.Error.RetryAfterSeconds < 3500 || !strings.Contains(second.Error.Message, "only 0 of 5000 remain") {
		t.Fatalf("second: %+v", second.Error)
	}
	if n := len(fake.Requests()); n != sent {
		t.Fatalf("%d requests sent on a spent bucket", n-sent)
	}
}
