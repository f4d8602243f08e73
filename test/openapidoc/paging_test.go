package openapidoc_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

func intParam(name, extra string) string {
	if extra != "" {
		extra = ", " + extra
	}
	return fmt.Sprintf(`{"name": %q, "in": "query", "schema": {"type": "integer"%s}}`, name, extra)
}

// noneHas fails when a request carries a query parameter the method does
// not declare.
func noneHas(t *testing.T, reqs []string, param string) {
	t.Helper()
	for _, r := range reqs {
		if strings.Contains(r, "?"+param+"=") || strings.Contains(r, "&"+param+"=") {
			t.Errorf("request %s sends %s, which the method does not declare", r, param)
		}
	}
}

// A method paged by page and count (Slack's files.list; SendGrid, Trello)
// declares no per_page: the engine sends the declared size parameter,
// never an undeclared per_page, and follows the pages the answer counts
// (paging.pages) instead of returning page 1 as the whole (before: one
// page, exit 0, per_page=100 sent).
func TestPageWithoutPerPage(t *testing.T) {
	file := obj(`"id": {"type": "string"}`, `"name": {"type": "string"}`)
	schema := obj(`"ok": {"type": "boolean"}`, `"files": `+arr(file),
		`"paging": `+obj(`"count": {"type": "integer"}`, `"total": {"type": "integer"}`, `"page": {"type": "integer"}`, `"pages": {"type": "integer"}`))
	a, doc := serveDoc(t, map[string]string{
		"/files.list":        `{"ok": true, "files": [{"id": "F1", "name": "a"}, {"id": "F2", "name": "b"}], "paging": {"count": 2, "total": 3, "page": 1, "pages": 2}}`,
		"/files.list?page=2": `{"ok": true, "files": [{"id": "F3", "name": "c"}], "paging": {"count": 2, "total": 3, "page": 2, "pages": 2}}`,
	}, `{"/files.list": `+get("files_list", "files", intParam("count", `"maximum": 1000`)+`, `+intParam("page", "")+`, `+queryParam("channel"), schema)+`}`)
	rows := mustRows(t, doc, "SELECT id FROM acme.files.files")
	if fmt.Sprint(rows) != "[map[id:F1] map[id:F2] map[id:F3]]" {
		t.Fatalf("rows %v, want the 3 files of both pages", rows)
	}
	reqs := a.Requests()
	if want := []string{"/files.list?count=100", "/files.list?count=100&page=2"}; fmt.Sprint(reqs) != fmt.Sprint(want) {
		t.Fatalf("requests %v, want %v", reqs, want)
	}
	noneHas(t, reqs, "per_page")
}

// An answer that counts more pages (paging.page < paging.pages) for a
// method whose description declares no way to ask for them fails (exit
// 2) naming the signal, never the first page as the whole (before: exit
// 0 with page 1).
func TestPagesSignalWithoutWayToFollowFails(t *testing.T) {
	file := obj(`"id": {"type": "string"}`)
	schema := obj(`"ok": {"type": "boolean"}`, `"files": `+arr(file),
		`"paging": `+obj(`"page": {"type": "integer"}`, `"pages": {"type": "integer"}`))
	_, doc := serveDoc(t, map[string]string{
		"/files.list": `{"ok": true, "files": [{"id": "F1"}], "paging": {"page": 1, "pages": 2}}`,
	}, `{"/files.list": `+get("files_list", "files", queryParam("channel"), schema)+`}`)
	rows, r := execJSON(t, doc, "SELECT id FROM acme.files.files")
	if r.Code != 2 || rows != nil {
		t.Fatalf("exit %d rows %v, want exit 2\n%s%s", r.Code, rows, r.Stdout, r.Stderr)
	}
	var e struct {
		Error struct{ Kind, Message string }
	}
	if err := json.Unmarshal([]byte(r.Stderr), &e); err != nil {
		t.Fatalf("stderr is not an error object: %v\n%s", err, r.Stderr)
	}
	if !strings.Contains(e.Error.Message, `"paging.page" 1 < "paging.pages" 2`) || !strings.Contains(e.Error.Message, "files_list") {
		t.Fatalf("error %+v", e.Error)
	}
}

// Stripe's */search: page is a token sent back from next_page, with
// limit as the size.
func TestPageTokenFromNextPage(t *testing.T) {
	item := obj(`"id": {"type": "string"}`)
	schema := obj(`"object": {"type": "string"}`, `"data": `+arr(item), `"has_more": {"type": "boolean"}`,
		`"next_page": {"type": "string", "nullable": true}`, `"url": {"type": "string"}`)
	params := `{"name": "query", "in": "query", "required": true, "schema": {"type": "string"}}, ` + intParam("limit", `"maximum": 100`) + `, ` + queryParam("page")
	a, doc := serveDoc(t, map[string]string{
		"/v1/charges/search":           `{"object": "search_result", "data": [{"id": "ch_1"}], "has_more": true, "next_page": "pg_2", "url": "/v1/charges/search"}`,
		"/v1/charges/search?page=pg_2": `{"object": "search_result", "data": [{"id": "ch_2"}], "has_more": false, "next_page": null, "url": "/v1/charges/search"}`,
	}, `{"/v1/charges/search": `+get("GetChargesSearch", "charges", params, schema)+`}`)
	rows := mustRows(t, doc, "SELECT id FROM "+tableNames(t, doc)[0]+" WHERE query = 'amount>1'")
	if fmt.Sprint(rows) != "[map[id:ch_1] map[id:ch_2]]" {
		t.Fatalf("rows %v", rows)
	}
	reqs := a.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1], "page=pg_2") || !strings.Contains(reqs[0], "limit=100") {
		t.Fatalf("requests %v", reqs)
	}
	noneHas(t, reqs, "per_page")
}

// The page size honours the size parameter's declared minimum and
// maximum (YouTube's liveChat maxResults is 200 to 2000: 100 is a 422).
func TestPageSizeWithinDeclaredBounds(t *testing.T) {
	item := obj(`"id": {"type": "string"}`)
	schema := obj(`"items": `+arr(item), `"nextPageToken": {"type": "string"}`)
	a, doc := serveDoc(t, map[string]string{
		"/liveChat/messages": `{"items": [{"id": "m1"}]}`,
		"/small":             `{"items": [{"id": "s1"}]}`,
	}, `{
	  "/liveChat/messages": `+get("listMessages", "messages", intParam("maxResults", `"minimum": 200, "maximum": 2000`)+`, `+queryParam("pageToken"), schema)+`,
	  "/small": `+get("listSmall", "small", intParam("maxResults", `"minimum": 1, "maximum": 50`)+`, `+queryParam("pageToken"), schema)+`}`)
	mustRows(t, doc, "SELECT id FROM acme.messages.messages")
	mustRows(t, doc, "SELECT id FROM acme.small.small")
	if reqs := a.Requests(); fmt.Sprint(reqs) != "[/liveChat/messages?maxResults=200 /small?maxResults=50]" {
		t.Fatalf("requests %v, want maxResults=200 (the minimum) and 50 (the maximum)", reqs)
	}
}

// Zoom: the cursor parameter is named like the response field that feeds
// it (next_page_token in both), with page_size as the size.
func TestCursorNamedLikeItsField(t *testing.T) {
	item := obj(`"id": {"type": "string"}`, `"topic": {"type": "string"}`)
	schema := obj(`"meetings": `+arr(item), `"next_page_token": {"type": "string"}`, `"page_size": {"type": "integer"}`, `"total_records": {"type": "integer"}`)
	a, doc := serveDoc(t, map[string]string{
		"/users/me/meetings":                      `{"meetings": [{"id": "1", "topic": "a"}], "next_page_token": "tok2", "page_size": 1, "total_records": 2}`,
		"/users/me/meetings?next_page_token=tok2": `{"meetings": [{"id": "2", "topic": "b"}], "next_page_token": "", "page_size": 1, "total_records": 2}`,
	}, `{"/users/{userId}/meetings": `+get("meetings", "meetings", pathParam("userId")+`, `+intParam("page_size", `"maximum": 300`)+`, `+queryParam("next_page_token"), schema)+`}`)
	rows := mustRows(t, doc, "SELECT id, topic FROM acme.meetings.meetings WHERE userId = 'me'")
	if fmt.Sprint(rows) != "[map[id:1 topic:a] map[id:2 topic:b]]" {
		t.Fatalf("rows %v", rows)
	}
	if reqs := a.Requests(); len(reqs) != 2 || !strings.Contains(reqs[0], "page_size=100") {
		t.Fatalf("requests %v", reqs)
	}
}

// A query parameter named like a path parameter is sent too (Trello's
// /tokens/{token} also requires ?token=), and header parameters bind
// from WHERE like query parameters: a required one unbound is refused
// before any request, naming it.
func TestQueryTwinAndHeaderParameters(t *testing.T) {
	params := pathParam("token") + `, {"name": "token", "in": "query", "required": true, "schema": {"type": "string"}}, ` +
		`{"name": "X-Api-Version", "in": "header", "required": true, "schema": {"type": "string"}}`
	a, doc := serveDoc(t, map[string]string{"/tokens/T1": `{"id": "T1", "idMember": "M1"}`}, `{"/tokens/{token}": `+get("getTokensByToken", "tokens", params, obj(`"id": {"type": "string"}`, `"idMember": {"type": "string"}`))+`}`)
	rows := mustRows(t, doc, "SELECT id, idMember FROM acme.tokens.tokens WHERE token = 'T1' AND `X-Api-Version` = '2024-01'")
	if fmt.Sprint(rows) != "[map[id:T1 idMember:M1]]" {
		t.Fatalf("rows %v", rows)
	}
	if reqs := a.Requests(); len(reqs) != 1 || reqs[0] != "/tokens/T1?token=T1" {
		t.Fatalf("requests %v, want /tokens/T1?token=T1", reqs)
	}
	if h := a.Headers(); len(h) != 1 || h[0].Get("X-Api-Version") != "2024-01" {
		t.Fatalf("X-Api-Version header %v", h)
	}
	r := runAcme(t, doc, "DESCRIBE acme.tokens.tokens")
	testutil.WantRun(t, "DESCRIBE", r, 0, "Sent as a request header.", "")
	r = runAcme(t, doc, "SELECT id FROM acme.tokens.tokens WHERE token = 'T1'")
	if r.Code != 1 || !strings.Contains(r.Stderr, "X-Api-Version") || len(a.Requests()) != 1 {
		t.Fatalf("unbound required header: exit %d, %d requests\n%s", r.Code, len(a.Requests()), r.Stderr)
	}
}
