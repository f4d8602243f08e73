package secrets

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
		mustContain(t, "exec "+format, r.Stdout, "leaky-repo", "[REDACTED]")
	}
	r := out.run("shell", testutil.Run(t, e, leakySQL+";\n.mode json\n"+leakySQL+";\n", "shell"))
	mustContain(t, "shell", r.Stdout, "leaky-repo", "[REDACTED]")

	c, cs, stderr := mcptest.Stdio(t, e, "mcp")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_select_query", Arguments: map[string]any{"sql": leakySQL}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	out.add("mcp", string(raw))
	mustContain(t, "mcp", string(raw), "leaky-repo", "[REDACTED]")
	if got := c.Check(t, "run_select_query", res); got.ResultURI != "" {
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: got.ResultURI})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(rr)
		out.add("mcp resource", string(raw))
	}
	out.add("mcp stderr", stderr.String())
	assertSent(t, fake)
	out.assertClean(t, 1_500)
}
