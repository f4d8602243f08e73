package secrets

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

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
