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
	key, path, pemText := testutil.RSAKey(t)
	fake := fakegithub.ForTest(t, fakegithub.WithApp(fakegithub.App{AppID: appID, InstallationID: installationID, PublicKey: &key.PublicKey, TokenTTL: ttl}))
	return fake, path, pemText
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
