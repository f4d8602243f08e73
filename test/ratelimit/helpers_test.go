package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/test/fakegithub"
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
