package check

import (
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestConfigMaxRowsIsNotShadowedByMCPVariable: the config file's max-rows
// sets check's --max-rows even when ENGINE_MCP_MAX_ROWS (the variable of
// mcp's --max-rows) is set. The environment of a flag comes from one
// table now; before, config.go guessed ENGINE_X and ENGINE_MCP_X for any
// flag named x, so the MCP variable silently disabled check's setting.
func TestConfigMaxRowsIsNotShadowedByMCPVariable(t *testing.T) {
	s := fakegithub.ForTest(t)
	cfg := writeFile(t, "config.yaml", "max-rows: 1\n")
	controls := writeFile(t, "c.yaml", "controls:\n  - id: tiny-repos\n    sql: SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name\n")
	for _, extra := range [][]string{nil, {"ENGINE_MCP_MAX_ROWS=7"}} {
		env := testutil.FakeEnv(t, s.URL(), append([]string{"ENGINE_CONFIG=" + cfg}, extra...)...)
		r := runCheck(t, env, controls, "-o", "json")
		rep := parseJSON(t, r)
		if r.Code != 1 || len(rep.Controls) != 1 || rep.Controls[0].RowCount == nil || *rep.Controls[0].RowCount != 3 || len(rep.Controls[0].Rows) != 1 {
			t.Fatalf("env %v: exit %d\n%s\n%s", extra, r.Code, r.Stdout, r.Stderr)
		}
	}
}
