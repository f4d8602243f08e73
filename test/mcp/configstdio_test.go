package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// readmeConfig is the README's sample config file (section
// "Configuration"), with its base URL pointed at url: the test runs the
// sample as written, so the README cannot show one that stops a server.
func readmeConfig(t *testing.T, url string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)You can also keep any of these settings in a config file.*?```yaml\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("README: no sample config after \"You can also keep any of these settings in a config file\"")
	}
	cfg := string(m[1])
	for _, key := range []string{"oauth-issuer:", "oauth-resource:", "base-url:"} {
		if !strings.Contains(cfg, "\n"+key) && !strings.HasPrefix(cfg, key) {
			t.Fatalf("the README's sample config has no %s line:\n%s", key, cfg)
		}
	}
	cfg = regexp.MustCompile(`(?m)^base-url: .*$`).ReplaceAllString(cfg, "base-url: {github: "+url+"}")
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStdioStartsWithHTTPSettingsInConfig: the config file is shared by
// both transports, so HTTP-only authorization settings in it (the
// README's sample has oauth-issuer and oauth-resource; tokens-file from
// the environment likewise) do not stop `engine mcp` over stdio: it
// serves, and says once on stderr which settings it does not use. Given
// on the stdio command line, such a flag is still refused, naming it
// (docs/mcp.md, "Server settings").
func TestStdioStartsWithHTTPSettingsInConfig(t *testing.T) {
	fake := fakegithub.ForTest(t)
	cfg := readmeConfig(t, fake.URL())
	env := testutil.FastEnv(t, "ENGINE_CONFIG="+cfg, "ENGINE_MCP_TOKENS_FILE="+filepath.Join(t.TempDir(), "tokens"), "GHE_TOKEN=t0ken")
	c, _, stderr := mcptest.Stdio(t, env, serverArgs...)
	r := c.Call(t, context.Background(), "run_select_query", map[string]any{"sql": "SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name"})
	if r.IsError || r.RowCount != 3 {
		t.Fatalf("stdio server with the README's config: %+v\nstderr: %s", r.Error, stderr)
	}
	log := stderr.String()
	for _, want := range []string{"over stdio these settings are not used", cfg + ": oauth-issuer", cfg + ": oauth-resource", "ENGINE_MCP_TOKENS_FILE"} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr lacks %q:\n%s", want, log)
		}
	}

	// On the stdio command line, an authorization flag is a mistake.
	r2 := testutil.Run(t, env, "", append(append([]string{}, serverArgs...), "--oauth-issuer", "https://login.example.com/")...)
	if r2.Code != 1 || !strings.Contains(r2.Stderr, "--oauth-issuer: authorization is for HTTP clients") || strings.Contains(r2.Stderr, "oauth-resource") {
		t.Fatalf("exit %d, want 1 naming --oauth-issuer alone:\n%s", r2.Code, r2.Stderr)
	}
}
