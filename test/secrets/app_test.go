package secrets

import (
	"os"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// appFake starts a fake serving GitHub App 99 (installation 5 unless app
// lists its installations) with the further settings of app, and returns
// it with the file and PEM text of a fresh private key; the fake knows
// that key unless app.PublicKey names another.
func appFake(t *testing.T, app fakegithub.App) (*fakegithub.Server, string, string) {
	t.Helper()
	key, keyPath, pemText := testutil.RSAKey(t)
	app.AppID = 99
	if app.Installations == nil {
		app.InstallationID = 5
	}
	if app.PublicKey == nil {
		app.PublicKey = &key.PublicKey
	}
	return fakegithub.ForTest(t, fakegithub.WithApp(app)), keyPath, pemText
}

// appAuth is --auth for installation 5 of app 99 with the key at keyPath.
func appAuth(keyPath string) string {
	return `{"github":{"type":"app","app_id":99,"installation_id":5,"private_key_path":"` + keyPath + `"}}`
}

// TestGitHubAppSecretsNeverPrinted runs exec (table, JSON, --debug) and
// MCP with GitHub App auth against a fake that echoes the installation
// token in a 403, and scans every output for any installation token the
// fake issued, any JWT it was shown, and any line of the private key.
func TestGitHubAppSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	fake, keyPath, pemText := appFake(t, fakegithub.App{EchoPath: echoPath})
	auth := appAuth(keyPath)
	e := testutil.FakeEnv(t, fake.URL())
	var out outputs
	for _, args := range [][]string{
		{"exec", "--debug", okSQL},
		{"exec", "-o", "json", okSQL},
		{"exec", "--debug", echoSQL},
		{"exec", "-o", "json", echoSQL},
	} {
		r := out.run(strings.Join(args, " "), testutil.Run(t, e, "", append([]string{"--auth", auth}, args...)...))
		if wantErr := strings.Contains(strings.Join(args, " "), "members"); (r.Code != 0) != wantErr {
			t.Fatalf("%v: exit %d\n%.1000s", args, r.Code, r.Stderr)
		}
	}
	c, cs, stderr := mcptest.Stdio(t, e, "--debug", "--auth", auth, "mcp")
	for _, sql := range []string{okSQL, echoSQL} {
		c.Check(t, "run_select_query", out.callTool(t, cs, "mcp "+sql, "run_select_query", map[string]any{"sql": sql}))
	}
	cs.Close() // waits for the server to exit (mcp.CommandTransport), so its stderr is complete
	out.add("mcp stderr", stderr.String())

	secrets := fake.AppSecrets()
	if len(secrets) < 2 || fake.AppTokensMinted() < 5 {
		t.Fatalf("%d secrets, %d tokens minted: the scan would be vacuous", len(secrets), fake.AppTokensMinted())
	}
	out.assertAbsent(t, "a GitHub App secret (token, JWT or key)", append(secrets, keyLines(pemText)...), 20000)
	testutil.Contains(t, "exec echo", out.items["exec --debug "+echoSQL+" stderr"], "Resource not accessible by integration", "[REDACTED]")
}

// A GitHub App private key file that other users can read is used (the
// statement runs) with one warning on stderr that says how to fix it, as
// ssh does: per process, whether the key comes from --auth or
// GITHUB_APP_PRIVATE_KEY_PATH, in exec, check and a long-lived MCP server.
// A private key file (0600) gets no warning.
func TestGitHubAppKeyReadableByOthersWarnedOnce(t *testing.T) {
	t.Parallel()
	fake, keyPath, _ := appFake(t, fakegithub.App{})
	auth := appAuth(keyPath)
	appEnv := []string{"GITHUB_APP_ID=99", "GITHUB_APP_INSTALLATION_ID=5", "GITHUB_APP_PRIVATE_KEY_PATH=" + keyPath}
	const warning = "is accessible to other users (mode 0644)"
	controls := testutil.TempFile(t, "controls.yaml", "controls:\n  - id: a\n    sql: "+okSQL+"\n    expect: nonempty\n  - id: b\n    sql: SELECT name FROM github.repos.repos WHERE org = 'acme' AND name = 'ghost'\n")

	runs := func(t *testing.T) map[string]string {
		out := map[string]string{}
		e := testutil.FakeEnv(t, fake.URL())
		for label, args := range map[string][]string{
			"exec --auth":   {"--auth", auth, "exec", "-o", "csv", okSQL},
			"check --auth":  {"--auth", auth, "check", controls},
			"exec --debug":  {"--debug", "--auth", auth, "exec", okSQL},
			"exec env vars": {"exec", okSQL},
			"exec twice IN": {"--auth", auth, "exec", "SELECT name FROM github.repos.repos WHERE org IN ('acme', 'tiny')"},
		} {
			env := e
			if label == "exec env vars" {
				env = testutil.FakeEnv(t, fake.URL(), appEnv...)
			}
			r := testutil.Run(t, env, "", args...)
			if r.Code != 0 {
				t.Fatalf("%s: exit %d\n%s", label, r.Code, r.Stderr)
			}
			out[label] = r.Stderr
		}
		c, cs, stderr := mcptest.Stdio(t, e, "--auth", auth, "mcp")
		for i := 0; i < 3; i++ {
			if r := c.Query(t, okSQL); r.IsError {
				t.Fatalf("mcp: %+v", r.Error)
			}
		}
		cs.Close()
		out["mcp"] = stderr.String()
		return out
	}

	if err := os.Chmod(keyPath, 0o644); err != nil {
		t.Fatal(err)
	}
	for label, stderr := range runs(t) {
		if n := strings.Count(stderr, warning); n != 1 {
			t.Errorf("%s: the warning printed %d times, want once:\n%s", label, n, stderr)
		}
		testutil.Contains(t, label, stderr, "warning: the GitHub App private key "+keyPath+" "+warning, "chmod 600 "+keyPath)
	}
	if err := os.Chmod(keyPath, 0o600); err != nil {
		t.Fatal(err)
	}
	for label, stderr := range runs(t) {
		if strings.Contains(stderr, "warning") {
			t.Errorf("%s: a warning for a private key file:\n%s", label, stderr)
		}
	}
}

// An app over every installation (no installation_id): the JWT that lists
// the installations and the token of each installation are scrubbed from
// every output, including an error that echoes one, and a listing
// refused with the JWT echoed (a key of another app) shows none of it.
func TestGitHubAppEveryInstallationSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	fake, keyPath, pemText := appFake(t, fakegithub.App{EchoPath: echoPath, EchoJWT: true,
		Installations: []fakegithub.Installation{{ID: 5, Account: "acme"}, {ID: 6, Account: "tiny"}, {ID: 7, Account: "sprawl"}}})
	_, wrongKey, _ := testutil.RSAKey(t)
	auth := func(path string) string {
		return `{"github":{"type":"app","app_id":99,"private_key_path":"` + path + `","default_installation":"tiny"}}`
	}
	e := testutil.FakeEnv(t, fake.URL())
	three := `SELECT login FROM github.orgs.orgs WHERE org IN ('acme', 'tiny', 'sprawl')`
	search := `SELECT full_name FROM github.search.repos WHERE q = 'org:tiny'`
	var out outputs
	for _, args := range [][]string{
		{"--auth", auth(keyPath), "exec", "--debug", three},
		{"--auth", auth(keyPath), "exec", "-o", "json", search},
		{"--auth", auth(keyPath), "exec", "--debug", echoSQL},
		{"--auth", auth(keyPath), "exec", "-o", "json", echoSQL},
		{"--auth", auth(wrongKey), "exec", "--debug", three},
		{"--auth", auth(wrongKey), "exec", "-o", "json", three},
	} {
		label := strings.Join(args[2:], " ")
		if strings.Contains(args[1], wrongKey) {
			label = "wrong key " + label
		}
		r := out.run(label, testutil.Run(t, e, "", args...))
		wantErr := strings.Contains(label, "members") || strings.HasPrefix(label, "wrong key")
		if (r.Code != 0) != wantErr {
			t.Fatalf("%s: exit %d\n%.1000s", label, r.Code, r.Stdout+r.Stderr)
		}
	}
	c, cs, stderr := mcptest.Stdio(t, e, "--debug", "--auth", auth(keyPath), "mcp")
	for _, sql := range []string{three, search, echoSQL} {
		c.Check(t, "run_select_query", out.callTool(t, cs, "mcp "+sql, "run_select_query", map[string]any{"sql": sql}))
	}
	cs.Close()
	out.add("mcp stderr", stderr.String())

	secrets := fake.AppSecrets()
	for _, id := range []int64{5, 6, 7} {
		if fake.AppTokensMintedFor(id) < 2 {
			t.Fatalf("installation %d minted %d tokens: the scan would be vacuous", id, fake.AppTokensMintedFor(id))
		}
	}
	out.assertAbsent(t, "a GitHub App secret (token, JWT or key)", append(secrets, keyLines(pemText)...), 0)
	testutil.Contains(t, "exec echo", out.items["exec --debug "+echoSQL+" stderr"], "Resource not accessible by integration", "[REDACTED]")
	testutil.Contains(t, "wrong key", out.items["wrong key exec --debug "+three+" stderr"], "could not list the GitHub App's installations", "[REDACTED]")
}

// TestGitHubAppJWTNeverPrinted: a token endpoint that refuses the app's
// JWT (here: the app's key is not the one GitHub knows) and quotes the
// request's Authorization header in its 401. The JWT mints tokens for
// every installation of the app while it is valid; it must appear in no
// output of exec (every format, --debug), check (every report format and
// the job summary) or MCP. Before, it was in exec's stderr and twice in
// `check -o github`.
func TestGitHubAppJWTNeverPrinted(t *testing.T) {
	t.Parallel()
	other, _, _ := testutil.RSAKey(t)
	fake, keyPath, _ := appFake(t, fakegithub.App{PublicKey: &other.PublicKey, EchoJWT: true})
	auth := appAuth(keyPath)
	files := writeControls(t, controls)
	e := testutil.FakeEnv(t, fake.URL(), "GITHUB_STEP_SUMMARY="+files.Summary)
	var out outputs
	for _, format := range []string{"table", "json", "csv", "line"} {
		for _, debug := range []string{"--debug", "--debug=false"} {
			r := out.run("exec "+format+" "+debug, testutil.Run(t, e, "", "--auth", auth, debug, "exec", "-o", format, okSQL))
			if r.Code != 2 {
				t.Errorf("exec -o %s %s: exit %d, want 2 (no installation token)\n%s", format, debug, r.Code, r.Stderr)
			}
			testutil.Contains(t, "exec "+format, r.Stderr, "A JSON web token could not be decoded", "[REDACTED]")
		}
	}
	for _, format := range []string{"text", "json", "junit", "github"} {
		r := out.run("check "+format, testutil.Run(t, e, "", "--auth", auth, "check", "-o", format, files.Controls))
		if r.Code != 2 {
			t.Errorf("check -o %s: exit %d, want 2", format, r.Code)
		}
	}
	testutil.Contains(t, "check github", out.items["check github stdout"], "A JSON web token could not be decoded")
	c, cs, stderr := mcptest.Stdio(t, e, "--debug", "--auth", auth, "mcp")
	c.Check(t, "run_select_query", out.callTool(t, cs, "mcp", "run_select_query", map[string]any{"sql": okSQL}))
	cs.Close()
	out.add("mcp stderr", stderr.String())
	out.addDir(t, "summary", files.Dir)

	jwts := fake.AppSecrets()
	if len(jwts) < 10 || fake.AppTokensMinted() != 0 {
		t.Fatalf("%d JWTs presented, %d tokens minted: the scan would be vacuous", len(jwts), fake.AppTokensMinted())
	}
	out.assertAbsent(t, "the app's JWT", jwts, 5000)
	// The JWT's signature alone is as good as the JWT to a reader who
	// also sees the (public) header and claims.
	var sigs []string
	for _, s := range jwts {
		sigs = append(sigs, s[strings.LastIndex(s, ".")+1:])
	}
	out.assertAbsent(t, "the JWT's signature", sigs, 5000)
}
