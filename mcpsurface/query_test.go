package mcpsurface_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	e := newEnv(t, envOpts{fake: []fakegithub.Option{fakegithub.WithRepos("scale-5000", 5000)}})
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
	e := newEnv(t, envOpts{})
	r := e.ok(t, acmeNames+" LIMIT 5")
	// No truncation notice; only that LIMIT without ORDER BY keeps rows
	// in the API's order.
	if r.Truncated || r.RowCount != 5 || len(r.Rows) != 5 || strings.Contains(r.Notice, "Showing") || !strings.Contains(r.Notice, "not guaranteed") {
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
	e := newEnv(t, envOpts{})
	// tiny has 3 repos: three rows of 200 KiB bodies.
	r := e.ok(t, "SELECT name, printf('%.204800c', 'x') AS body FROM github.repos.repos WHERE org = 'tiny'")
	if len(r.Rows) != 1 || r.RowCount != 3 || !r.Truncated {
		t.Fatalf("rows %d of %d truncated %t", len(r.Rows), r.RowCount, r.Truncated)
	}
	if body, _ := r.Rows[0][1].(string); len(body) != 204800 {
		t.Fatalf("kept row was cut: %d bytes", len(body))
	}
	// Rows of 8 KiB: the budget (40 KiB over TSV + JSON) keeps 2.
	r = e.ok(t, "SELECT name, printf('%.8192c', 'x') AS body FROM github.repos.repos WHERE org = 'tiny'")
	if len(r.Rows) != 2 || !r.Truncated {
		t.Fatalf("rows %d truncated %t; want 2", len(r.Rows), r.Truncated)
	}
}

func TestZeroRowsIsSuccess(t *testing.T) {
	e := newEnv(t, envOpts{})
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
	e := newEnv(t, envOpts{})
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
	e := newEnv(t, envOpts{})
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
	e := newEnv(t, envOpts{})
	r := e.query(t, "SELECT name FROM github.branches.branches")
	if !r.IsError || r.Error.Kind != "plan" || !strings.Contains(r.Error.Message, "owner, repo") {
		t.Fatalf("%+v", r.Error)
	}
}

// TestFaultMatrix: every fault of the fake server, on page 1 and on a later
// page, is an error result with the right status, provider and
// retryability; never rows.
func TestFaultMatrix(t *testing.T) {
	e := newEnv(t, envOpts{})
	// A stalled answer is the request timeout's to end, whatever it is:
	// a short one keeps the case short.
	stalled := newEnv(t, envOpts{requestTimeout: 2 * time.Second})
	type faultCase struct {
		name      string
		f         fakegithub.Fault
		status    int
		retryable bool
		retryWait bool // retry_after_seconds expected
	}
	// A plain status is answered as itself, retryable or not.
	var cases []faultCase
	for _, plain := range []struct {
		statuses  []int
		retryable bool
	}{{[]int{500, 502, 503, 408}, true}, {[]int{400, 401, 403, 404, 422}, false}} {
		for _, st := range plain.statuses {
			cases = append(cases, faultCase{fmt.Sprint(st), fakegithub.Fault{Kind: fakegithub.KindStatus, Status: st}, st, plain.retryable, false})
		}
	}
	cases = append(cases, []faultCase{
		{"rate_limit", fakegithub.Fault{Kind: fakegithub.KindRateLimit, RetryAfter: 1800}, 403, true, true},
		{"secondary_rate_limit", fakegithub.Fault{Kind: fakegithub.KindSecondaryRateLimit, RetryAfter: 60}, 403, true, true},
		{"too_many_requests", fakegithub.Fault{Kind: fakegithub.KindTooManyRequests, RetryAfter: 60}, 429, true, true},
		{"reset", fakegithub.Fault{Kind: fakegithub.KindReset}, 0, true, false},
		{"slow", fakegithub.Fault{Kind: fakegithub.KindSlow, Delay: 20 * time.Second}, 0, true, false},
		{"malformed", fakegithub.Fault{Kind: fakegithub.KindMalformed}, 200, false, false},
		{"truncated", fakegithub.Fault{Kind: fakegithub.KindTruncated}, 0, true, false},
		{"oversized", fakegithub.Fault{Kind: fakegithub.KindOversized, Size: 16 << 20}, 200, false, false},
		{"link_loop", fakegithub.Fault{Kind: fakegithub.KindLinkLoop}, 0, false, false},
	}...)
	for _, c := range cases {
		for _, page := range []int{1, 2} {
			if c.f.Kind == fakegithub.KindLinkLoop && page == 2 {
				continue // page 2 of 3 is fetched by number once rel="last" is known: no loop to follow
			}
			t.Run(fmt.Sprintf("%s/page%d", c.name, page), func(t *testing.T) {
				e := e
				if c.f.Kind == fakegithub.KindSlow {
					e = stalled
				}
				e.fake.ClearFaults()
				f := c.f
				f.Path, f.Page = "^/orgs/acme/repos$", page
				e.fake.Inject(f)
				r := e.query(t, acmeNames)
				if !r.IsError {
					t.Fatalf("no error; rows %d of %d", len(r.Rows), r.RowCount)
				}
				b := r.Error
				if b.Kind != "provider" || b.Provider != "github" || b.HTTPStatus != c.status || b.Retryable != c.retryable {
					t.Fatalf("error %+v; want provider github status %d retryable %t", b, c.status, c.retryable)
				}
				if c.retryWait != (b.RetryAfterSeconds > 0) {
					t.Fatalf("retry_after_seconds %d", b.RetryAfterSeconds)
				}
			})
		}
	}
	e.fake.ClearFaults()
	if r := e.ok(t, acmeNames); r.RowCount != 250 {
		t.Fatalf("after faults: %d rows", r.RowCount)
	}
}

func TestPagingKeptResult(t *testing.T) {
	e := newEnv(t, envOpts{})
	r := e.ok(t, acmeNames)
	before := e.apiRequests()
	seen := map[string]int{}
	for _, row := range r.Rows {
		seen[row[0].(string)]++
	}
	offset, calls := r.ReturnedRows, 0
	for {
		p := e.c.Call(t, e.ctx, "fetch_result_page", map[string]any{"result_id": r.ResultID, "offset": offset, "limit": 70})
		if p.IsError {
			t.Fatalf("page at %d: %+v", offset, p.Error)
		}
		calls++
		if p.Offset != offset || p.Limit != 70 || p.RowCount != 250 || len(p.Rows) != p.ReturnedRows {
			t.Fatalf("page %+v", p)
		}
		if _, lines, _ := splitText(p.Text); len(lines) != len(p.Rows) {
			t.Fatalf("TSV rows %d, structured rows %d", len(lines), len(p.Rows))
		}
		for _, row := range p.Rows {
			seen[row[0].(string)]++
		}
		offset += len(p.Rows)
		if !p.HasMore {
			break
		}
		if p.NextOffset != offset {
			t.Fatalf("next_offset %d; want %d", p.NextOffset, offset)
		}
	}
	if calls != 3 || len(seen) != 250 {
		t.Fatalf("%d calls, %d distinct rows", calls, len(seen))
	}
	for name, n := range seen {
		if n != 1 {
			t.Fatalf("%s seen %d times", name, n)
		}
	}
	if got := e.apiRequests(); got != before {
		t.Fatalf("paging made %d API requests", got-before)
	}
	// Exactly at the end: has_more false, no rows.
	p := e.c.Call(t, e.ctx, "fetch_result_page", map[string]any{"result_id": r.ResultURI, "offset": 250})
	if p.IsError || p.HasMore || len(p.Rows) != 0 {
		t.Fatalf("%+v", p)
	}
	// A limit above the cap is capped.
	p = e.c.Call(t, e.ctx, "fetch_result_page", map[string]any{"result_id": r.ResultID, "limit": 1000})
	if p.Limit != 100 || len(p.Rows) != 100 || !p.HasMore {
		t.Fatalf("limit %d rows %d has_more %t", p.Limit, len(p.Rows), p.HasMore)
	}
	// Exactly limit rows left: has_more false (limit+1 probe).
	p = e.c.Call(t, e.ctx, "fetch_result_page", map[string]any{"result_id": r.ResultID, "offset": 150, "limit": 100})
	if len(p.Rows) != 100 || p.HasMore {
		t.Fatalf("rows %d has_more %t", len(p.Rows), p.HasMore)
	}
}

func splitText(s string) (string, []string, string) {
	lines := strings.Split(s, "\n")
	return lines[0], lines[1 : len(lines)-1], lines[len(lines)-1]
}

func TestUnknownResult(t *testing.T) {
	e := newEnv(t, envOpts{})
	for _, id := range []string{"nope", ""} {
		p := e.c.Call(t, e.ctx, "fetch_result_page", map[string]any{"result_id": id})
		if !p.IsError || !strings.Contains(p.Error.Message, "re-run the query") || p.Error.Retryable {
			t.Fatalf("%q: %+v", id, p.Error)
		}
	}
	_, err := e.c.S.ReadResource(e.ctx, &mcp.ReadResourceParams{URI: "engine://results/nope"})
	if err == nil {
		t.Fatal("reading an unknown result succeeded")
	}
}

func TestEvictedResult(t *testing.T) {
	e := newEnv(t, envOpts{store: mcpsurface.StoreOptions{MaxResults: 2}})
	first := e.ok(t, acmeNames+" LIMIT 3")
	e.ok(t, acmeNames+" LIMIT 4")
	e.ok(t, acmeNames+" LIMIT 5")
	p := e.c.Call(t, e.ctx, "fetch_result_page", map[string]any{"result_id": first.ResultID})
	if !p.IsError || !strings.Contains(p.Error.Message, "unknown or expired") {
		t.Fatalf("evicted result still served: %+v", p)
	}
}

func TestResultResource(t *testing.T) {
	e := newEnv(t, envOpts{})
	r := e.ok(t, "SELECT name, private, topics FROM github.repos.repos WHERE org = 'acme'")
	before := e.apiRequests()
	read := func(uri string) *mcp.ResourceContents {
		t.Helper()
		res, err := e.c.S.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil || len(res.Contents) != 1 {
			t.Fatalf("%s: %v", uri, err)
		}
		return res.Contents[0]
	}
	tsv := read(r.ResultURI)
	if lines := strings.Split(strings.TrimSuffix(tsv.Text, "\n"), "\n"); len(lines) != 251 || lines[0] != "name\tprivate\ttopics" || tsv.MIMEType != "text/tab-separated-values" {
		t.Fatalf("TSV: %d lines, mime %s", len(lines), tsv.MIMEType)
	}
	var objs []map[string]any
	js := read(r.ResultURI + "?format=json")
	if err := json.Unmarshal([]byte(js.Text), &objs); err != nil || len(objs) != 250 || js.MIMEType != "application/json" {
		t.Fatalf("JSON: %v, %d objects", err, len(objs))
	}
	if _, ok := objs[0]["topics"].([]any); !ok {
		t.Fatalf("JSON column not JSON: %#v", objs[0]["topics"])
	}
	recs, err := csv.NewReader(strings.NewReader(read(r.ResultURI + "?format=csv").Text)).ReadAll()
	if err != nil || len(recs) != 251 {
		t.Fatalf("CSV: %v, %d records", err, len(recs))
	}
	if e.apiRequests() != before {
		t.Fatal("reading a kept result called the API")
	}
	tmpl, err := e.c.S.ListResourceTemplates(e.ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) != 1 || !strings.HasPrefix(tmpl.ResourceTemplates[0].URITemplate, "engine://results/{id}") {
		t.Fatalf("templates: %v %+v", err, tmpl)
	}
}
