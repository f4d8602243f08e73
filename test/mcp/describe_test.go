package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tiktoken-go/tokenizer"

	"github.com/enginehq/engine/test/testutil"
)

// toolText calls a discovery tool and returns its text block.
func toolText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("%s %v: %v %+v", tool, args, err, res)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return text
}

// TestDiscoveryDescriptionsAndBudget (docs/mcp.md): describe_resource shows
// the table's summary and each column's description; list_resources of
// every table fits a small token budget (o200k tokens, printed with -v and
// in docs/mcp.md), and one service's list carries each table's summary.
func TestDiscoveryDescriptionsAndBudget(t *testing.T) {
	_, c := fakeClient(t)
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	tokens := func(s string) int {
		ids, _, _ := enc.Encode(s)
		return len(ids)
	}

	d := toolText(t, c.S, "describe_resource", map[string]any{"resource": "github.repos.repos"})
	if !testutil.Contains(t, "describe_resource", d,
		"# github.repos.repos: Repository.",
		"column\ttype\tdescription\n",
		"archived\tBOOLEAN\tWhether the repository is archived.\n",
		"default_branch\tTEXT\tThe default branch of the repository.\n",
	) {
		t.FailNow()
	}

	all := toolText(t, c.S, "list_resources", nil)
	repos := toolText(t, c.S, "list_resources", map[string]any{"service": "repos"})
	t.Logf("list_resources: every table %d bytes, %d tokens; service=repos %d bytes, %d tokens; describe_resource github.repos.repos %d tokens",
		len(all), tokens(all), len(repos), tokens(repos), tokens(d))
	if !strings.Contains(all, "github.search: code, commits,") || !strings.Contains(all, "# 371 tables in 49 services") {
		t.Fatalf("list_resources:\n%s", all)
	}
	if n := tokens(all); n > 2500 {
		t.Fatalf("list_resources of every table is %d tokens; budget 2500", n)
	}
	if !strings.Contains(repos, "github.repos.contributors\t1\tContributor. List repository contributors") {
		t.Fatalf("list_resources service=repos:\n%s", repos)
	}
	if n := tokens(repos); n > 2500 {
		t.Fatalf("list_resources service=repos is %d tokens; budget 2500", n)
	}
}

// Entity tables over MCP (docs/mcp.md): a column the table does not have is
// an isError result of kind plan before any request; a success names, in
// stats.methods, the API method each table was read with.
func TestEntityTablesOverMCP(t *testing.T) {
	fake, c := fakeClient(t)
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
