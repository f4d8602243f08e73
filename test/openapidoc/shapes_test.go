package openapidoc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/testutil"
)

// writeDocWith is writeDoc with a components object.
func writeDocWith(t *testing.T, url, paths, components string) string {
	t.Helper()
	doc := fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": "Acme Cloud", "version": "1"},
  "servers": [{"url": %q}], "paths": %s, "components": %s}`, url, paths, components)
	return testutil.TempFile(t, "acme.json", doc)
}

// A schema without a type whose items are alternatives of objects
// (Swagger 2's items: [A, B] as converters write it; Slack's
// objs_conversation) is one value, A or B, not an array: the single
// conversation is one row and the list of them one row per conversation
// (before: "expected property channel to be a JSON array, got an object",
// and the list was one row).
func TestTypelessItemsAlternativesAreOneValue(t *testing.T) {
	conv := `{"items": {"anyOf": [` + obj(`"id": {"type": "string"}`, `"name": {"type": "string"}`) + `, ` +
		obj(`"id": {"type": "string"}`, `"user": {"type": "string"}`) + `]}}`
	a := fakeapis.NewFixed(t, map[string]string{
		"/conversations.info": `{"ok": true, "channel": {"id": "C1", "name": "general"}}`,
		"/conversations.list": `{"ok": true, "channels": [{"id": "C1", "name": "general"}, {"id": "D2", "user": "U1"}], "cache_ts": 17}`,
	})
	ref := `{"$ref": "#/components/schemas/objs_conversation"}`
	doc := writeDocWith(t, a.URL, `{
	  "/conversations.info": `+get("conversations_info", "channels", `{"name": "channel", "in": "query", "required": true, "schema": {"type": "string"}}`,
		obj(`"ok": {"type": "boolean"}`, `"channel": `+ref))+`,
	  "/conversations.list": `+get("conversations_list", "conversations", "",
		obj(`"ok": {"type": "boolean"}`, `"channels": `+arr(ref), `"cache_ts": {"type": "integer"}`))+`}`,
		`{"schemas": {"objs_conversation": `+conv+`}}`)
	tables := tableNames(t, doc)
	if len(tables) != 2 || !strings.HasPrefix(tables[0], "acme.channels.") || tables[1] != "acme.conversations.conversations" {
		t.Fatalf("tables %v", tables)
	}
	list, info := tables[1], tables[0]
	rows := mustRows(t, doc, "SELECT id, name, user FROM "+list+" ORDER BY id")
	if fmt.Sprint(rows) != "[map[id:C1 name:general user:<nil>] map[id:D2 name:<nil> user:U1]]" {
		t.Fatalf("list rows %v", rows)
	}
	rows = mustRows(t, doc, "SELECT json_extract(channel, '$.name') AS name FROM "+info+" WHERE channel = 'C1'")
	if fmt.Sprint(rows) != "[map[name:general]]" {
		t.Fatalf("info rows %v (table %s)", rows, info)
	}
}

// List-ness comes from the operation, not from counts of sibling
// scalars: an item at /categories/{id} holding one array and a few
// scalars is one row whose name can be selected (before: its icons were
// the rows); list envelopes with a sibling that is not paging metadata
// (cache_ts, contact_count, from/to) are one row per item when the
// operation pages or the array is named like rows (before: one row); a
// list one level down ({"categories": {"items": [...]}}) is read there.
func TestListnessFromTheOperation(t *testing.T) {
	item := obj(`"id": {"type": "string"}`, `"name": {"type": "string"}`)
	icon := obj(`"url": {"type": "string"}`, `"height": {"type": "integer"}`)
	items := `[{"id": "a", "name": "one"}, {"id": "b", "name": "two"}]`
	cases := []struct {
		name, path, params, schema, body, query, want string
	}{
		{"item with an array", "/browse/categories/{category_id}", pathParam("category_id"),
			obj(`"href": {"type": "string"}`, `"icons": `+arr(icon), `"id": {"type": "string"}`, `"name": {"type": "string"}`),
			`{"href": "h", "icons": [{"url": "u1", "height": 1}, {"url": "u2", "height": 2}], "id": "c1", "name": "Pop"}`,
			"SELECT id, name FROM %s WHERE category_id = 'c1'", "[map[id:c1 name:Pop]]"},
		{"list with cache_ts", "/users.list", "",
			obj(`"ok": {"type": "boolean"}`, `"members": `+arr(item), `"cache_ts": {"type": "integer"}`,
				`"response_metadata": `+obj(`"next_cursor": {"type": "string"}`)),
			`{"ok": true, "members": ` + items + `, "cache_ts": 1, "response_metadata": {"next_cursor": ""}}`,
			"SELECT id, name FROM %s ORDER BY id", "[map[id:a name:one] map[id:b name:two]]"},
		{"result with a count", "/v3/marketing/contacts", "",
			obj(`"result": `+arr(item), `"contact_count": {"type": "integer"}`, `"_metadata": `+obj(`"self": {"type": "string"}`)),
			`{"result": ` + items + `, "contact_count": 2, "_metadata": {"self": "x"}}`,
			"SELECT id, name FROM %s ORDER BY id", "[map[id:a name:one] map[id:b name:two]]"},
		{"report with from and to", "/report/users", intParam("page_size", "") + `, ` + queryParam("next_page_token"),
			obj(`"from": {"type": "string"}`, `"to": {"type": "string"}`, `"next_page_token": {"type": "string"}`, `"page_count": {"type": "integer"}`, `"users": `+arr(item)),
			`{"from": "2024-01-01", "to": "2024-01-31", "next_page_token": "", "page_count": 1, "users": ` + items + `}`,
			"SELECT id, name FROM %s ORDER BY id", "[map[id:a name:one] map[id:b name:two]]"},
		{"nested list", "/browse/categories", intParam("limit", "") + `, ` + intParam("offset", ""),
			obj(`"categories": ` + obj(`"href": {"type": "string"}`, `"items": `+arr(item), `"limit": {"type": "integer"}`,
				`"next": {"type": "string", "nullable": true}`, `"offset": {"type": "integer"}`, `"total": {"type": "integer"}`)),
			`{"categories": {"href": "h", "items": ` + items + `, "limit": 20, "next": null, "offset": 0, "total": 2}}`,
			"SELECT id, name FROM %s ORDER BY id", "[map[id:a name:one] map[id:b name:two]]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			concrete := strings.NewReplacer("{category_id}", "c1").Replace(c.path)
			a := fakeapis.NewFixed(t, map[string]string{concrete: c.body})
			doc := writeDoc(t, a.URL, fmt.Sprintf(`{%q: %s}`, c.path, get("op", "things", c.params, c.schema)))
			tables := tableNames(t, doc)
			if len(tables) != 1 {
				t.Fatalf("tables %v", tables)
			}
			rows := mustRows(t, doc, fmt.Sprintf(c.query, tables[0]))
			if fmt.Sprint(rows) != c.want {
				t.Fatalf("rows %v, want %s", rows, c.want)
			}
		})
	}
}

// A profile says what an operation's rows are where the rule reads the
// answer wrong (tables.rows): an object read as one row, an array one
// level down read as rows.
func TestProfileDeclaresRows(t *testing.T) {
	item := obj(`"id": {"type": "string"}`, `"name": {"type": "string"}`)
	a := fakeapis.NewFixed(t, map[string]string{
		"/things": `{"ok": true, "things": [{"id": "a", "name": "one"}], "next_cursor": ""}`,
		"/bundle": `{"owner": "o", "parts": {"list": [{"id": "p1", "name": "x"}, {"id": "p2", "name": "y"}]}, "size": 3, "extra": {"k": 1}}`,
	})
	doc := writeDoc(t, a.URL, `{
	  "/things": `+get("listThings", "things", queryParam("cursor"), obj(`"ok": {"type": "boolean"}`, `"things": `+arr(item), `"next_cursor": {"type": "string"}`))+`,
	  "/bundle": `+get("getBundle", "bundle", "", obj(`"owner": {"type": "string"}`, `"parts": `+obj(`"list": `+arr(item)), `"size": {"type": "integer"}`, `"extra": {"type": "object"}`))+`}`)
	profile := testutil.TempFile(t, "acme-profile.json", `{"tables": {"rows": {
	  "listThings": {"shape": "object", "reason": "test: the whole answer is one row"},
	  "getBundle": {"shape": "wrapped", "key": "parts.list", "reason": "test: the parts are the rows"}}}}`)
	run := func(q string) testutil.Result {
		return testutil.Run(t, testutil.Env(t), "", "exec", "-o", "json", "--provider", "acme="+doc+",profile="+profile, q)
	}
	r := run("SELECT ok, things FROM acme.things.things")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"ok": true`) || strings.Count(r.Stdout, `"ok"`) != 1 {
		t.Fatalf("things: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = run("SELECT id FROM acme.bundle.bundle ORDER BY id")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"p1"`) || !strings.Contains(r.Stdout, `"p2"`) {
		t.Fatalf("bundle: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	bad := testutil.TempFile(t, "bad-profile.json", `{"tables": {"rows": {"getBundle": {"shape": "wrapped", "key": "nope", "reason": "test"}}}}`)
	r = testutil.Run(t, testutil.Env(t), "", "exec", "--provider", "acme="+doc+",profile="+bad, "SHOW RESOURCES IN acme")
	testutil.WantRun(t, "bad key", r, 1, "", `no array at "nope"`)
}
