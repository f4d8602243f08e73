package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
)

// Entity tables over MCP (issue 12): a column the table does not have is
// an isError result of kind plan before any request; a success names, in
// stats.methods, the API method each table was read with.
func TestEntityTablesOverMCP(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	ctx := context.Background()

	fake.ResetRequests()
	r := c.Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT login, contributions FROM github.repos.repos WHERE owner = 'tiny' AND repo = 'gamma'"})
	if !r.IsError || r.Error == nil || r.Error.Kind != "plan" || !strings.Contains(r.Error.Message, "no such column: login") ||
		!strings.Contains(r.Error.Message, "github.repos.contributors") {
		t.Fatalf("unknown column: %+v %+v", r.IsError, r.Error)
	}
	if n := apiRequests(fake); n != 0 {
		t.Fatalf("%d requests before the refusal", n)
	}

	r = c.Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT login, contributions FROM github.repos.contributors WHERE owner = 'tiny' AND repo = 'gamma' ORDER BY login"})
	if r.IsError || r.RowCount != 2 || r.Rows[0][0] != "tiny-dev-01" {
		t.Fatalf("contributors: %+v %v", r.Error, r.Rows)
	}
	stats, _ := r.Raw["stats"].(map[string]any)
	methods, _ := stats["methods"].([]any)
	if len(methods) != 1 || methods[0] != "github.repos.contributors: GET /repos/{owner}/{repo}/contributors" {
		t.Fatalf("stats.methods = %v", stats["methods"])
	}
}
