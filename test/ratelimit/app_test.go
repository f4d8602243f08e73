package ratelimit

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

const appID, installationID = 424242, 777

// appFake starts a fake that accepts only installation tokens of an app
// whose key it returns (PEM) and writes to a file.
func appFake(t *testing.T, ttl time.Duration) (*fakegithub.Server, string, string) {
	t.Helper()
	return appFakeWith(t, fakegithub.App{InstallationID: installationID, TokenTTL: ttl})
}

// appFakeWith is appFake for app appID with the installations and
// settings of app, and the key appFake returns.
func appFakeWith(t *testing.T, app fakegithub.App) (*fakegithub.Server, string, string) {
	t.Helper()
	key, path, pemText := testutil.RSAKey(t)
	app.AppID, app.PublicKey = appID, &key.PublicKey
	return fakegithub.ForTest(t, fakegithub.WithApp(app)), path, pemText
}

func appAuth(path string) string {
	return `{"github":{"type":"app","app_id":424242,"installation_id":"777","private_key_path":"` + path + `"}}`
}

// noAppSecrets fails when any token the fake issued, any JWT presented, or
// any line of the private key appears in out.
func noAppSecrets(t *testing.T, fake *fakegithub.Server, pemText, out string) {
	t.Helper()
	for _, s := range fake.AppSecrets() {
		if strings.Contains(out, s) {
			t.Fatalf("a GitHub App token or JWT leaked in output:\n%.2000s", out)
		}
	}
	for _, line := range strings.Split(pemText, "\n") {
		if len(line) > 20 && !strings.HasPrefix(line, "-----") && strings.Contains(out, line) {
			t.Fatalf("the private key leaked in output")
		}
	}
}

func bearers(fake *fakegithub.Server) map[string]int {
	out := map[string]int{}
	for _, r := range fake.Requests() {
		if !strings.HasPrefix(r.Path, "/app/") {
			out[r.AuthHeader]++
		}
	}
	return out
}

// exec with --auth type app: the token is minted once and reused by every
// request of a fan-out; --debug output holds neither the JWT, the token
// nor the key.
func TestAppAuthMintsOnceAndReuses(t *testing.T) {
	fake, path, pemText := appFake(t, time.Hour)
	e := governedEnv(t, fake)
	r := testutil.Run(t, e, "", "exec", "--debug", "--auth", appAuth(path), "-o", "csv", repoInAcme(12))
	if r.Code != 0 || strings.Count(r.Stdout, "\n") != 13 {
		t.Fatalf("exit %d\n%s%.2000s", r.Code, r.Stdout, r.Stderr)
	}
	noAppSecrets(t, fake, pemText, r.Stdout+r.Stderr)
	if n := fake.AppTokensMinted(); n != 1 {
		t.Fatalf("%d installation tokens minted, want 1", n)
	}
	if b := bearers(fake); len(b) != 1 {
		t.Fatalf("API requests carried %d different Authorization headers, want the one token", len(b))
	}
	if !strings.Contains(r.Stderr, "minted a GitHub App installation token") {
		t.Fatalf("no mint in the debug log:\n%.2000s", r.Stderr)
	}
}

// The GITHUB_APP_* environment variables are the zero-config variant and
// take precedence over GITHUB_TOKEN (which CI sets anyway).
func TestAppAuthFromEnvironment(t *testing.T) {
	fake, _, pemText := appFake(t, time.Hour)
	e := governedEnv(t, fake, "GITHUB_TOKEN="+token,
		"GITHUB_APP_ID=424242", "GITHUB_APP_INSTALLATION_ID=777", "GITHUB_APP_PRIVATE_KEY="+pemText)
	r := testutil.Run(t, e, "", "exec", "-o", "csv", repoInAcme(3))
	if r.Code != 0 || fake.AppTokensMinted() != 1 {
		t.Fatalf("exit %d, %d minted\n%s%s", r.Code, fake.AppTokensMinted(), r.Stdout, r.Stderr)
	}
	noAppSecrets(t, fake, pemText, r.Stdout+r.Stderr)
}

// Bad app settings fail before any request with advice, never echoing
// the key.
func TestAppAuthBadSettings(t *testing.T) {
	fake, path, _ := appFake(t, time.Hour)
	_, wrong, _ := testutil.RSAKey(t) // a key of another app
	notKey := testutil.TempFile(t, "notkey.pem", "-----BEGIN RSA PRIVATE KEY-----\nSECRETSECRETSECRETSECRET\n-----END RSA PRIVATE KEY-----\n")
	e := governedEnv(t, fake)
	cases := []struct {
		auth string
		code int
		want string
	}{
		{`{"github":{"type":"app","installation_id":777,"private_key_path":"` + path + `"}}`, 1, "needs app_id"},
		{`{"github":{"type":"app","app_id":424242,"installation_id":"x","private_key_path":"` + path + `"}}`, 1, "or left out to use every installation"},
		{`{"github":{"type":"app","app_id":424242,"installation_id":777,"default_installation":"acme","private_key_path":"` + path + `"}}`, 1, "give one of them"},
		{`{"github":{"type":"app","app_id":424242,"installation_id":777}}`, 1, "private_key_path"},
		{appAuth(notKey), 1, "is not an RSA private key"},
		{appAuth(filepath.Join(t.TempDir(), "missing.pem")), 1, "PEM file"},
		{appAuth(wrong), 2, "could not get a GitHub App installation token"},
		{`{"github":{"type":"app","app_id":424242,"installation_id":9,"private_key_path":"` + path + `"}}`, 2, "check installation_id"},
	}
	for _, c := range cases {
		r := testutil.Run(t, e, "", "exec", "--auth", c.auth, "SELECT name FROM github.repos.repos WHERE owner = 'acme' AND repo = 'repo-001'")
		if r.Code != c.code || !strings.Contains(r.Stderr, c.want) || strings.Contains(r.Stderr, "SECRETSECRET") || strings.Contains(r.Stderr, "panic") {
			t.Errorf("--auth %s: exit %d, want %d and %q:\n%s", c.auth, r.Code, c.code, c.want, r.Stderr)
		}
	}
	if n := fake.AppTokensMinted(); n != 0 {
		t.Fatalf("%d tokens minted", n)
	}
}

// One MCP server process: the token minted for the first session is
// reused by a second session, and refreshed before the fake expires it
// (the fake's tokens live 3 s here; GitHub's an hour), so no request is
// refused. A token revoked early costs one 401 per request in flight: each
// is retried with the one new token.
func TestAppAuthSharedAcrossMCPSessionsAndRefreshed(t *testing.T) {
	fake, path, pemText := appFake(t, 3*time.Second)
	endpoint, stderr := mcpHTTP(t, fake, "--auth", appAuth(path), "--debug")
	query := repoInAcme(4)
	for i := 0; i < 2; i++ { // two sessions
		c := mcptest.ConnectHTTP(t, endpoint)
		if res := c.Query(t, query); res.IsError || res.RowCount != 4 {
			t.Fatalf("session %d: %+v", i+1, res)
		}
	}
	if n := fake.AppTokensMinted(); n != 1 {
		t.Fatalf("%d tokens minted for two sessions, want 1", n)
	}
	time.Sleep(2700 * time.Millisecond) // past 80% of the token's life
	c := mcptest.ConnectHTTP(t, endpoint)
	if res := c.Query(t, query); res.IsError || res.RowCount != 4 {
		t.Fatalf("after refresh: %+v", res)
	}
	if n := fake.AppTokensMinted(); n != 2 {
		t.Fatalf("%d tokens minted, want 2 (one refresh)", n)
	}
	for _, r := range fake.Requests() {
		if r.Status == 401 {
			t.Fatalf("request refused with 401: %s", r.Path)
		}
	}
	// Revoked early: the refused request is retried once with a new token.
	fake.ExpireAppTokens()
	if res := c.Query(t, query); res.IsError || res.RowCount != 4 {
		t.Fatalf("after revocation: %+v", res)
	}
	refused := 0
	for _, r := range fake.Requests() {
		if r.Status == 401 {
			refused++
		}
	}
	if n := fake.AppTokensMinted(); n != 3 || refused < 1 || refused > 4 {
		t.Fatalf("%d tokens minted, %d requests refused; want 3 (one new token for all) and 1 to 4 (the statement's requests in flight)", n, refused)
	}
	time.Sleep(200 * time.Millisecond)
	noAppSecrets(t, fake, pemText, stderr.String())
}

// A GitHub App installed on three organisations, used without
// installation_id: the engine lists the installations and sends each
// request with the token of the installation on the account it names
// (docs/orgscale.md).

var threeInstallations = []fakegithub.Installation{{ID: 101, Account: "acme"}, {ID: 102, Account: "tiny"}, {ID: 103, Account: "sprawl"}}

var installationOf = map[string]int64{"acme": 101, "tiny": 102, "sprawl": 103}

func multiAppFake(t *testing.T, ttl time.Duration) (*fakegithub.Server, string, string) {
	t.Helper()
	return appFakeWith(t, fakegithub.App{Installations: threeInstallations, ListPageSize: 2, TokenTTL: ttl})
}

// multiAuth is --auth for every installation of the app, with extra JSON
// members (e.g. `,"default_installation":"tiny"`).
func multiAuth(path, extra string) string {
	return `{"github":{"type":"app","app_id":424242,"private_key_path":"` + path + `"` + extra + `}}`
}

// servedOnlyOwn fails unless every API request of each installation named
// its own account (or none), and each org in orgs was served.
func servedOnlyOwn(t *testing.T, fake *fakegithub.Server, orgs ...string) {
	t.Helper()
	served := fake.AppServed()
	for id, byAcct := range served {
		for acct, n := range byAcct {
			if acct != "" && installationOf[acct] != id {
				t.Errorf("installation %d's token made %d requests for %q", id, n, acct)
			}
		}
	}
	for _, o := range orgs {
		if served[installationOf[o]][o] == 0 {
			t.Errorf("no request for %s by its installation %d: %v", o, installationOf[o], served)
		}
	}
	for _, r := range fake.Requests() {
		if r.Status == 404 || r.Status == 401 {
			t.Errorf("%s answered %d", r.Path, r.Status)
		}
	}
}

// One statement reads three organisations through three installations:
// an IN list, a join, and the accounts the app can read as a subquery.
func TestAppEveryInstallationOneStatement(t *testing.T) {
	fake, path, pemText := multiAppFake(t, time.Hour)
	e := governedEnv(t, fake)
	auth := multiAuth(path, "")
	queries := []struct{ sql, want string }{
		{`SELECT login FROM github.orgs.orgs WHERE org IN ('acme', 'TINY', 'sprawl') ORDER BY login`, "login\nacme\nsprawl\ntiny\n"},
		{`SELECT o.login, count(*) AS teams FROM github.orgs.orgs o JOIN github.teams.teams t ON t.org = o.login WHERE o.org IN ('acme', 'tiny', 'sprawl') GROUP BY o.login ORDER BY o.login`, "login,teams\nacme,8\ntiny,1\n"},
		{`SELECT login FROM github.orgs.orgs WHERE org IN (SELECT json_extract(account, '$.login') FROM github.apps.list_installations) ORDER BY login`, "login\nacme\nsprawl\ntiny\n"},
		{`SELECT org, count(*) AS repos FROM github.repos.repos WHERE org IN (SELECT json_extract(account, '$.login') FROM github.apps.list_installations) GROUP BY org ORDER BY org`, "org,repos\nacme,250\nsprawl,2500\ntiny,3\n"},
	}
	for _, q := range queries {
		r := testutil.Run(t, e, "", "exec", "--debug", "--auth", auth, "-o", "csv", q.sql)
		if r.Code != 0 || r.Stdout != q.want {
			t.Fatalf("%s: exit %d\n%s\nwant\n%s\n%.3000s", q.sql, r.Code, r.Stdout, q.want, r.Stderr)
		}
		noAppSecrets(t, fake, pemText, r.Stdout+r.Stderr)
	}
	servedOnlyOwn(t, fake, "acme", "tiny", "sprawl")
	for org, id := range installationOf {
		if n := fake.AppTokensMintedFor(id); n != len(queries) {
			t.Errorf("%d tokens minted for %s's installation over %d processes, want one each", n, org, len(queries))
		}
	}
	// The installations were listed, page by page (the fake serves 2 a page).
	listed := 0
	for _, r := range fake.Requests() {
		if r.Path == "/app/installations" {
			listed++
		}
	}
	if listed < 2*len(queries) {
		t.Errorf("GET /app/installations sent %d times, want every page (2) per process", listed)
	}
}

// One MCP server process over the three installations: each token is
// minted once, refreshed before it expires (the fake's live 3 s here), and
// a token revoked early is re-minted once after its 401.
func TestAppEveryInstallationRefreshed(t *testing.T) {
	fake, path, pemText := multiAppFake(t, 3*time.Second)
	endpoint, stderr := mcpHTTP(t, fake, "--auth", multiAuth(path, ""), "--debug")
	query := `SELECT login FROM github.orgs.orgs WHERE org IN ('acme', 'tiny', 'sprawl')`
	c := mcptest.ConnectHTTP(t, endpoint)
	if res := c.Query(t, query); res.IsError || res.RowCount != 3 {
		t.Fatalf("first: %+v", res)
	}
	time.Sleep(2700 * time.Millisecond) // past 80% of the tokens' life
	if res := c.Query(t, query); res.IsError || res.RowCount != 3 {
		t.Fatalf("after refresh: %+v", res)
	}
	servedOnlyOwn(t, fake, "acme", "tiny", "sprawl") // no 401: refreshed before expiry
	for org, id := range installationOf {
		if n := fake.AppTokensMintedFor(id); n != 2 {
			t.Errorf("%d tokens minted for %s, want 2 (one refresh)", n, org)
		}
	}
	// Expired early (revoked and reissued): each installation's refused
	// request is retried once with a new token of that installation.
	fake.ExpireAppTokens()
	if res := c.Query(t, query); res.IsError || res.RowCount != 3 {
		t.Fatalf("after early expiry: %+v", res)
	}
	for org, id := range installationOf {
		if n := fake.AppTokensMintedFor(id); n != 3 {
			t.Errorf("%d tokens minted for %s, want 3", n, org)
		}
	}
	time.Sleep(200 * time.Millisecond)
	noAppSecrets(t, fake, pemText, stderr.String())
}

// A revoked installation: its 401 is retried once with a new token, then
// the statement fails (not retryable), naming the status; the other
// installations are not affected.
func TestAppEveryInstallationRevoked(t *testing.T) {
	fake, path, pemText := multiAppFake(t, time.Hour)
	fake.RevokeInstallation(102)
	e := governedEnv(t, fake)
	r := testutil.Run(t, e, "", "exec", "-o", "json", "--auth", multiAuth(path, ""), `SELECT login FROM github.orgs.orgs WHERE org = 'tiny'`)
	if out := r.Stdout + r.Stderr; r.Code != 2 || !strings.Contains(out, "401 Bad credentials") || !strings.Contains(out, `"retryable":false`) {
		t.Fatalf("exit %d, want 2 and a 401 that is not retryable:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if n := fake.AppTokensMintedFor(102); n != 2 {
		t.Fatalf("%d tokens minted for the revoked installation, want 2 (one re-mint after the 401)", n)
	}
	noAppSecrets(t, fake, pemText, r.Stdout+r.Stderr)
	r = testutil.Run(t, e, "", "exec", "-o", "csv", "--auth", multiAuth(path, ""), `SELECT login FROM github.orgs.orgs WHERE org IN ('acme', 'sprawl') ORDER BY login`)
	if r.Code != 0 || r.Stdout != "login\nacme\nsprawl\n" {
		t.Fatalf("other installations: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// An account the app is not installed on is an error naming it and the
// accounts it is installed on, before any request for that account.
func TestAppEveryInstallationUnknownAccount(t *testing.T) {
	fake, path, _ := multiAppFake(t, time.Hour)
	e := governedEnv(t, fake)
	r := testutil.Run(t, e, "", "exec", "-o", "json", "--auth", multiAuth(path, ""), `SELECT login FROM github.orgs.orgs WHERE org IN ('acme', 'scale-5')`)
	for _, want := range []string{`not sent: GitHub App 424242 has no installation on the account \"scale-5\"`, "install the app on scale-5", "acme, sprawl, tiny", `"retryable":false`} {
		if r.Code != 2 || !strings.Contains(r.Stdout+r.Stderr, want) {
			t.Fatalf("exit %d, want 2 and %q:\n%s%s", r.Code, want, r.Stdout, r.Stderr)
		}
	}
	for _, q := range fake.Requests() {
		if strings.Contains(q.Path, "scale-5") {
			t.Fatalf("a request was sent for the account without installation: %s", q.Path)
		}
	}
}

// A search names no account: it needs default_installation (or an app
// with one installation), and is then served by that installation.
func TestAppEveryInstallationSearch(t *testing.T) {
	fake, path, pemText := multiAppFake(t, time.Hour)
	e := governedEnv(t, fake)
	q := `SELECT full_name FROM github.search.repos WHERE q = 'org:tiny' ORDER BY full_name`
	r := testutil.Run(t, e, "", "exec", "-o", "json", "--auth", multiAuth(path, ""), q)
	if out := r.Stdout + r.Stderr; r.Code != 2 || !strings.Contains(out, "default_installation") || !strings.Contains(out, "GITHUB_APP_DEFAULT_INSTALLATION") {
		t.Fatalf("without a default: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = testutil.Run(t, e, "", "exec", "-o", "csv", "--auth", multiAuth(path, `,"default_installation":"Tiny"`), q)
	if r.Code != 0 || r.Stdout != "full_name\ntiny/alpha\ntiny/beta\ntiny/gamma\n" {
		t.Fatalf("with a default: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if n := fake.AppServed()[102][""]; n == 0 {
		t.Fatalf("the search was not served by tiny's installation: %v", fake.AppServed())
	}
	noAppSecrets(t, fake, pemText, r.Stdout+r.Stderr)
	r = testutil.Run(t, e, "", "exec", "-o", "json", "--auth", multiAuth(path, `,"default_installation":"nowhere"`), q)
	if r.Code != 2 || !strings.Contains(r.Stdout+r.Stderr, `no installation on \"nowhere\", its default_installation`) {
		t.Fatalf("an unknown default: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	// The environment variable names the default too.
	e2 := governedEnv(t, fake, "GITHUB_APP_ID=424242", "GITHUB_APP_PRIVATE_KEY_PATH="+path, "GITHUB_APP_DEFAULT_INSTALLATION=tiny")
	if r := testutil.Run(t, e2, "", "exec", "-o", "csv", q); r.Code != 0 || strings.Count(r.Stdout, "\n") != 4 {
		t.Fatalf("GITHUB_APP_DEFAULT_INSTALLATION: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// An app with a single installation needs no default.
func TestAppOnlyInstallationIsTheDefault(t *testing.T) {
	fake, path, _ := appFakeWith(t, fakegithub.App{Installations: []fakegithub.Installation{{ID: 102, Account: "tiny"}}})
	r := testutil.Run(t, governedEnv(t, fake), "", "exec", "-o", "csv", "--auth", multiAuth(path, ""), `SELECT full_name FROM github.search.repos WHERE q = 'org:tiny'`)
	if r.Code != 0 || strings.Count(r.Stdout, "\n") != 4 || fake.AppServed()[102][""] == 0 {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
