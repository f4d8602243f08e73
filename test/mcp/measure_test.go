package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// jsonObjects renders rows as a compact JSON array of objects.
func jsonObjects(t *testing.T, r mcptest.Result) string {
	cols := make([]result.Column, len(r.Columns))
	for i, c := range r.Columns {
		cols[i] = result.Column{Name: c.Name, Type: c.Type}
	}
	b, err := result.CompactJSON(cols, r.Rows)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTSVVersusJSONSize measures the text block of 100-row results of
// github.repos.repos against the same rows as a JSON array of objects.
// Run with -v to see the figures.
func TestTSVVersusJSONSize(t *testing.T) {
	fake := fakegithub.ForTest(t)
	// The default byte budget keeps about a third of SELECT *'s wide rows;
	// lift it to measure all 100.
	c, _ := stdioClient(t, fake, nil, "--max-bytes", "0")
	for _, m := range []struct {
		sql      string
		maxRatio float64
	}{
		{"SELECT * FROM github.repos.repos WHERE org = 'acme' LIMIT 100", 0.8},
		{"SELECT name, private, language, stargazers_count, updated_at FROM github.repos.repos WHERE org = 'acme' LIMIT 100", 0.5},
	} {
		r := c.Query(t, m.sql)
		if r.IsError || len(r.Rows) != 100 || r.Truncated {
			t.Fatalf("rows %d truncated %t", len(r.Rows), r.Truncated)
		}
		tsv, js := len(r.Text), len(jsonObjects(t, r))
		ratio := float64(tsv) / float64(js)
		t.Logf("100 rows x %d columns: TSV text %d bytes (~%d tokens at chars/4); JSON array of objects %d bytes (~%d tokens); TSV/JSON = %.0f%%",
			len(r.Columns), tsv, tsv/4, js, js/4, 100*ratio)
		if ratio > m.maxRatio {
			t.Fatalf("TSV/JSON = %.2f; want <= %.2f", ratio, m.maxRatio)
		}
	}
}

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
