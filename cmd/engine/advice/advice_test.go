package advice

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/providers"
)

func TestExplainRateLimit(t *testing.T) {
	now := time.Date(2025, 3, 1, 14, 2, 10, 0, time.FixedZone("CET", 3600))
	pe := &providers.ProviderError{Provider: "github", Status: 403, URL: "https://api.github.com/orgs/acme/repos", Message: "API rate limit exceeded", Retryable: true, RateLimited: true, RetryAfter: 1800 * time.Second}
	e := &engine.Error{Kind: engine.KindProvider, Err: pe, Provider: pe}
	got := Explain(e, Credentials{Anonymous: true, TokenEnv: "GITHUB_TOKEN"}, now)
	want := `error (provider): GET https://api.github.com/orgs/acme/repos failed: 403 API rate limit exceeded
  provider github answered HTTP 403 (rate limit).
  retryable: rate limit: retry after 13:32 UTC (in 30 min), or set GITHUB_TOKEN for a higher limit.`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := Explain(e, Credentials{TokenEnv: "GITHUB_TOKEN"}, now); strings.Contains(got, "set GITHUB_TOKEN") {
		t.Errorf("with a token:\n%s", got)
	}
}

func TestExplainOtherKinds(t *testing.T) {
	now := time.Now()
	nf := &providers.ProviderError{Provider: "github", Status: 404, URL: "u", Message: "Not Found"}
	stripe := &providers.ProviderError{Provider: "stripe", Status: 404, URL: "u", Message: "No such customer"}
	inc := &providers.ProviderError{Provider: "github", Status: 200, URL: "u", Kind: "incomplete", Retryable: true, Message: "partial"}
	redir := &providers.ProviderError{Provider: "github", Status: 302, URL: "u", Kind: "redirect", Message: "redirected to /x"}
	cases := []struct {
		e    *engine.Error
		cred Credentials
		want []string
	}{
		{&engine.Error{Kind: engine.KindProvider, Err: nf, Provider: nf}, Credentials{Anonymous: true, TokenEnv: "GITHUB_TOKEN"}, []string{"HTTP 404", "not retryable", "set GITHUB_TOKEN if it should be visible"}},
		// docs/providers.md: every other provider's advice is its own, never GitHub's.
		{&engine.Error{Kind: engine.KindProvider, Err: stripe, Provider: stripe}, Credentials{Anonymous: true}, []string{"HTTP 404", `--auth '{"stripe":`}},
		{&engine.Error{Kind: engine.KindProvider, Err: stripe, Provider: stripe}, Credentials{Anonymous: true, Advice: "pass a Stripe secret key with --auth"}, []string{"pass a Stripe secret key with --auth if it should be visible"}},
		{&engine.Error{Kind: engine.KindProvider, Err: nf, Provider: nf}, Credentials{}, []string{"not visible to this token"}},
		{engine.Classify(&plan.Error{Table: "github.branches.branches", Missing: map[string][]string{"list_branches": {"owner", "repo"}}, Msg: "list_branches needs owner, repo"}), Credentials{}, []string{"error (plan): list_branches needs owner, repo", "DESCRIBE github.branches.branches"}},
		{engine.Classify(plan.RequestLimitError("", "the query needs about 2000 requests, more than the limit of 1000")), Credentials{}, []string{"error (plan): the query needs about 2000", "the limit is --max-requests"}},
		{&engine.Error{Kind: engine.KindCancelled, Err: errors.New("query cancelled")}, Credentials{}, []string{"query cancelled"}},
		{&engine.Error{Kind: engine.KindIncomplete, Err: inc, Provider: inc}, Credentials{}, []string{"error (incomplete)", "retryable", "partial"}},
		{&engine.Error{Kind: engine.KindProvider, Err: redir, Provider: redir}, Credentials{}, []string{"HTTP 302", "not retryable", "redirect"}},
		{&engine.Error{Kind: engine.KindTimeout, Err: errors.New("query timed out: context deadline exceeded")}, Credentials{}, []string{"--query-timeout"}},
		{engine.Classify(&engine.QueryTimeoutError{Limit: time.Second}), Credentials{}, []string{"the limit is --query-timeout"}},
	}
	for _, c := range cases {
		got := Explain(c.e, c.cred, now)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("Explain(%v) lacks %q:\n%s", c.e, w, got)
			}
		}
	}
}

func TestHumanWait(t *testing.T) {
	for s, want := range map[int]string{5: "5s", 60: "1 min", 61: "2 min", 3600: "1h00", 3599 + 3600: "2h00", 5400: "1h30"} {
		if got := humanWait(s); got != want {
			t.Errorf("humanWait(%d) = %q, want %q", s, got, want)
		}
	}
}

func TestWithSetting(t *testing.T) {
	inner := &engine.Error{Kind: engine.KindUsage, Err: errors.New("bad base URL"), Setting: "base-url"}
	for err, want := range map[error]string{
		inner:                                   "bad base URL; base URLs are given with --base-url",
		fmt.Errorf("wrapped: %w", inner):        "wrapped: bad base URL; base URLs are given with --base-url",
		&engine.Error{Err: errors.New("plain")}: "plain",
		&engine.Error{Err: errors.New("doc"), Setting: "provider:acme"}: "doc; providers are given with --provider acme=PATH",
	} {
		if got := WithSetting(err); !strings.HasPrefix(got, want) {
			t.Errorf("WithSetting(%v) = %q, want it to start with %q", err, got, want)
		}
	}
}

// TestExplainAgreesWithTheFailure: no advice line contradicts the error
// above it (a request never sent is not "answered", an App problem is not
// the WHERE values, a timeout with no answer is not "answered").
func TestExplainAgreesWithTheFailure(t *testing.T) {
	app := Credentials{TokenEnv: "GITHUB_TOKEN", App: "GitHub App", AppEnv: []string{"GITHUB_APP_ID", "GITHUB_APP_PRIVATE_KEY_PATH", "GITHUB_APP_PRIVATE_KEY"}}
	notSent := &providers.ProviderError{Provider: "github", URL: "https://api.github.com/user/repos", Kind: "auth", Message: "not sent: needs a default"}
	jwt := &providers.ProviderError{Provider: "github", URL: "https://api.github.com/app/installations/5/access_tokens", Method: "POST", Kind: "auth", Status: 401, Message: "could not get a token"}
	tokenNet := &providers.ProviderError{Provider: "github", URL: "https://api.github.com/app/installations/5/access_tokens", Method: "POST", Kind: "auth", Retryable: true, Message: "connection reset"}
	anon401 := &providers.ProviderError{Provider: "github", URL: "u", Status: 401, Message: "Requires authentication"}
	gone := &providers.ProviderError{Provider: "github", URL: "https://api.github.com/orgs/x/repos", Kind: "unreachable", Message: "dial tcp: lookup api.github.com: no such host"}
	slow := &providers.ProviderError{Provider: "github", URL: "u", Kind: "timeout", Retryable: true, Attempts: 3, Message: "timeout"}
	for _, c := range []struct {
		pe          *providers.ProviderError
		cred        Credentials
		want, never []string
	}{
		{notSent, app, []string{"nothing was sent to github: the GitHub App settings", `--auth's "app" entry, or GITHUB_APP_ID with GITHUB_APP_PRIVATE_KEY_PATH or GITHUB_APP_PRIVATE_KEY`}, []string{"answered", "WHERE", "GITHUB_TOKEN"}},
		{jwt, app, []string{"answered HTTP 401 to the GitHub App's token request", "JWT was refused", "GITHUB_APP_ID"}, []string{"GITHUB_TOKEN", "WHERE"}},
		{tokenNet, app, []string{"gave no answer to the GitHub App's token request", "retryable"}, []string{"answered", "WHERE"}},
		{anon401, Credentials{Anonymous: true, TokenEnv: "GITHUB_TOKEN"}, []string{"no credentials were sent", "set GITHUB_TOKEN (or --auth)"}, []string{"refused"}},
		{gone, Credentials{}, []string{"api.github.com could not be reached", "not retryable", "--base-url github=URL points it", "make demo"}, []string{"answered", "temporary"}},
		{slow, Credentials{}, []string{"gave no answer (each attempt timed out after 3 attempts)", "retryable", "--request-timeout (30 s by default)"}, []string{"answered"}},
		{&providers.ProviderError{Provider: "github", URL: "u", Kind: "link", Message: "pagination loop: Link rel=\"next\" points to u, which was already fetched"},
			Credentials{}, []string{"answered a next page the engine will not follow", "the provider's Link header points where its next page cannot be"}, []string{"network error", "WHERE"}},
	} {
		got := Explain(&engine.Error{Kind: engine.KindProvider, Err: c.pe, Provider: c.pe}, c.cred, time.Now())
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lacks %q:\n%s", c.pe.Message, w, got)
			}
		}
		for _, n := range c.never {
			if strings.Contains(got, n) {
				t.Errorf("%s: says %q:\n%s", c.pe.Message, n, got)
			}
		}
	}
}

// TestExplainUnreachableRetryable: a DNS failure the resolver calls
// temporary is retryable, still "could not be reached", never "answered".
func TestExplainUnreachableRetryable(t *testing.T) {
	pe := &providers.ProviderError{Provider: "github", URL: "https://api.github.com/x", Kind: "unreachable", Retryable: true, Attempts: 5, Message: "lookup api.github.com: server misbehaving"}
	got := Explain(&engine.Error{Kind: engine.KindProvider, Err: pe, Provider: pe}, Credentials{}, time.Now())
	for _, w := range []string{"api.github.com could not be reached", "retryable: the name could not be resolved now", "make demo", "--base-url github=URL"} {
		if !strings.Contains(got, w) {
			t.Errorf("lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "answered") {
		t.Errorf("says answered:\n%s", got)
	}
}
