package mcp_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// vmHWM is a process's peak resident set in bytes (Linux /proc).
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	n, err := testutil.VmHWM(pid)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

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
	cmd := exec.Command(testutil.EngineBinary(t), serverArgs...)
	cmd.Env = testutil.FakeEnv(t, fake.URL())
	c, _, stderr := mcptest.StartStdio(t, cmd) // the pid is measured
	start := time.Now()
	var wg sync.WaitGroup
	results := make([]mcptest.Result, 3)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = c.Query(t, manyRows(n))
		}()
	}
	wg.Wait()
	peak := vmHWM(t, cmd.Process.Pid)
	t.Logf("3 x %d rows: %v, server peak RSS %d MB", n, time.Since(start).Round(time.Millisecond), peak>>20)
	for i, r := range results {
		if r.IsError || r.RowCount != n || r.ReturnedRows != 100 || !r.Truncated || r.ResultID == "" {
			t.Fatalf("call %d: row_count %d, returned %d, truncated %v, id %q, error %+v\n%s", i, r.RowCount, r.ReturnedRows, r.Truncated, r.ResultID, r.Error, stderr)
		}
		if fmt.Sprint(r.Rows[0], r.Rows[99]) != "[1 row 1] [100 row 100]" {
			t.Fatalf("call %d rows: %v ... %v", i, r.Rows[0], r.Rows[99])
		}
	}
	p := c.Call(t, context.Background(), "fetch_result_page", map[string]any{"result_id": results[2].ResultID, "offset": n - 2})
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
