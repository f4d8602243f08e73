package mcpserver_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/surfaces/mcpserver"
)

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
	e := newEnv(t, envOpts{store: mcpserver.StoreOptions{MaxResults: 2}})
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
