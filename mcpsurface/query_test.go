package mcpsurface_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/mcpsurface"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

const acmeNames = "SELECT name FROM github.repos.repos WHERE org = 'acme'"

func checkCapped(t *testing.T, r mcptest.Result, want, total int) {
	t.Helper()
	if len(r.Rows) != want || r.ReturnedRows != want || r.RowCount != total || !r.Truncated {
		t.Fatalf("rows %d returned %d row_count %d truncated %t; want %d of %d truncated", len(r.Rows), r.ReturnedRows, r.RowCount, r.Truncated, want, total)
	}
	if !strings.Contains(r.Notice, fmt.Sprintf("Showing %d of %d rows", want, total)) || !strings.Contains(r.Notice, "in SQL") || !strings.Contains(r.Notice, "fetch_result_page") {
		t.Fatalf("notice does not steer to SQL or paging: %q", r.Notice)
	}
	_, lines, summary := mcptest.TSVLines(r.Text)
	if len(lines) != want || !strings.HasPrefix(summary, "# Showing") {
		t.Fatalf("TSV has %d rows, summary %q", len(lines), summary)
	}
}

func TestRowCap(t *testing.T) {
	e := newEnv(t, envOpts{caps: defaultCaps(), fake: []fakegithub.Option{fakegithub.WithRepos("scale-5000", 5000)}})
	checkCapped(t, e.ok(t, "SELECT name, private FROM github.repos.repos WHERE org = 'acme' LIMIT 150"), 100, 150)
	r := e.ok(t, "SELECT name FROM github.repos.repos WHERE org = 'scale-5000'")
	checkCapped(t, r, 100, 5000)
	if r.Stats.Pages != 50 || r.Stats.HTTPRequests != 50 {
		t.Fatalf("stats %+v; want 50 pages", r.Stats)
	}
	if r.ResultURI != mcpsurface.ResultURI(r.ResultID) || r.ResultID == "" {
		t.Fatalf("result_uri %q id %q", r.ResultURI, r.ResultID)
	}
}

func TestOwnLimitNotTruncated(t *testing.T) {
	e := newEnv(t, envOpts{caps: defaultCaps()})
	r := e.ok(t, acmeNames+" LIMIT 5")
	if r.Truncated || r.RowCount != 5 || len(r.Rows) != 5 || r.Notice != "" {
		t.Fatalf("%+v", r)
	}
	if r.Rows[0][0] != "repo-249" {
		t.Fatalf("first row %v", r.Rows[0])
	}
}

func TestNoCap(t *testing.T) {
	e := newEnv(t, envOpts{caps: mcpsurface.Caps{MaxRows: 0, MaxBytes: mcpsurface.DefaultMaxBytes}})
	r := e.ok(t, acmeNames)
	if r.Truncated || r.RowCount != 250 || len(r.Rows) != 250 {
		t.Fatalf("rows %d of %d truncated %t", len(r.Rows), r.RowCount, r.Truncated)
	}
}

func TestByteBudgetKeepsOneRow(t *testing.T) {
	e := newEnv(t, envOpts{caps: defaultCaps()})
	// tiny has 3 repos: three rows of 200 KiB bodies.
	r := e.ok(t, "SELECT name, printf('%.204800c', 'x') AS body FROM github.repos.repos WHERE org = 'tiny'")
	if len(r.Rows) != 1 || r.RowCount != 3 || !r.Truncated {
		t.Fatalf("rows %d of %d truncated %t", len(r.Rows), r.RowCount, r.Truncated)
	}
	if body, _ := r.Rows[0][1].(string); len(body) != 204800 {
		t.Fatalf("kept row was cut: %d bytes", len(body))
	}
	// Rows of 60 KiB: the budget (256 KiB over TSV + JSON) keeps 2.
	r = e.ok(t, "SELECT name, printf('%.61440c', 'x') AS body FROM github.repos.repos WHERE org = 'tiny'")
	if len(r.Rows) != 2 || !r.Truncated {
		t.Fatalf("rows %d truncated %t; want 2", len(r.Rows), r.Truncated)
	}
}

func TestZeroRowsIsSuccess(t *testing.T) {
	e := newEnv(t, envOpts{caps: defaultCaps()})
	r := e.ok(t, acmeNames+" AND name = 'no-such-repo'")
	if r.IsError || r.RowCount != 0 || len(r.Rows) != 0 || r.Truncated {
		t.Fatalf("%+v", r)
	}
	if _, ok := r.Raw["rows"].([]any); !ok {
		t.Fatalf("rows missing from a 0-row success: %v", r.Raw)
	}
	if h, lines, _ := mcptest.TSVLines(r.Text); h != "name" || len(lines) != 0 {
		t.Fatalf("text %q", r.Text)
	}
}

func TestTSVEscapingAndNull(t *testing.T) {
	e := newEnv(t, envOpts{caps: defaultCaps()})
	r := e.ok(t, "SELECT 'a' || char(9) || 'b' || char(10) || 'c' || char(92) || 'd' AS v, NULL AS n, 1 AS one FROM github.repos.repos WHERE org = 'tiny' LIMIT 1")
	h, lines, _ := mcptest.TSVLines(r.Text)
	if h != "v\tn\tone" || len(lines) != 1 || lines[0] != `a\tb\nc\\d`+"\t\t1" {
		t.Fatalf("TSV %q", r.Text)
	}
	if r.Rows[0][0] != "a\tb\nc\\d" || r.Rows[0][1] != nil || r.Rows[0][2] != float64(1) {
		t.Fatalf("rows %#v", r.Rows)
	}
}

func TestReadOnlyStatementsOnly(t *testing.T) {
	e := newEnv(t, envOpts{caps: defaultCaps()})
	for _, sql := range []string{
		"DELETE FROM github.repos.repos WHERE org = 'acme'",
		"UPDATE github.repos.repos SET name = 'x'",
		"SELECT 1; SELECT 2",
		"",
	} {
		r := e.query(t, sql)
		if !r.IsError || r.Error.Kind != "sql" || r.Error.Retryable {
			t.Fatalf("%q: %+v", sql, r.Error)
		}
	}
	for _, sql := range []string{"SHOW SERVICES IN github", "DESCRIBE github.repos.repos", "EXPLAIN " + acmeNames} {
		if r := e.ok(t, sql); r.RowCount == 0 {
			t.Fatalf("%q: no rows", sql)
		}
	}
	if e.apiRequests() != 0 {
		t.Fatalf("discovery made %d API requests", e.apiRequests())
	}
}

func TestPlanError(t *testing.T) {
	e := newEnv(t, envOpts{caps: defaultCaps()})
	r := e.query(t, "SELECT name FROM github.branches.branches")
	if !r.IsError || r.Error.Kind != "plan" || !strings.Contains(r.Error.Message, "owner, repo") {
		t.Fatalf("%+v", r.Error)
	}
}
