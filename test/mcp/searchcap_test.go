package mcp_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
)

// A search matching more than the 1,000 results GitHub serves (the fake's
// org "sprawl": 2,500) answers every row through run_select_query, split
// by created: ranges; code search, which cannot be split, is an error
// result of kind incomplete, never 1,000 rows.
func TestSearchOverCap(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	r := c.QueryBounded(t, "SELECT count(*) AS n, count(DISTINCT id) AS d FROM github.search.repos WHERE q = 'org:sprawl'")
	if r.IsError || len(r.Rows) != 1 || r.Rows[0][0] != float64(fakegithub.SprawlRepos) || r.Rows[0][1] != float64(fakegithub.SprawlRepos) {
		t.Fatalf("split search: error %+v rows %v", r.Error, r.Rows)
	}
	stats, _ := r.Raw["stats"].(map[string]any)
	if parts, _ := stats["parts"].(float64); parts < 2 {
		t.Errorf("stats %v: want the split's parts", stats)
	}
	r = c.QueryBounded(t, "SELECT count(*) AS n FROM github.search.code WHERE q = 'org:sprawl'")
	if !r.IsError || r.Error == nil || r.Error.Kind != engine.KindIncomplete || r.Error.Retryable ||
		!strings.Contains(r.Error.Message, "2500") || !strings.Contains(r.Error.Message, "first 1000") || len(r.Rows) != 0 {
		t.Fatalf("code search: want an incomplete error result, got %+v rows %v", r.Error, r.Rows)
	}
	if strings.Contains(r.Error.Message, "--") {
		t.Errorf("the MCP error names a CLI flag: %q", r.Error.Message)
	}
}
