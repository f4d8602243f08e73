package mcp_test

import (
	"context"
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
		r := c.Call(t, context.Background(), "run_select_query", map[string]any{"sql": m.sql})
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
