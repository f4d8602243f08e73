package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tiktoken-go/tokenizer"

	"github.com/enginehq/engine/test/fakegithub"
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

// TestDiscoveryDescriptionsAndBudget (issue 12): describe_resource shows
// the table's summary and each column's description; list_resources of
// every table fits a small token budget (o200k tokens, printed with -v and
// in docs/mcp.md), and one service's list carries each table's summary.
func TestDiscoveryDescriptionsAndBudget(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
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
