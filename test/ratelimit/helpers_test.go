package ratelimit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

const token = "ghp_RATELIMITTESTTOKEN0123456789"

// env points the engine at fake with a token and the given settings.
func env(t *testing.T, fake *fakegithub.Server, extra ...string) []string {
	return testutil.Env(t, append([]string{
		"ENGINE_BASE_URL_GITHUB=" + fake.URL(),
		"GITHUB_TOKEN=" + token,
		"ENGINE_GOVERNOR=on",
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
