package mcp_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// manyRows is a statement of n rows, about 20 bytes each.
func manyRows(n int) string {
	return fmt.Sprintf("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT %d) SELECT x, 'row ' || x AS label FROM c", n)
}

// TestConcurrentHugeResultsBoundedMemory: three concurrent
// run_select_query calls whose SQL yields 300,000 rows each get 100 rows,
// the true row_count and a kept result to page, while the server's peak
// RSS stays under 100 MB. Before the fix every row was collected, then
// encoded to JSON before the keep-size check (8.3 GB for 3 x 10M rows; the
// bench row measures that case).
func TestConcurrentHugeResultsBoundedMemory(t *testing.T) {
	const n = 300_000
	fake := fakegithub.ForTest(t)
	c, pid, stderr := stdioServer(t, fake)
	start := time.Now()
	results := atOnce(3, func(int) mcptest.Result { return c.Query(t, manyRows(n)) })
	peak := vmHWM(t, pid)
	t.Logf("3 x %d rows: %v, server peak RSS %d MB", n, time.Since(start).Round(time.Millisecond), peak>>20)
	for i, r := range results {
		if r.IsError || r.RowCount != n || r.ReturnedRows != 100 || !r.Truncated || r.ResultID == "" {
			t.Fatalf("call %d: row_count %d, returned %d, truncated %v, id %q, error %+v\n%s", i, r.RowCount, r.ReturnedRows, r.Truncated, r.ResultID, r.Error, stderr)
		}
		if fmt.Sprint(r.Rows[0], r.Rows[99]) != "[1 row 1] [100 row 100]" {
			t.Fatalf("call %d rows: %v ... %v", i, r.Rows[0], r.Rows[99])
		}
	}
	p := c.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": results[2].ResultID, "offset": n - 2})
	if p.IsError || len(p.Rows) != 2 || p.Rows[1][0] != float64(n) || p.Rows[1][1] != fmt.Sprintf("row %d", n) || p.HasMore {
		t.Fatalf("last page: %+v", p)
	}
	if peak > 100<<20 {
		t.Fatalf("server peak RSS %d MB for 3 concurrent %d-row results, want under 100 MB", peak>>20, n)
	}
}

// TestResultTooLargeToKeep: a result whose encoded rows pass --keep-bytes
// still answers its first rows and true row_count, with no result_id and
// a notice that says to narrow the query.
func TestResultTooLargeToKeep(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil, "--keep-bytes", "100000")
	r := c.Query(t, manyRows(50_000))
	if r.IsError || r.RowCount != 50_000 || r.ReturnedRows != 100 || r.ResultID != "" ||
		!strings.Contains(r.Notice, "larger than the server keeps") || !strings.Contains(r.Notice, "narrow the query") {
		t.Fatalf("%+v", r)
	}
}

// TestHugeCellIsCutWithMarker: one 30 MB cell no longer bypasses
// mcp_max_bytes through the "at least one row" rule. With the default
// caps it is cut to 16 KiB in both the TSV text and structuredContent,
// ends with an explicit marker, the result says truncated with
// truncated_cells 1 and a notice naming the resource, and the kept
// result still holds the whole value. Before the fix the tool result
// carried the cell twice: about 60 MB. The value is past the default
// value limit (16 MiB), which --max-value-bytes raises.
func TestHugeCellIsCutWithMarker(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil, "--max-value-bytes", "40000000")
	sql := "SELECT 'head' AS a, hex(zeroblob(15000000)) AS big, 7 AS n"
	r, text, size := sizedQuery(t, c, sql)
	t.Logf("tool result: %d bytes of text + %d bytes of structuredContent", len(text), size-len(text))
	if size > 64<<10 {
		t.Fatalf("tool result of %d bytes for one huge cell, want under 64 KiB", size)
	}
	marker := "…[cut: 8192 of 30000000 bytes shown]"
	if r.IsError || len(r.Rows) != 1 || r.Rows[0][0] != "head" || r.Rows[0][2] != float64(7) {
		t.Fatalf("%+v", r)
	}
	big, _ := r.Rows[0][1].(string)
	if len(big) != 8192+len(marker) || !strings.HasSuffix(big, marker) || strings.Trim(big[:8192], "0") != "" {
		t.Fatalf("structured cell: %d bytes ending %q", len(big), big[max(len(big)-60, 0):])
	}
	if !strings.Contains(text, "\t"+strings.Repeat("0", 8192)+marker+"\t7\n") {
		t.Fatalf("TSV text does not hold the cut cell with its marker: %.200q", text)
	}
	if !r.Truncated || r.Raw["truncated_cells"] != float64(1) || r.ResultURI == "" ||
		!strings.Contains(r.Notice, "1 cell is longer than 8192 bytes") || !strings.Contains(r.Notice, r.ResultURI) {
		t.Fatalf("truncated %v, truncated_cells %v, notice %q", r.Truncated, r.Raw["truncated_cells"], r.Notice)
	}
	if !strings.Contains(text, r.Notice) {
		t.Fatalf("the text block does not carry the notice: %.300q", text[len(text)-min(len(text), 600):])
	}

	// Paging the kept result cuts the same way.
	p := c.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": r.ResultID})
	if cell, _ := p.Rows[0][1].(string); p.IsError || !strings.HasSuffix(cell, marker) || p.Raw["truncated_cells"] != float64(1) || !strings.Contains(p.Notice, "cut") {
		t.Fatalf("page: %d bytes, truncated_cells %v, notice %q", len(cell), p.Raw["truncated_cells"], p.Notice)
	}

	// The kept result holds the whole value: a 3 MB cell (the SDK
	// client's stdio frames stop at 16 MiB, so not the 30 MB one) is cut
	// in the tool result and whole in the resource.
	r = c.Query(t, "SELECT 'head' AS a, hex(zeroblob(1500000)) AS big, 7 AS n")
	if r.IsError || r.Raw["truncated_cells"] != float64(1) {
		t.Fatalf("%+v", r)
	}
	got, err := c.S.ReadResource(mcptest.Context(t), &mcp.ReadResourceParams{URI: r.ResultURI + "?format=csv"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "a,big,n\nhead," + strings.Repeat("0", 3_000_000) + ",7\n"; got.Contents[0].Text != want {
		t.Fatalf("resource: %d bytes, want %d", len(got.Contents[0].Text), len(want))
	}
}

// TestCellCapSetting: --max-cell-bytes sets the bound; -1 turns it off.
func TestCellCapSetting(t *testing.T) {
	fake := fakegithub.ForTest(t)
	sql := map[string]any{"sql": "SELECT 'é' || hex(zeroblob(50)) AS v"}
	c, _ := stdioClient(t, fake, nil, "--max-cell-bytes", "10")
	r := c.Call(t, mcptest.Context(t), "run_select_query", sql)
	if v, _ := r.Rows[0][0].(string); v != "é00000000…[cut: 10 of 102 bytes shown]" || r.Raw["truncated_cells"] != float64(1) {
		t.Fatalf("cap 10: %q %v", v, r.Raw["truncated_cells"])
	}
	c, _ = stdioClient(t, fake, []string{"ENGINE_MCP_MAX_CELL_BYTES=-1"})
	r = c.Call(t, mcptest.Context(t), "run_select_query", sql)
	if v, _ := r.Rows[0][0].(string); v != "é"+strings.Repeat("0", 100) || r.Truncated || r.Raw["truncated_cells"] != nil {
		t.Fatalf("no cap: %q %+v", v, r)
	}
}

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
	c, _ := stdioClient(t, fake, nil, "--max-bytes", "-1")
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
	first := c.Call(t, mcptest.Context(t), "run_select_query", q)
	if first.IsError || stat(first.Raw, "fetched") != 3 || stat(first.Raw, "revalidated") != 0 {
		t.Fatalf("first call: %v", first.Raw["stats"])
	}
	fake.ResetRequests()
	second := c.Call(t, mcptest.Context(t), "run_select_query", q)
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
