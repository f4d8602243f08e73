package orgscale

import (
	"fmt"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// TestKeptResultsServePaging: on a server that keeps 8 results, another
// client's 10 fully shown results (a count each) do not evict the page a
// first client is still reading: results seen whole go first. (Which
// session's result goes next, the busiest session's, is
// mcpsurface.TestStoreFairEviction's: these clients speak the stateless
// protocol, which has no session.)
func TestKeptResultsServePaging(t *testing.T) {
	fake := fakegithub.ForTest(t)
	e := testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN="+token)
	endpoint, log := mcptest.StartHTTP(t, e, "--keep-results", "8", "--max-rows", "5")
	reader, busy := mcptest.ConnectHTTP(t, endpoint), mcptest.ConnectHTTP(t, endpoint)
	res := reader.QueryBounded(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name")
	if res.IsError || res.ResultID == "" || !res.Truncated {
		t.Fatalf("the reader's result: %+v", res)
	}
	page := func(when string) {
		t.Helper()
		p := reader.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": res.ResultID, "offset": 100, "limit": 5})
		if p.IsError || len(p.Rows) != 5 {
			t.Fatalf("paging the reader's result after %s: %+v\nserver log:\n%s", when, p, log)
		}
	}
	for i := 0; i < 10; i++ {
		if r := busy.QueryBounded(t, fmt.Sprintf("SELECT count(*) + %d FROM github.repos.repos WHERE org = 'tiny'", i)); r.IsError || r.Truncated {
			t.Fatalf("a count: %+v", r)
		}
	}
	page("10 fully shown results of another client")
}
