package secrets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// TestGitHubAppJWTNeverPrinted: a token endpoint that refuses the app's
// JWT (here: the app's key is not the one GitHub knows) and quotes the
// request's Authorization header in its 401. The JWT mints tokens for
// every installation of the app while it is valid; it must appear in no
// output of exec (every format, --debug), check (every report format and
// the job summary) or MCP. Before, it was in exec's stderr and twice in
// `check -o github`.
func TestGitHubAppJWTNeverPrinted(t *testing.T) {
	t.Parallel()
	_, keyPath, _ := testutil.RSAKey(t)
	other, _, _ := testutil.RSAKey(t)
	fake := fakegithub.ForTest(t, fakegithub.WithApp(fakegithub.App{AppID: 99, InstallationID: 5, PublicKey: &other.PublicKey, EchoJWT: true}))
	auth := `{"github":{"type":"app","app_id":99,"installation_id":5,"private_key_path":"` + keyPath + `"}}`
	dir := t.TempDir()
	file := filepath.Join(dir, "controls.yaml")
	if err := os.WriteFile(file, []byte(controls), 0o600); err != nil {
		t.Fatal(err)
	}
	e := testutil.FakeEnv(t, fake.URL(), "GITHUB_STEP_SUMMARY="+filepath.Join(dir, "step-summary.md"))
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
		r := out.run("check "+format, testutil.Run(t, e, "", "--auth", auth, "check", "-o", format, file))
		if r.Code != 2 {
			t.Errorf("check -o %s: exit %d, want 2", format, r.Code)
		}
	}
	testutil.Contains(t, "check github", out.items["check github stdout"], "A JSON web token could not be decoded")
	c, cs, stderr := mcptest.Stdio(t, e, "--debug", "--auth", auth, "mcp")
	c.Check(t, "run_select_query", out.callTool(t, cs, "mcp", "run_select_query", map[string]any{"sql": okSQL}))
	cs.Close()
	out.add("mcp stderr", stderr.String())
	out.addDir(t, "summary", dir)

	jwts := fake.AppSecrets()
	if len(jwts) < 10 || fake.AppTokensMinted() != 0 {
		t.Fatalf("%d JWTs presented, %d tokens minted: the scan would be vacuous", len(jwts), fake.AppTokensMinted())
	}
	total := 0
	for label, text := range out.items {
		total += len(text)
		for _, s := range jwts {
			if strings.Contains(text, s) {
				t.Errorf("the app's JWT in %s", label)
				break
			}
		}
		// The JWT's signature alone is as good as the JWT to a reader who
		// also sees the (public) header and claims.
		for _, s := range jwts {
			if sig := s[strings.LastIndex(s, ".")+1:]; strings.Contains(text, sig) {
				t.Errorf("the JWT's signature in %s", label)
				break
			}
		}
	}
	if total < 5000 {
		t.Errorf("only %d bytes scanned", total)
	}
	t.Logf("scanned %d outputs, %d bytes, for %d JWTs", len(out.items), total, len(jwts))
}
