package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/fakegithub"
)

// TestHugeCellIsCutWithMarker: one 30 MB cell no longer bypasses
// mcp_max_bytes through the "at least one row" rule. With the default
// caps it is cut to 16 KiB in both the TSV text and structuredContent,
// ends with an explicit marker, the result says truncated with
// truncated_cells 1 and a notice naming the resource, and the kept
// result still holds the whole value. Before the fix the tool result
// carried the cell twice: about 60 MB.
func TestHugeCellIsCutWithMarker(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	sql := "SELECT 'head' AS a, hex(zeroblob(15000000)) AS big, 7 AS n"
	res, err := c.S.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_select_query", Arguments: map[string]any{"sql": sql}})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	text := res.Content[0].(*mcp.TextContent).Text
	t.Logf("tool result: %d bytes of text + %d bytes of structuredContent", len(text), len(sc))
	if len(text)+len(sc) > 64<<10 {
		t.Fatalf("tool result of %d bytes for one huge cell, want under 64 KiB", len(text)+len(sc))
	}
	r := c.Check(t, "run_select_query", res)
	marker := "…[cut: 16384 of 30000000 bytes shown]"
	if r.IsError || len(r.Rows) != 1 || r.Rows[0][0] != "head" || r.Rows[0][2] != float64(7) {
		t.Fatalf("%+v", r)
	}
	big, _ := r.Rows[0][1].(string)
	if len(big) != 16384+len(marker) || !strings.HasSuffix(big, marker) || strings.Trim(big[:16384], "0") != "" {
		t.Fatalf("structured cell: %d bytes ending %q", len(big), big[max(len(big)-60, 0):])
	}
	if !strings.Contains(text, "\t"+strings.Repeat("0", 16384)+marker+"\t7\n") {
		t.Fatalf("TSV text does not hold the cut cell with its marker: %.200q", text)
	}
	if !r.Truncated || r.Raw["truncated_cells"] != float64(1) || r.ResultURI == "" ||
		!strings.Contains(r.Notice, "1 cell is longer than 16384 bytes") || !strings.Contains(r.Notice, r.ResultURI) {
		t.Fatalf("truncated %v, truncated_cells %v, notice %q", r.Truncated, r.Raw["truncated_cells"], r.Notice)
	}
	if !strings.Contains(text, r.Notice) {
		t.Fatalf("the text block does not carry the notice: %.300q", text[len(text)-min(len(text), 600):])
	}

	// Paging the kept result cuts the same way.
	p := c.Call(t, context.Background(), "fetch_result_page", map[string]any{"result_id": r.ResultID})
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
	got, err := c.S.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: r.ResultURI + "?format=csv"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "a,big,n\nhead," + strings.Repeat("0", 3_000_000) + ",7\n"; got.Contents[0].Text != want {
		t.Fatalf("resource: %d bytes, want %d", len(got.Contents[0].Text), len(want))
	}
}

// TestCellCapSetting: --max-cell-bytes sets the bound; 0 turns it off.
func TestCellCapSetting(t *testing.T) {
	fake := fakegithub.ForTest(t)
	sql := map[string]any{"sql": "SELECT 'é' || hex(zeroblob(50)) AS v"}
	c, _ := stdioClient(t, fake, nil, "--max-cell-bytes", "10")
	r := c.Call(t, context.Background(), "run_select_query", sql)
	if v, _ := r.Rows[0][0].(string); v != "é00000000…[cut: 10 of 102 bytes shown]" || r.Raw["truncated_cells"] != float64(1) {
		t.Fatalf("cap 10: %q %v", v, r.Raw["truncated_cells"])
	}
	c, _ = stdioClient(t, fake, []string{"ENGINE_MCP_MAX_CELL_BYTES=0"})
	r = c.Call(t, context.Background(), "run_select_query", sql)
	if v, _ := r.Rows[0][0].(string); v != "é"+strings.Repeat("0", 100) || r.Truncated || r.Raw["truncated_cells"] != nil {
		t.Fatalf("no cap: %q %+v", v, r)
	}
}
