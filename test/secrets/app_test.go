package secrets

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// TestGitHubAppSecretsNeverPrinted runs exec (table, JSON, --debug) and
// MCP with GitHub App auth against a fake that echoes the installation
// token in a 403, and scans every output for any installation token the
// fake issued, any JWT it was shown, and any line of the private key.
func TestGitHubAppSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	key, keyPath, pemText := testutil.RSAKey(t)
	fake := fakegithub.ForTest(t, fakegithub.WithApp(fakegithub.App{AppID: 99, InstallationID: 5, PublicKey: &key.PublicKey, EchoPath: echoPath}))
	auth := `{"github":{"type":"app","app_id":99,"installation_id":5,"private_key_path":"` + keyPath + `"}}`
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
	for _, line := range strings.Split(pemText, "\n") {
		if len(line) > 20 && !strings.HasPrefix(line, "-----") {
			secrets = append(secrets, line)
		}
	}
	total := 0
	for label, text := range out.items {
		total += len(text)
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("a GitHub App secret (token, JWT or key) in %s", label)
			}
		}
	}
	testutil.Contains(t, "exec echo", out.items["exec --debug "+echoSQL+" stderr"], "Resource not accessible by integration", "[REDACTED]")
	if total < 20000 {
		t.Errorf("only %d bytes scanned", total)
	}
	t.Logf("scanned %d outputs, %d bytes, for %d secrets", len(out.items), total, len(secrets))
}
