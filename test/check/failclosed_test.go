package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// The bug this command exists for: no repository is named "ghost", so the
// control (testutil.GhostControl) passes on a complete listing. When page
// 2 of the listing is rate limited, the control is an error — never a
// pass on pages 1 and 3.
func TestRateLimitOnPage2IsError(t *testing.T) {
	s := fakegithub.ForTest(t)
	s.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Page: 2, Kind: fakegithub.KindRateLimit, RetryAfter: 30})
	env := testutil.FakeEnv(t, s.URL())
	file, r := checkControls(t, env, "c.yaml", testutil.GhostControl, 2, "-o", "json")
	rep := parseJSON(t, r)
	c := rep.Controls[0]
	if c.Status != "error" || c.Error == nil {
		t.Fatalf("status %s: a rate-limited listing must be an error", c.Status)
	}
	if c.Error.Kind != "provider" || c.Error.HTTPStatus != 403 || c.Error.Provider != "github" || !c.Error.Retryable {
		t.Errorf("error: %+v", c.Error)
	}
	var page2 bool
	for _, req := range s.Requests() {
		if req.Path == "/orgs/acme/repos" && req.Page == 2 {
			page2 = true
		}
	}
	if !page2 {
		t.Errorf("page 2 was never requested: %+v", s.Requests())
	}

	// The same control on a healthy server passes: the error above came
	// from the fault, not the control.
	s.ClearFaults()
	if r := runCheck(t, env, file); r.Code != 0 || !strings.Contains(r.Stdout, "PASS  no-ghost") {
		t.Fatalf("healthy: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// A retryable failure is retried per the client's policy first: one rate
// limit within the retry budget still ends in pass.
func TestRetryableErrorRetriedFirst(t *testing.T) {
	s := fakegithub.ForTest(t)
	s.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Page: 2, Times: 1, Kind: fakegithub.KindTooManyRequests, RetryAfter: 1})
	// Deliberately not FastRetry: the test is that the retry budget absorbs
	// the injected rate limit (two retries within 5s).
	env := testutil.FakeEnv(t, s.URL(), "ENGINE_RETRY_MAX=2", "ENGINE_MAX_RETRY_WAIT=5s")
	r := runCheck(t, env, testutil.TempFile(t, "c.yaml", testutil.GhostControl))
	testutil.WantRun(t, "check", r, 0, "PASS  no-ghost", "")
}

// Secrets never appear in reports, even in provider errors.
func TestTokenNeverPrinted(t *testing.T) {
	const token = "ghp_testtoken_0123456789abcdef"
	s := fakegithub.ForTest(t, fakegithub.WithToken("another-token"))
	env := testutil.FakeEnv(t, s.URL(), "GITHUB_TOKEN="+token)
	file := testutil.TempFile(t, "c.yaml", testutil.GhostControl)
	for _, format := range []string{"text", "json", "junit", "github"} {
		r := runCheck(t, env, file, "-o", format)
		if r.Code != 2 {
			t.Errorf("%s: exit %d (401 must be an error)", format, r.Code)
		}
		if strings.Contains(r.Stdout+r.Stderr, token) {
			t.Errorf("%s: token printed", format)
		}
	}
}
