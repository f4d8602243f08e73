package ratelimit

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

const token = "ghp_RATELIMITTESTTOKEN0123456789"

// env points the engine at fake with a token, the governor on and the
// given settings. It keeps the default retry policy (4 retries within
// 60s), not testutil.FastRetry: the governor's waits and retries are what
// this suite measures; a test that wants none uses noRetryEnv.
func env(t *testing.T, fake *fakegithub.Server, extra ...string) []string {
	return governedEnv(t, fake, append([]string{"GITHUB_TOKEN=" + token}, extra...)...)
}

// noRetryEnv is env with testutil.FastRetry: no retries, for tests that
// count the requests of one attempt.
func noRetryEnv(t *testing.T, fake *fakegithub.Server, extra ...string) []string {
	return env(t, fake, append(append([]string{}, extra...), testutil.FastRetry...)...)
}

// governedEnv is env without the token.
func governedEnv(t *testing.T, fake *fakegithub.Server, extra ...string) []string {
	return testutil.FakeEnv(t, fake.URL(), append([]string{
		"ENGINE_GOVERNOR=on",
		"ENGINE_RETRY_MAX=" + strconv.Itoa(client.DefaultRetryMax),
		"ENGINE_MAX_RETRY_WAIT=" + client.DefaultMaxRetryWait.String(),
	}, extra...)...)
}

// providerRefusal is the error object of an exec -o json run that must
// exit 2: it fails the test when the run exits otherwise or stderr is not
// the error object.
func providerRefusal(t *testing.T, r testutil.Result) engine.ErrorBody {
	t.Helper()
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	var out struct {
		Error engine.ErrorBody `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Stderr), &out); err != nil {
		t.Fatalf("stderr is not the error object: %v\n%s", err, r.Stderr)
	}
	return out.Error
}

func run(t *testing.T, e []string, args ...string) testutil.Result {
	t.Helper()
	r := testutil.Run(t, e, "", args...)
	if strings.Contains(r.Stdout+r.Stderr, token) {
		t.Fatalf("token leaked in output of %v", args)
	}
	return r
}

// statuses counts the fake's logged requests by status, leaving out the
// free /rate_limit.
func statuses(reqs []fakegithub.Request) map[int]int {
	out := map[int]int{}
	for _, r := range reqs {
		if r.Path != "/rate_limit" {
			out[r.Status]++
		}
	}
	return out
}

// joinPulls is a dependent fan-out: the org's repository pages, then one
// pulls request per repository.
func joinPulls(org string) string {
	return fmt.Sprintf(`SELECT count(DISTINCT r.name) AS repos
FROM github.repos.repos r
LEFT JOIN github.pulls.pulls p ON p.owner = '%s' AND p.repo = r.name
WHERE r.org = '%s'`, org, org)
}

// coreFake is a fake whose core bucket has left of 5000 requests,
// resetting in an hour, with the further options opts.
func coreFake(t *testing.T, left int, opts ...fakegithub.Option) *fakegithub.Server {
	return fakegithub.ForTest(t, append(opts, fakegithub.WithLimits(fakegithub.Limits{Buckets: map[string]fakegithub.BucketLimit{
		"core": {Limit: 5000, Remaining: &left, Window: time.Hour},
	}}))...)
}

// repoInAcme is a statement of n requests: one per acme repository of an
// IN list.
func repoInAcme(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = "'repo-" + string(rune('0'+i/100)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10)) + "'"
	}
	return "SELECT name FROM github.repos.repos WHERE owner = 'acme' AND repo IN (" + strings.Join(names, ",") + ")"
}

// mcpHTTP starts `engine mcp --transport http` against fake and returns
// its endpoint and collected stderr.
func mcpHTTP(t *testing.T, fake *fakegithub.Server, args ...string) (string, *testutil.SyncBuffer) {
	t.Helper()
	return mcpHTTPEnv(t, governedEnv(t, fake), args...)
}

// mcpHTTPEnv is mcpHTTP with the server's whole environment.
func mcpHTTPEnv(t *testing.T, env []string, args ...string) (string, *testutil.SyncBuffer) {
	t.Helper()
	return mcptest.StartHTTP(t, env, args...)
}
