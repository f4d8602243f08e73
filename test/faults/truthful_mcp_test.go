package faults

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// TestMCPIncompleteAndSecondaryRateLimits: through `engine mcp` and the
// go-sdk client (results validated against the declared output schema),
// a partial search answer is kind "incomplete", retryable; GitHub's
// secondary rate limits ("abuse detection", Retry-After) are retryable
// with retry_after_seconds; an absurd x-ratelimit-reset never gives a
// negative retry_after_seconds.
func TestMCPIncompleteAndSecondaryRateLimits(t *testing.T) {
	t.Parallel()
	fake := fakegithub.ForTest(t)
	c, _, _ := mcptest.Stdio(t, faultEnv(t, fake), "mcp")
	call := func(sql string) mcptest.Result {
		t.Helper()
		return c.QueryBounded(t, sql)
	}
	const search = `SELECT full_name FROM github.search.repos WHERE q = 'org:tiny'`
	const tiny = `SELECT name FROM github.repos.repos WHERE org = 'tiny'`

	if r := call(search); r.IsError || r.RowCount != 3 {
		t.Fatalf("complete search: %+v", r)
	}
	cases := []struct {
		name  string
		sql   string
		fault fakegithub.Fault
		check func(e *mcptest.ErrorBody) bool
	}{
		{"incomplete search", search,
			fakegithub.Fault{Path: "^/search/repositories$", Kind: fakegithub.KindIncompleteResults},
			func(e *mcptest.ErrorBody) bool {
				return e.Kind == "incomplete" && e.Retryable && e.RetryAfterSeconds >= 0 && strings.Contains(e.Message, "incomplete_results")
			}},
		{"abuse detection", tiny,
			fakegithub.Fault{Path: "^/orgs/tiny/repos$", Kind: fakegithub.KindSecondaryRateLimit, RetryAfter: 90,
				Message: "You have triggered an abuse detection mechanism. Please wait a few minutes before you try again."},
			func(e *mcptest.ErrorBody) bool {
				return e.Kind == "provider" && e.HTTPStatus == 403 && e.Retryable && e.RetryAfterSeconds == 90
			}},
		{"secondary rate limit without Retry-After", tiny,
			fakegithub.Fault{Path: "^/orgs/tiny/repos$", Kind: fakegithub.KindStatus, Status: 403, Message: "You have exceeded a secondary rate limit."},
			func(e *mcptest.ErrorBody) bool { return e.Retryable && e.RetryAfterSeconds == 60 }},
		{"reset far in the future", tiny,
			fakegithub.Fault{Path: "^/orgs/tiny/repos$", Kind: fakegithub.KindRateLimit, Reset: "99999999999999999"},
			func(e *mcptest.ErrorBody) bool { return e.Retryable && e.RetryAfterSeconds == 86400 }},
	}
	for _, tc := range cases {
		fake.ClearFaults()
		fake.Inject(tc.fault)
		r := call(tc.sql)
		if !r.IsError || r.Error == nil || !tc.check(r.Error) {
			t.Errorf("%s: %+v", tc.name, r.Error)
		}
	}
	fake.ClearFaults()
	if r := call(tiny); r.IsError || r.RowCount != 3 {
		t.Fatalf("healthy after the faults: %+v", r)
	}
}
