package secrets

import (
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

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
