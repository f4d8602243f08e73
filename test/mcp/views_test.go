package mcp_test

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// TestViewsOverMCP: a view created with engine exec is listed by
// list_resources and SHOW VIEWS and read by run_select_query, its WHERE
// key binding through (tiny's list only); the server does not create or
// drop views.
func TestViewsOverMCP(t *testing.T) {
	fake, env := fakeEnv(t)
	if r := testutil.Run(t, env, "", "exec", "CREATE VIEW repo_langs AS SELECT org, name, language FROM github.repos.repos"); r.Code != 0 {
		t.Fatalf("CREATE VIEW: exit %d\n%s", r.Code, r.Stderr)
	}
	c, _, _ := mcptest.Stdio(t, env, serverArgs...)

	res := c.CallRaw(t, "list_resources", map[string]any{})
	text := ""
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	if res.IsError || !strings.Contains(text, "\nview\tquery\nrepo_langs\tSELECT org, name, language FROM github.repos.repos\n") {
		t.Fatalf("list_resources does not list the view:\n%s", text)
	}

	// describe_resource describes a view by its name, as DESCRIBE does
	// (before: "expected provider.service.resource")
	d := c.CallRaw(t, "describe_resource", map[string]any{"resource": "repo_langs"})
	dtext := ""
	for _, ct := range d.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			dtext = tc.Text
		}
	}
	if d.IsError || !strings.Contains(dtext, "# view repo_langs: SELECT org, name, language") || !strings.Contains(dtext, "language") || !strings.Contains(dtext, "org") {
		t.Fatalf("describe_resource of a view:\n%s", dtext)
	}

	fake.ResetRequests()
	q := c.Query(t, "SELECT name FROM repo_langs WHERE org = 'tiny' ORDER BY name")
	if q.IsError || q.RowCount != 3 || q.Rows[0][0] != "alpha" {
		t.Fatalf("SELECT from the view: %+v\n%s", q.Error, q.Text)
	}
	for _, r := range fake.Requests() {
		if r.Path != "/orgs/tiny/repos" && r.Path != "/rate_limit" {
			t.Errorf("request outside tiny's list: %s", r.Path)
		}
	}
	if q = c.Query(t, "SHOW VIEWS"); q.IsError || q.RowCount != 1 {
		t.Fatalf("SHOW VIEWS: %+v\n%s", q.Error, q.Text)
	}
	for _, sql := range []string{"DROP VIEW repo_langs", "CREATE OR REPLACE VIEW repo_langs AS SELECT 1"} {
		q = c.Query(t, sql)
		if !q.IsError || q.Error == nil || q.Error.Kind != "usage" || !strings.Contains(q.Error.Message, "engine exec or engine shell") {
			t.Fatalf("%s over MCP: %+v", sql, q.Error)
		}
	}
	if r := testutil.Run(t, env, "", "exec", "-o", "csv", "SHOW VIEWS"); !strings.Contains(r.Stdout, "repo_langs,") {
		t.Fatalf("the view is gone after the MCP session: %s%s", r.Stdout, r.Stderr)
	}
}
