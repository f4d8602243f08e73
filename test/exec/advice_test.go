package exec_test

import (
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// adviceCase runs one statement and checks the advice lines under its
// error: what they must say and what would contradict the message.
func adviceCheck(t *testing.T, what string, r testutil.Result, code int, wants, never []string) {
	t.Helper()
	if r.Code != code {
		t.Errorf("%s: exit %d, want %d\n%s", what, r.Code, code, r.Stderr)
	}
	testutil.Contains(t, what, r.Stderr, wants...)
	for _, n := range never {
		if strings.Contains(r.Stderr, n) {
			t.Errorf("%s says %q, which contradicts the error:\n%s", what, n, r.Stderr)
		}
	}
}

// TestAdviceMatchesTheFailure: the advice under an error agrees with
// it (cmd/engine/advice): a request never sent is not "answered"; a GitHub
// App problem points at the App's settings, never at WHERE values or
// GITHUB_TOKEN; a 401 without credentials says none were sent and how to
// give them; a host that cannot be reached is neither "answered" nor
// "temporary", and the advice names --base-url and make demo; a bad
// profile blames the profile, not the OpenAPI document.
func TestAdviceMatchesTheFailure(t *testing.T) {
	key, keyPath, _ := testutil.RSAKey(t)
	_, wrongKey, _ := testutil.RSAKey(t)
	multi := fakegithub.ForTest(t, fakegithub.WithApp(fakegithub.App{AppID: 99, PublicKey: &key.PublicKey,
		Installations: []fakegithub.Installation{{ID: 5, Account: "acme"}, {ID: 6, Account: "tiny"}}}))
	appEnv := func(s *fakegithub.Server, keyPath string, extra ...string) []string {
		return testutil.FakeEnv(t, s.URL(), append([]string{"GITHUB_APP_ID=99", "GITHUB_APP_PRIVATE_KEY_PATH=" + keyPath}, extra...)...)
	}

	// An App over every installation, a request naming no account, no
	// default_installation: nothing is sent.
	r := testutil.Run(t, appEnv(multi, keyPath), "", "exec", "SELECT name FROM github.repos.repos")
	adviceCheck(t, "App without a default installation", r, 2,
		[]string{"not sent:", "nothing was sent to github: the GitHub App settings", `--auth's "app" entry, or GITHUB_APP_ID`},
		[]string{"answered", "WHERE values", "GITHUB_TOKEN", "temporary"})

	// The App's JWT refused (a key of another app).
	single := fakegithub.ForTest(t, fakegithub.WithApp(fakegithub.App{AppID: 99, InstallationID: 5, PublicKey: &key.PublicKey}))
	r = testutil.Run(t, appEnv(single, wrongKey, "GITHUB_APP_INSTALLATION_ID=5"), "", "exec", "SELECT name FROM github.repos.repos WHERE org = 'tiny'")
	adviceCheck(t, "App JWT refused", r, 2,
		[]string{"GitHub App's JWT was refused", "GITHUB_APP_ID", "GITHUB_APP_PRIVATE_KEY_PATH"},
		[]string{"GITHUB_TOKEN", "WHERE values"})

	// A 401 with no credentials at all.
	locked := fakegithub.ForTest(t, fakegithub.WithToken("ghp_needed_token_123456"))
	r = testutil.Run(t, testutil.FakeEnv(t, locked.URL()), "", "exec", "SELECT name FROM github.repos.repos WHERE org = 'tiny'")
	adviceCheck(t, "401 without credentials", r, 2,
		[]string{"HTTP 401", "no credentials were sent", "set GITHUB_TOKEN (or --auth)"},
		[]string{"were refused", "WHERE values"})

	// Nothing listens at the address.
	r = testutil.Run(t, testutil.FakeEnv(t, "http://127.0.0.1:1", "GITHUB_TOKEN=ghp_x_123456789"), "", "exec", "SELECT name FROM github.repos.repos WHERE org = 'tiny'")
	adviceCheck(t, "connection refused", r, 2,
		[]string{"connection refused", "127.0.0.1:1 could not be reached", "not retryable", "--base-url github=URL points it", "make demo"},
		[]string{"answered", "temporary", "WHERE values"})

	// A profile that does not parse, with a sound document.
	bad := testutil.TempFile(t, "bad-profile.json", `{"bogus": 1}`)
	r = testutil.Run(t, testutil.Env(t), "", "exec", "--provider", "stripe="+fakeapis.Doc("stripe")+",profile="+bad, "SHOW RESOURCES FROM stripe.charges")
	adviceCheck(t, "bad profile", r, 1,
		[]string{`unknown field "bogus"`, "fix the profile " + bad},
		[]string{"OpenAPI document"})
}

// A statement stopped by --query-timeout names the limit and the way out,
// and the advice names the flag, without promising that a retry helps;
// -o json says it is not retryable (docs/architecture.md, "Errors").
func TestQueryTimeoutNamesTheFlag(t *testing.T) {
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindSlow, Delay: 20 * time.Second})
	env := testutil.FakeEnv(t, fake.URL())
	r := testutil.Run(t, env, "", "exec", "--query-timeout", "1s", "SELECT name FROM github.repos.repos WHERE org = 'acme'")
	adviceCheck(t, "query timeout", r, 2,
		[]string{"error (timeout): query timed out after 1s, the time limit of one statement (query-timeout): narrow the query", "the limit is --query-timeout"},
		[]string{"a retry may help", "context deadline exceeded"})
	r = testutil.Run(t, env, "", "exec", "-o", "json", "--query-timeout", "1s", "SELECT name FROM github.repos.repos WHERE org = 'acme'")
	testutil.Contains(t, "json", r.Stdout+r.Stderr, `"kind":"timeout"`, `"retryable":false`)
}
