package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// TestExecNeverPrintsToken: every format, successes and every error kind,
// EXPLAIN, discovery, with and without --debug.
func TestExecNeverPrintsToken(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	var out outputs
	e := env(t, fake)
	stmts := map[string]string{
		"ok":       okSQL,
		"explain":  "EXPLAIN " + okSQL,
		"show":     "SHOW RESOURCES IN github.repos",
		"describe": "DESCRIBE github.repos.repos",
		"echo 403": echoSQL,
		"sql":      "SELECT nope( FROM github.repos.repos WHERE org = 'acme'",
		"plan":     "SELECT * FROM github.actions.workflow_runs",
		"404":      "SELECT name FROM github.repos.repos WHERE org = 'no-such-org'",
	}
	for name, sql := range stmts {
		for _, format := range []string{"table", "json", "csv", "tsv", "line"} {
			for _, debug := range []bool{false, true} {
				args := []string{"exec", "-o", format, sql}
				if debug {
					args = append([]string{"--debug"}, args...)
				}
				label := name + "/" + format
				r := out.run(label, testutil.Run(t, e, "", args...))
				switch name {
				case "ok", "explain", "show", "describe":
					if r.Code != 0 {
						t.Errorf("%s: exit %d %s", label, r.Code, r.Stderr)
					}
				case "echo 403":
					if r.Code != 2 {
						t.Errorf("%s: exit %d", label, r.Code)
					}
					testutil.Contains(t, label, r.Stderr, "Resource not accessible")
				}
				if debug && (name == "ok" || name == "echo 403") {
					testutil.Contains(t, label+" --debug", r.Stderr, "debug: GET ")
				}
			}
		}
	}
	// The response cache on disk, when it is on.
	cache := filepath.Join(t.TempDir(), "cache")
	ce := env(t, fake, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+cache)
	for i := 0; i < 2; i++ {
		if r := out.run("cached", testutil.Run(t, ce, "", "exec", "-o", "json", okSQL)); r.Code != 0 {
			t.Fatalf("cached run: %d %s", r.Code, r.Stderr)
		}
		out.run("cached echo", testutil.Run(t, ce, "", "exec", echoSQL))
	}
	if n := out.addDir(t, "cache file", cache); n == 0 {
		t.Error("the cache wrote no files; nothing to scan")
	}
	out.run("registry list", testutil.Run(t, e, "", "registry", "list"))
	out.run("registry list debug", testutil.Run(t, e, "", "--debug", "registry", "list"))
	// A base URL carrying the token as its password, by the flag or the
	// variable, is refused before anything is sent, without showing it
	// (registry list used to print it in its base_url column).
	withUser := strings.Replace(fake.URL(), "://", "://x-access-token:"+token+"@", 1)
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"--base-url", "github=" + withUser, "registry", "list"}},
		{nil, []string{"--base-url", "github=" + withUser, "exec", okSQL}},
		{[]string{"ENGINE_BASE_URL_GITHUB=" + withUser}, []string{"registry", "list", "-o", "json"}},
	} {
		label := "base URL with credentials: " + strings.Join(c.args, " ")
		r := out.run(label, testutil.Run(t, env(t, fake, c.env...), "", c.args...))
		if r.Code != 1 || !strings.Contains(r.Stderr, "carries no credentials") {
			t.Errorf("%s: exit %d, want 1 and a refusal\n%s%s", label, r.Code, r.Stdout, r.Stderr)
		}
	}
	assertSent(t, fake)
	out.assertClean(t, 100_000)
}

// TestMCPNeverPrintsToken calls every tool (successes and error results),
// reads a result resource, and scans the raw JSON of every answer and the
// server's --debug stderr.
func TestMCPNeverPrintsToken(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	var out outputs
	c, cs, stderr := mcptest.Stdio(t, env(t, fake), "--debug", "mcp")
	call := func(label, tool string, args map[string]any) mcptest.Result {
		t.Helper()
		return c.Check(t, tool, out.callTool(t, cs, "mcp "+label, tool, args))
	}
	call("list_providers", "list_providers", map[string]any{})
	call("list_services", "list_services", map[string]any{})
	call("list_resources", "list_resources", map[string]any{"provider": "github", "service": "repos"})
	call("describe_resource", "describe_resource", map[string]any{"resource": "github.repos.repos"})
	ok := call("select", "run_select_query", map[string]any{"sql": okSQL})
	if ok.IsError || ok.RowCount != 250 || ok.ResultID == "" {
		t.Fatalf("select: %+v", ok)
	}
	call("page", "fetch_result_page", map[string]any{"result_id": ok.ResultID, "offset": 100})
	out.readResource(t, cs, "mcp resource", ok.ResultURI)
	call("explain", "run_select_query", map[string]any{"sql": "EXPLAIN " + okSQL})
	call("describe", "run_select_query", map[string]any{"sql": "DESCRIBE github.orgs.members"})
	echo := call("echo 403", "run_select_query", map[string]any{"sql": echoSQL})
	if !echo.IsError || echo.Error.HTTPStatus != 403 || !strings.Contains(echo.Error.Message, "Resource not accessible") {
		t.Errorf("echo: %+v", echo)
	}
	for label, sql := range map[string]string{
		"sql error":  "DROP TABLE x",
		"plan error": "SELECT * FROM github.actions.workflow_runs",
		"404":        "SELECT name FROM github.repos.repos WHERE org = 'no-such-org'",
	} {
		if r := call(label, "run_select_query", map[string]any{"sql": sql}); !r.IsError {
			t.Errorf("%s: no error", label)
		}
	}
	call("bad page", "fetch_result_page", map[string]any{"result_id": "nope"})
	cs.Close()
	s := stderr.String()
	testutil.Contains(t, "mcp --debug stderr", s, "debug: GET ")
	out.add("mcp stderr", s)
	assertSent(t, fake)
	out.assertClean(t, 10_000)
}

// leakySQL reads a repository whose description (data, not an error)
// echoes the token.
const leakySQL = "SELECT name, description FROM github.repos.repos WHERE org = 'leaky'"

func leakyFake(t *testing.T) *fakegithub.Server {
	t.Helper()
	fake := newFake(t)
	body := `[{"id": 7, "name": "leaky-repo", "full_name": "leaky/leaky-repo", "description": "deploy with ` + token + ` please"}]`
	fake.Inject(fakegithub.Fault{Path: "^/orgs/leaky/repos$", Kind: fakegithub.KindBody, Body: body})
	return fake
}

// TestRowsNeverPrintToken: a token echoed in a row value is scrubbed from
// exec (every format), the shell and MCP results (structured content, the
// TSV text and the kept result resource).
func TestRowsNeverPrintToken(t *testing.T) {
	t.Parallel()
	fake := leakyFake(t)
	var out outputs
	e := env(t, fake)
	for _, format := range []string{"table", "json", "csv", "tsv", "line"} {
		r := out.run("exec "+format, testutil.Run(t, e, "", "exec", "-o", format, leakySQL))
		if r.Code != 0 {
			t.Fatalf("exec -o %s: exit %d %s", format, r.Code, r.Stderr)
		}
		testutil.Contains(t, "exec "+format, r.Stdout, "leaky-repo", "[REDACTED]")
	}
	r := out.run("shell", testutil.Run(t, e, leakySQL+";\n.mode json\n"+leakySQL+";\n", "shell"))
	testutil.Contains(t, "shell", r.Stdout, "leaky-repo", "[REDACTED]")
	// SQL cannot bring it back: the rows hold [REDACTED] itself, so no
	// function of the value (hex, upper, base64) shows the token in
	// another form (before: only the output was redacted)
	transformed := "SELECT hex(description) AS h, upper(description) AS u, base64_encode(description) AS b, replace(description, 'SECRETS', 'S') AS r FROM github.repos.repos WHERE org = 'leaky'"
	r = out.run("exec transformed", testutil.Run(t, e, "", "exec", "-o", "json", transformed))
	for _, form := range []string{strings.ToUpper(hex.EncodeToString([]byte(token))), strings.ToUpper(token), base64.StdEncoding.EncodeToString([]byte("deploy with " + token)), strings.Replace(token, "SECRETS", "S", 1)} {
		if r.Code != 0 || strings.Contains(r.Stdout, form[4:len(form)-4]) {
			t.Errorf("the token comes back through SQL (%.12s...): exit %d\n%s", form, r.Code, r.Stdout)
		}
	}

	c, cs, stderr := mcptest.Stdio(t, e, "mcp")
	res := out.callTool(t, cs, "mcp", "run_select_query", map[string]any{"sql": leakySQL})
	testutil.Contains(t, "mcp", out.items["mcp"], "leaky-repo", "[REDACTED]")
	if got := c.Check(t, "run_select_query", res); got.ResultURI != "" {
		out.readResource(t, cs, "mcp resource", got.ResultURI)
	}
	out.add("mcp stderr", stderr.String())
	assertSent(t, fake)
	out.assertClean(t, 1_500)
}

// cutMessage places the token so that a 300-byte cut of the message splits
// it 10 bytes in: cutting before redacting would leak "ghp_SECRET".
var cutMessage = strings.Repeat("x", 290) + token + " (echoed by the provider)"

const (
	cutSQL   = `SELECT login FROM github.orgs.members WHERE org = 'tiny'`
	retrySQL = `SELECT name FROM github.teams.teams WHERE org = 'tiny'`
	shortSQL = `SELECT id FROM github.orgs.webhooks WHERE org = 'tiny'`
)

// newCutFake answers three endpoints with the token in the error message:
// a 403 whose message is cut at the token, a retryable 502 with the same
// message (the --debug retry lines print it), and a retryable 502 with a
// short message holding the whole token.
func newCutFake(t *testing.T) *fakegithub.Server {
	t.Helper()
	fake := fakegithub.ForTest(t, fakegithub.WithToken(token))
	fake.Inject(fakegithub.Fault{Path: "^/orgs/tiny/members$", Kind: fakegithub.KindStatus, Status: 403, Message: cutMessage})
	fake.Inject(fakegithub.Fault{Path: "^/orgs/tiny/teams$", Kind: fakegithub.KindStatus, Status: 502, Message: cutMessage})
	fake.Inject(fakegithub.Fault{Path: "^/orgs/tiny/hooks$", Kind: fakegithub.KindStatus, Status: 502, Message: "upstream rejected token " + token})
	return fake
}

// TestTokenCutByTruncationNeverLeaks: docs/reliability.md, "Secrets". exec (every format,
// with --debug and its retry lines), check and MCP.
func TestTokenCutByTruncationNeverLeaks(t *testing.T) {
	t.Parallel()
	fake := newCutFake(t)
	var out outputs
	// Deliberately not FastRetry: retrySQL's fault is retried, so that the
	// --debug retry lines are scanned too.
	e := env(t, fake, testutil.RetryOnce...)
	for _, sql := range []string{cutSQL, retrySQL, shortSQL} {
		for _, format := range []string{"table", "json"} {
			r := out.run("exec "+format+" "+sql, testutil.Run(t, e, "", "--debug", "exec", "-o", format, sql))
			if r.Code != 2 {
				t.Errorf("%s: exit %d", sql, r.Code)
			}
		}
	}
	// The scan is not vacuous: the message reached the outputs, redacted,
	// and the retry was logged.
	all := strings.Join(func() []string {
		var s []string
		for _, v := range out.items {
			s = append(s, v)
		}
		return s
	}(), "\n")
	testutil.Contains(t, "exec outputs", all, "xxxxxxxxxx", "retrying in", "upstream rejected token [REDACTED]")

	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	ctl := "controls:\n"
	for i, sql := range []string{cutSQL, retrySQL, shortSQL} {
		ctl += "  - id: c" + string(rune('0'+i)) + "\n    title: t\n    sql: " + sql + "\n"
	}
	if err := os.WriteFile(file, []byte(ctl), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json"} {
		if r := out.run("check "+format, testutil.Run(t, e, "", "--debug", "check", "-o", format, file)); r.Code != 2 {
			t.Errorf("check %s: exit %d", format, r.Code)
		}
	}

	_, cs, stderr := mcptest.Stdio(t, e, "--debug", "mcp")
	for _, sql := range []string{cutSQL, retrySQL, shortSQL} {
		if res := out.callTool(t, cs, "mcp "+sql, "run_select_query", map[string]any{"sql": sql}); !res.IsError {
			t.Errorf("mcp %s: not an error", sql)
		}
	}
	cs.Close()
	out.add("mcp stderr", stderr.String())
	assertSent(t, fake)
	out.assertNoPrefix(t, 5_000)
}

// A token given where the name of its variable belongs (credentialsenvvar)
// is refused without being repeated: the error would land in CI logs
// (before: "environment variable ghp_... is empty or unset").
func TestTokenAsVariableNameNeverPrinted(t *testing.T) {
	t.Parallel()
	auth := `{"github":{"type":"bearer","credentialsenvvar":"` + token + `"}}`
	r := testutil.Run(t, env(t, newFake(t)), "", "exec", "--auth", auth, "SELECT name FROM github.repos.repos WHERE org = 'tiny'")
	if r.Code != 1 || !strings.Contains(r.Stderr, "looks like a token") || strings.Contains(r.Stdout+r.Stderr, token[4:]) {
		t.Errorf("exit %d, want 1 and a refusal that does not repeat the token\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
