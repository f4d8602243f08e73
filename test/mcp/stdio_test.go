package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

const acme = "SELECT name FROM github.repos.repos WHERE org = 'acme'"

func TestStdioBinary(t *testing.T) {
	fake := fakegithub.ForTest(t, fakegithub.WithRepos("scale-5000", 5000))
	c, stderr := stdioClient(t, fake, nil)
	ctx := context.Background()
	q := func(sql string) map[string]any { return map[string]any{"sql": sql} }

	r := c.Call(t, ctx, "run_select_query", q(acme+" LIMIT 150"))
	if r.IsError || len(r.Rows) != 100 || r.RowCount != 150 || !r.Truncated {
		t.Fatalf("LIMIT 150: rows %d of %d truncated %t", len(r.Rows), r.RowCount, r.Truncated)
	}
	r = c.Call(t, ctx, "run_select_query", q("SELECT name FROM github.repos.repos WHERE org = 'scale-5000'"))
	if r.IsError || len(r.Rows) != 100 || r.RowCount != 5000 || !r.Truncated {
		t.Fatalf("scale-5000: rows %d of %d truncated %t", len(r.Rows), r.RowCount, r.Truncated)
	}
	r = c.Call(t, ctx, "run_select_query", q(acme+" AND name = 'none'"))
	if r.IsError || r.RowCount != 0 {
		t.Fatalf("0 rows: %+v", r)
	}

	// Paging the 250-row result: every row once, no API request.
	full := c.Call(t, ctx, "run_select_query", q(acme))
	before := apiRequests(fake)
	seen := map[any]bool{}
	for off := 0; ; {
		p := c.Call(t, ctx, "fetch_result_page", map[string]any{"result_id": full.ResultID, "offset": off})
		for _, row := range p.Rows {
			if seen[row[0]] {
				t.Fatalf("%v twice", row[0])
			}
			seen[row[0]] = true
		}
		off += len(p.Rows)
		if !p.HasMore {
			break
		}
	}
	if len(seen) != 250 || apiRequests(fake) != before {
		t.Fatalf("paged %d rows with %d API requests", len(seen), apiRequests(fake)-before)
	}

	// Faults on a later page: an error, never rows.
	for _, f := range []fakegithub.Fault{
		{Kind: fakegithub.KindRateLimit, RetryAfter: 1800},
		{Kind: fakegithub.KindStatus, Status: 404},
		{Kind: fakegithub.KindStatus, Status: 502},
	} {
		fake.ClearFaults()
		f.Path, f.Page = "^/orgs/acme/repos$", 2
		fake.Inject(f)
		r := c.Call(t, ctx, "run_select_query", q(acme))
		want := map[fakegithub.FaultKind]int{fakegithub.KindRateLimit: 403}[f.Kind]
		if want == 0 {
			want = f.Status
		}
		if !r.IsError || r.Error.HTTPStatus != want || r.Error.Provider != "github" || r.Error.Retryable != (want != 404) {
			t.Fatalf("%s: %+v", f.Kind, r.Error)
		}
		if f.Kind == fakegithub.KindRateLimit && r.Error.RetryAfterSeconds < 1000 {
			t.Fatalf("retry_after_seconds %d", r.Error.RetryAfterSeconds)
		}
	}
	fake.ClearFaults()
	if !strings.Contains(stderr.String(), " tokens=") {
		t.Fatalf("no token log on stderr: %s", stderr)
	}
}

func TestStdioEnvCaps(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, []string{"ENGINE_MCP_MAX_ROWS=7"})
	r := c.Query(t, acme)
	if len(r.Rows) != 7 || r.RowCount != 250 || !r.Truncated {
		t.Fatalf("rows %d of %d", len(r.Rows), r.RowCount)
	}
	c, _ = stdioClient(t, fake, nil, "--max-rows", "-1")
	if r := c.Query(t, acme); len(r.Rows) != 250 || r.Truncated {
		t.Fatalf("--max-rows -1: rows %d truncated %t", len(r.Rows), r.Truncated)
	}
}

// TestStdioRawFrames pipes raw frames (CRLF, garbage) into the binary:
// stdout holds only JSON-RPC responses, garbage gets a parse error, and
// the query after it is answered.
func TestStdioRawFrames(t *testing.T) {
	fake := fakegithub.ForTest(t)
	out, stderr := mcptest.RawStdio(t, testutil.FakeEnv(t, fake.URL()), []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{{{ not json`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_select_query","arguments":{"sql":"SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme'"}}}`,
	}, "\r\n", serverArgs...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("stdout:\n%s", out)
	}
	var parseErr, answer map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout line not JSON: %q", l)
		}
		switch m["id"] {
		case nil:
			parseErr = m
		case float64(2):
			answer = m
		}
	}
	if parseErr == nil || fmt.Sprint(parseErr["error"].(map[string]any)["code"]) != "-32700" {
		t.Fatalf("no parse error: %s", out)
	}
	sc, _ := json.Marshal(answer["result"].(map[string]any)["structuredContent"])
	if !strings.Contains(string(sc), `"rows":[[250]]`) {
		t.Fatalf("answer: %s", sc)
	}
	if !strings.Contains(stderr, "rejected stdio frame") {
		t.Fatalf("stderr: %s", stderr)
	}
}

// readmeConfig is the README's sample config file (section
// "Configuration"), with its base URL pointed at url: the test runs the
// sample as written, so the README cannot show one that stops a server.
func readmeConfig(t *testing.T, url string) string {
	t.Helper()
	b := testutil.RepoFile(t, "README.md")
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
	return testutil.TempFile(t, "config.yaml", cfg)
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
