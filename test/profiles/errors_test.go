package profiles_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// Issue 16: Slack answers failures with HTTP 200 and {"ok": false,
// "error": CODE}. With Slack's profile rule that is an error of kind
// provider (exit 2), never a row: an auth code says what to do and is not
// retryable, "ratelimited" is retryable (before: one row, exit 0).
func TestSlackErrorIn200(t *testing.T) {
	tbl := table(t, slackArg, "conversations")
	for _, c := range []struct {
		token     string
		code      string
		retryable bool
		advice    string
	}{
		{"xoxb-revoked-or-wrong", "invalid_auth", false, `--auth '{"slack":`},
		{fakeapis.RateLimitedSlackToken, "ratelimited", true, "rate limit"},
	} {
		t.Run(c.code, func(t *testing.T) {
			e := env(t, "SLACK_TOKEN="+c.token)
			r := run(t, e, "--provider", slackArg, "--auth", slackAuth, "SELECT id, name FROM "+tbl)
			if r.Code != 2 || !strings.Contains(r.Stderr, c.code) || !strings.Contains(r.Stderr, c.advice) {
				t.Fatalf("exit %d, want 2 with %q and %q\nstdout: %s\nstderr: %s", r.Code, c.code, c.advice, r.Stdout, r.Stderr)
			}
			if strings.Contains(r.Stdout+r.Stderr, c.token) {
				t.Fatal("the token appears in the output")
			}
			r = run(t, e, "-o", "json", "--provider", slackArg, "--auth", slackAuth, "SELECT id, name FROM "+tbl)
			eb := jsonError(t, r)
			if r.Code != 2 || eb.Kind != "provider" || eb.Provider != "slack" || eb.Retryable != c.retryable || eb.HTTPStatus != 200 {
				t.Fatalf("exit %d error %+v, want kind provider, provider slack, retryable %v, http_status 200", r.Code, eb, c.retryable)
			}
		})
	}
}

// A --provider document never gets a token from the environment through
// its profile: without --auth no Authorization is sent (Slack says
// not_authed), even with SLACK_TOKEN and GITHUB_TOKEN set.
func TestProfileReadsNoTokenVariables(t *testing.T) {
	tbl := table(t, slackArg, "conversations")
	e := env(t, "SLACK_TOKEN="+fakeapis.GoodSlackToken, "GITHUB_TOKEN="+fakeapis.GoodSlackToken)
	r := run(t, e, "--provider", slackArg, "SELECT id FROM "+tbl)
	if r.Code != 2 || !strings.Contains(r.Stderr, "not_authed") {
		t.Fatalf("exit %d, want 2 with not_authed\n%s", r.Code, r.Stderr)
	}
}

// The error advice names the provider's own way to give credentials,
// never GitHub's token variable.
func TestAdviceIsTheProvidersOwn(t *testing.T) {
	tbl := table(t, stripeArg, "customers")
	r := run(t, env(t), "--provider", stripeArg, "SELECT id FROM "+tbl+" WHERE customer = 'cus_404'")
	if r.Code != 2 || !strings.Contains(r.Stderr, "No such customer: 'cus_404'") {
		t.Fatalf("exit %d, want 2 with Stripe's error.message\n%s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stderr, "GITHUB_TOKEN") || !strings.Contains(r.Stderr, `--auth '{"stripe":`) {
		t.Fatalf("advice is not Stripe's own:\n%s", r.Stderr)
	}
}

// The MCP surface reports an error in a 200 as isError with the provider
// and whether a retry may help.
func TestSlackErrorIn200MCP(t *testing.T) {
	tbl := table(t, slackArg, "conversations")
	for _, c := range []struct {
		token     string
		retryable bool
	}{{"xoxb-wrong", false}, {fakeapis.RateLimitedSlackToken, true}} {
		cl, _, stderr := mcptest.Stdio(t, env(t, append([]string{"SLACK_TOKEN=" + c.token}, testutil.FastRetry...)...), "mcp", "--provider", slackArg, "--auth", slackAuth)
		res := cl.Query(t, "SELECT id, name FROM "+tbl)
		if !res.IsError || res.Error == nil || res.Error.Kind != "provider" || res.Error.Provider != "slack" || res.Error.Retryable != c.retryable {
			t.Fatalf("token %s: result %+v error %+v, want isError, kind provider, provider slack, retryable %v\nstderr: %s", c.token, res, res.Error, c.retryable, stderr)
		}
		if len(res.Rows) != 0 {
			t.Fatalf("rows returned with the error: %v", res.Rows)
		}
	}
}
