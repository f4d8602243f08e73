package hostile

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// hugeCursorSQL reads the org whose next link carries an 8 MiB cursor.
const hugeCursorSQL = "SELECT name FROM github.repos.repos WHERE org = 'scale-1000'"

func hugeCursorServer(t *testing.T) *fakegithub.Server {
	t.Helper()
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/scale-1000/repos$", Kind: fakegithub.KindLinkHugeCursor})
	return fake
}

// TestErrorsBounded: a server whose next link carries an 8 MiB cursor
// (the next request is then refused, 431) makes an error whose URL is
// elided in the middle: exec's JSON and text errors and the MCP error
// result stay a few KB, keep the URL's origin and path, and say how much
// was elided. Before the fix the whole URL was quoted: 8.4 MB of exec
// error text and a 16.8 MB MCP error result (mcp_max_bytes capped only
// successes).
func TestErrorsBounded(t *testing.T) {
	fake := hugeCursorServer(t)
	env := testutil.FakeEnv(t, fake.URL())
	check := func(label, text string) {
		t.Helper()
		t.Logf("%s: %d bytes", label, len(text))
		if len(text) > 16<<10 {
			t.Fatalf("%s: %d bytes of error, want under 16 KiB: %.300s", label, len(text), text)
		}
		if !strings.Contains(text, "/orgs/scale-1000/repos") || !strings.Contains(text, "bytes elided]") {
			t.Fatalf("%s: the error does not name the request with its URL elided: %.600s", label, text)
		}
	}

	r := testutil.Run(t, env, "", "exec", "-o", "json", hugeCursorSQL)
	if r.Code != 2 || errorOf(t, r.Stderr).Kind != engine.KindProvider {
		t.Fatalf("exec -o json: exit %d: %.300s", r.Code, r.Stderr)
	}
	check("exec -o json stderr", r.Stderr)
	r = testutil.Run(t, env, "", "exec", hugeCursorSQL)
	if r.Code != 2 {
		t.Fatalf("exec: exit %d: %.300s", r.Code, r.Stderr)
	}
	check("exec stderr", r.Stderr)

	cmd := exec.Command(testutil.EngineBinary(t), "mcp")
	cmd.Env = env
	c, _, _ := mcptest.StartStdio(t, cmd)
	res, err := c.S.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_select_query", Arguments: map[string]any{"sql": hugeCursorSQL}})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError {
		t.Fatalf("no error: %.300s", text)
	}
	check("MCP error result (text + structuredContent)", text+string(sc))
	if out := c.Check(t, "run_select_query", res); out.Error.Kind != engine.KindProvider {
		t.Fatalf("%+v", out.Error)
	}
}
