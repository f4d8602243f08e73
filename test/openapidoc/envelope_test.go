package openapidoc_test

import (
	"fmt"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
)

// A list envelope (one array of items beside paging and metadata fields)
// comes back as one row per item, in each provider's style.
func TestListEnvelopesReturnRows(t *testing.T) {
	item := obj(`"id": {"type": "string"}`, `"name": {"type": "string"}`)
	items := `[{"id": "a", "name": "one"}, {"id": "b", "name": "two"}]`
	cases := []struct {
		style, path, schema, body string
	}{
		{"digitalocean", "/v2/droplets",
			obj(`"droplets": `+arr(item), `"links": {"type": "object"}`, `"meta": `+obj(`"total": {"type": "integer"}`)),
			`{"droplets": ` + items + `, "links": {}, "meta": {"total": 2}}`},
		{"slack", "/conversations.list",
			obj(`"ok": {"type": "boolean"}`, `"channels": `+arr(item), `"response_metadata": `+obj(`"next_cursor": {"type": "string"}`)),
			`{"ok": true, "channels": ` + items + `, "response_metadata": {"next_cursor": ""}}`},
		{"kubernetes", "/api/v1/pods",
			obj(`"items": `+arr(item), `"metadata": {"type": "object"}`, `"kind": {"type": "string"}`, `"apiVersion": {"type": "string"}`),
			`{"items": ` + items + `, "metadata": {}, "kind": "PodList", "apiVersion": "v1"}`},
		{"jira", "/rest/api/3/project/search",
			obj(`"values": `+arr(item), `"isLast": {"type": "boolean"}`, `"startAt": {"type": "integer"}`, `"maxResults": {"type": "integer"}`, `"total": {"type": "integer"}`, `"self": {"type": "string"}`, `"nextPage": {"type": "string"}`),
			`{"values": ` + items + `, "isLast": true, "startAt": 0, "maxResults": 50, "total": 2}`},
		{"stripe", "/v1/customers",
			obj(`"object": {"type": "string"}`, `"data": `+arr(item), `"has_more": {"type": "boolean"}`, `"url": {"type": "string"}`),
			`{"object": "list", "data": ` + items + `, "has_more": false, "url": "/v1/customers"}`},
		{"twilio", "/2010-04-01/Accounts/AC1/Calls.json",
			obj(`"calls": `+arr(item), `"end": {"type": "integer"}`, `"first_page_uri": {"type": "string"}`, `"next_page_uri": {"type": "string"}`, `"page": {"type": "integer"}`, `"page_size": {"type": "integer"}`, `"previous_page_uri": {"type": "string"}`, `"start": {"type": "integer"}`, `"uri": {"type": "string"}`),
			`{"calls": ` + items + `, "end": 1, "page": 0, "page_size": 50, "start": 0, "uri": "/x"}`},
		{"zoom", "/users/me/meetings",
			obj(`"meetings": `+arr(item), `"next_page_token": {"type": "string"}`, `"page_count": {"type": "integer"}`, `"page_number": {"type": "integer"}`, `"page_size": {"type": "integer"}`, `"total_records": {"type": "integer"}`),
			`{"meetings": ` + items + `, "next_page_token": "", "page_count": 1, "page_number": 1, "page_size": 30, "total_records": 2}`},
		{"azure", "/subscriptions",
			obj(`"value": `+arr(item), `"nextLink": {"type": "string"}`, `"@odata.count": {"type": "integer"}`),
			`{"value": ` + items + `, "@odata.count": 2}`},
	}
	for _, c := range cases {
		t.Run(c.style, func(t *testing.T) {
			a := fakeapis.NewFixed(t, map[string]string{c.path: c.body})
			doc := writeDoc(t, a.URL, fmt.Sprintf(`{%q: %s}`, c.path, get("list", "things", "", c.schema)))
			tables := tableNames(t, doc)
			if len(tables) != 1 {
				t.Fatalf("tables %v", tables)
			}
			rows := mustRows(t, doc, "SELECT id, name FROM "+tables[0]+" ORDER BY id")
			if fmt.Sprint(rows) != "[map[id:a name:one] map[id:b name:two]]" {
				t.Fatalf("rows %v", rows)
			}
		})
	}
}
