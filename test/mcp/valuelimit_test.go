package mcp_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// TestValueLimitBoundsMemoryPerCell: a 36-character expression that
// makes a 200 MB value is an SQL error naming max-value-bytes, and four
// concurrent calls with values just under the default limit (8 MiB) keep
// the server's peak RSS in the low hundreds of MB, not GB. Before the
// fix SQLite's length limit was its 1e9 default, each cell was copied
// whole into the tool's head rows and encoded whole by the spool before
// its byte cap was checked: one call took the server from 24 MB to 1.5
// GB, four at SQLite's maximum to 21 GB. docs/reliability.md has the
// figures.
func TestValueLimitBoundsMemoryPerCell(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, pid, stderr := stdioServer(t, fake)

	r := c.Query(t, "SELECT hex(zeroblob(100000000))")
	if !r.IsError || r.Error == nil || r.Error.Kind != engine.KindSQL ||
		!strings.Contains(r.Error.Message, "max-value-bytes") || !strings.Contains(r.Error.Message, "8388608") {
		t.Fatalf("200 MB value: %+v\n%s", r.Error, stderr)
	}
	one := vmHWM(t, pid)
	t.Logf("one 200 MB value refused: server peak RSS %d MB", one>>20)

	// Just under the limit: 8,000,000 characters each, four at once.
	results := atOnce(4, func(int) mcptest.Result { return c.Query(t, "SELECT 'head' AS a, hex(zeroblob(4000000)) AS big") })
	for i, r := range results {
		big := ""
		if len(r.Rows) == 1 {
			big, _ = r.Rows[0][1].(string)
		}
		if r.IsError || !strings.HasSuffix(big, "…[cut: 8192 of 8000000 bytes shown]") {
			t.Fatalf("call %d: %+v", i, r.Error)
		}
	}
	peak := vmHWM(t, pid)
	t.Logf("four concurrent 8 MB values: server peak RSS %d MB", peak>>20)
	if one > 200<<20 {
		t.Fatalf("peak RSS %d MB after a refused 200 MB value, want under 200 MB", one>>20)
	}
	if peak > 400<<20 {
		t.Fatalf("peak RSS %d MB for four concurrent 8 MB values, want under 400 MB", peak>>20)
	}
}

// TestValueLimitSetting: --max-value-bytes (ENGINE_MAX_VALUE_BYTES)
// lowers and raises the bound.
func TestValueLimitSetting(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, []string{"ENGINE_MAX_VALUE_BYTES=1000"})
	r := c.Query(t, "SELECT hex(zeroblob(600)) AS v")
	if !r.IsError || r.Error.Kind != engine.KindSQL || !strings.Contains(r.Error.Message, "longer than 1000 bytes") {
		t.Fatalf("%+v", r.Error)
	}
	if r := c.Query(t, "SELECT hex(zeroblob(400)) AS v"); r.IsError {
		t.Fatalf("%+v", r.Error)
	}
	c, _ = stdioClient(t, fake, nil, "--max-value-bytes", "40000000")
	if r := c.Query(t, "SELECT length(hex(zeroblob(15000000))) AS v"); r.IsError || r.Rows[0][0] != float64(30000000) {
		t.Fatalf("%+v", r)
	}
}

// TestResultResourceBounded: reading a kept result as a resource renders
// it into a bounded buffer; a result that renders longer than
// --max-resource-bytes is refused with a message pointing to
// fetch_result_page, and two concurrent reads of a large kept result keep
// the server's peak RSS bounded. A page of the same result holds at most
// the byte cap plus one row. Before the fix every resource read decoded
// and rendered the whole result in memory (two concurrent reads of a 220
// MB result: 2.75 GB) and fetch_result_page decoded every row of the page
// whole before cutting.
func TestResultResourceBounded(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, pid, stderr := stdioServer(t, fake)

	// 100 rows of 1 MB: 100 MB kept.
	r := c.Query(t, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 100) SELECT x, hex(zeroblob(500000)) AS big FROM c")
	if r.IsError || r.ResultURI == "" || r.RowCount != 100 {
		t.Fatalf("%+v\n%s", r, stderr)
	}
	base := vmHWM(t, pid)
	errs := atOnce(2, func(int) error {
		_, err := c.Read(t, r.ResultURI+"?format=csv")
		return err
	})
	for i, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "fetch_result_page(result_id=\""+r.ResultID+"\"") || !strings.Contains(err.Error(), "mcp_max_resource_bytes") {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	// A page of 1 MB rows under the 256 KiB byte cap: rows are cut to
	// 16 KiB as they are read, so the page holds all 100 of its rows'
	// cut cells, not 100 MB.
	p := c.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": r.ResultID, "limit": 100})
	if p.IsError || p.ReturnedRows == 0 || p.Raw["truncated_cells"] == nil {
		t.Fatalf("page: %+v", p)
	}
	peak := vmHWM(t, pid)
	t.Logf("kept 100 MB; two resource reads and a page: peak RSS %d MB (%d MB before)", peak>>20, base>>20)
	if peak > base+100<<20 {
		t.Fatalf("peak RSS %d MB after reading a 100 MB result (%d MB before), want under 100 MB more", peak>>20, base>>20)
	}

	// A small result is served whole.
	small := c.Query(t, "SELECT 1 AS n, 'a' AS s")
	got, err := c.Read(t, small.ResultURI+"?format=csv")
	if err != nil || got.Contents[0].Text != "n,s\n1,a\n" {
		t.Fatalf("small resource: %v %+v", err, got)
	}
}

// TestEveryResultBounded: the one row a result always shows is bounded
// too: 60 cells of 100 KB each, cut at the cell cap, would still be 2 MB
// of tool result (TSV and JSON); the first row's cells are cut shorter so
// that the result stays near mcp_max_bytes, and the notice says at what
// length. Before the fix only each cell was bounded.
func TestEveryResultBounded(t *testing.T) {
	_, c := fakeClient(t)
	cols := make([]string, 60)
	for i := range cols {
		cols[i] = "hex(zeroblob(50000)) AS c" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	r, text, size := sizedQuery(t, c, "SELECT "+strings.Join(cols, ", "))
	t.Logf("one row of 60 x 100 KB cells: %d bytes of text + %d of structuredContent", len(text), size-len(text))
	if size > 300<<10 {
		t.Fatalf("tool result of %d bytes, want near the 256 KiB byte cap", size)
	}
	if r.IsError || len(r.Rows) != 1 || r.Raw["truncated_cells"] != float64(60) || !strings.Contains(r.Notice, "60 cells are longer than") {
		t.Fatalf("%+v", r.Notice)
	}
}
