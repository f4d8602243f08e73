package secrets

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/mcp/mcptest"
)

// TestMCPNeverPrintsToken calls every tool (successes and error results),
// reads a result resource, and scans the raw JSON of every answer and the
// server's --debug stderr.
func TestMCPNeverPrintsToken(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	var out outputs
	c, cs, stderr := mcptest.Stdio(t, env(t, fake), "--debug", "mcp")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	call := func(label, tool string, args map[string]any) mcptest.Result {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		raw, _ := json.Marshal(res)
		out.add("mcp "+label, string(raw))
		return c.Check(t, tool, res)
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
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: ok.ResultURI})
	if err != nil {
		t.Fatalf("read %s: %v", ok.ResultURI, err)
	}
	raw, _ := json.Marshal(rr)
	out.add("mcp resource", string(raw))
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
	mustContain(t, "mcp --debug stderr", s, "debug: GET ")
	out.add("mcp stderr", s)
	assertSent(t, fake)
	out.assertClean(t, 10_000)
}
