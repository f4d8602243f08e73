package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
)

// TestStatsReportRevalidations: with the response cache on (default:
// revalidate every entry), a repeated query is answered 304 for every
// page, and structuredContent.stats says so (fetched vs revalidated), as
// does the summary line.
func TestStatsReportRevalidations(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, []string{"ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR=" + t.TempDir()})
	q := map[string]any{"sql": `SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme'`}
	stat := func(raw map[string]any, name string) float64 {
		st, _ := raw["stats"].(map[string]any)
		v, ok := st[name].(float64)
		if !ok {
			t.Fatalf("stats.%s missing: %v", name, raw["stats"])
		}
		return v
	}
	first := c.Call(t, context.Background(), "run_select_query", q)
	if first.IsError || stat(first.Raw, "fetched") != 3 || stat(first.Raw, "revalidated") != 0 {
		t.Fatalf("first call: %v", first.Raw["stats"])
	}
	fake.ResetRequests()
	second := c.Call(t, context.Background(), "run_select_query", q)
	if second.IsError || stat(second.Raw, "fetched") != 0 || stat(second.Raw, "revalidated") != 3 || stat(second.Raw, "http_requests") != 3 {
		t.Fatalf("second call: %v", second.Raw["stats"])
	}
	for _, r := range fake.Requests() {
		if r.Status != 304 {
			t.Fatalf("repeat request answered %d, want 304", r.Status)
		}
	}
	if !strings.Contains(second.Text, "3 revalidated") {
		t.Fatalf("summary line without the revalidations:\n%s", second.Text)
	}
}
