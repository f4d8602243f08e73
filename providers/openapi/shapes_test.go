package openapi

import (
	"fmt"
	"testing"

	"github.com/enginehq/engine/providers"
)

// methodOf derives the one GET of a document with the given path,
// parameters and response schema.
func methodOf(t *testing.T, path, params, schema string) *providers.Method {
	t.Helper()
	doc := fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {%q: {"get": {"operationId": "op", "tags": ["t"],
	  "parameters": [%s], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": %s}}}}}}},
	  "components": {"schemas": {"conv": {"items": {"anyOf": [{"type": "object", "properties": {"id": {"type": "string"}}}, {"type": "object", "properties": {"user": {"type": "string"}}}]}},
	    "strings": {"items": {"type": "string"}}}}}`, path, params, schema)
	rs := tablesOf(t, "t", "t.json", []byte(doc))
	if len(rs) != 1 || len(rs[0].Methods) != 1 {
		t.Fatalf("resources %v", rs)
	}
	return rs[0].Methods[0]
}

func TestShapeRules(t *testing.T) {
	item := `{"type": "object", "properties": {"id": {"type": "string"}}}`
	arr := `{"type": "array", "items": ` + item + `}`
	for _, c := range []struct {
		name, path, params, schema string
		shape                      providers.Shape
		key                        string
	}{
		{"item with an array", "/categories/{id}", `{"name": "id", "in": "path", "schema": {"type": "string"}}`,
			`{"type": "object", "properties": {"icons": ` + arr + `, "name": {"type": "string"}}}`, providers.ShapeObject, ""},
		{"array the path names", "/trees/{sha}", `{"name": "sha", "in": "path", "schema": {"type": "string"}}`,
			`{"type": "object", "properties": {"tree": ` + arr + `, "sha": {"type": "string"}, "url": {"type": "string"}, "truncated": {"type": "boolean"}, "x": {"type": "object"}}}`, providers.ShapeWrapped, "tree"},
		{"row-named array at a collection", "/contacts", ``,
			`{"type": "object", "properties": {"result": ` + arr + `, "contact_count": {"type": "integer"}, "a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}}`, providers.ShapeWrapped, "result"},
		{"other array at a collection", "/policy", ``,
			`{"type": "object", "properties": {"checks": ` + arr + `, "strict": {"type": "boolean"}}}`, providers.ShapeObject, ""},
		{"nested paging field", "/users.info", ``,
			`{"type": "object", "properties": {"members": ` + arr + `, "cache_ts": {"type": "integer"}, "response_metadata": {"type": "object", "properties": {"next_cursor": {"type": "string"}}}}}`, providers.ShapeWrapped, "members"},
		{"list one level down", "/browse/categories", ``,
			`{"type": "object", "properties": {"categories": {"type": "object", "properties": {"items": ` + arr + `, "next": {"type": "string"}, "total": {"type": "integer"}}}}}`, providers.ShapeWrapped, "categories.items"},
		{"type-less object alternatives", "/conversations.info", ``,
			`{"type": "object", "properties": {"ok": {"type": "boolean"}, "channel": {"$ref": "#/components/schemas/conv"}}}`, providers.ShapeObject, ""},
		{"list of type-less object alternatives", "/conversations.list", ``,
			`{"type": "object", "properties": {"ok": {"type": "boolean"}, "channels": {"type": "array", "items": {"$ref": "#/components/schemas/conv"}}}}`, providers.ShapeWrapped, "channels"},
		{"type-less items of scalars stay an array", "/tags", ``, `{"$ref": "#/components/schemas/strings"}`, providers.ShapeArray, ""},
		// Issue 32: Mailchimp's list beside an echo of the path, _links and total_items.
		{"list beside total_items", "/conversations/{conversation_id}/messages", `{"name": "conversation_id", "in": "path", "schema": {"type": "string"}}`,
			`{"type": "object", "properties": {"conversation_messages": ` + arr + `, "conversation_id": {"type": "string"}, "total_items": {"type": "integer"}, "_links": {"type": "array", "items": {"type": "object", "properties": {"rel": {"type": "string"}}}}}}`, providers.ShapeWrapped, "conversation_messages"},
		// Issue 32: one entity in a wrapper is that entity (its columns).
		{"entity in data", "/tags/{tag_gid}", `{"name": "tag_gid", "in": "path", "schema": {"type": "string"}}`,
			`{"type": "object", "properties": {"data": {"type": "object", "properties": {"gid": {"type": "string"}, "followers": ` + arr + `}}}}`, providers.ShapeObject, "data"},
		{"entity in result beside ok", "/users.profile.get", ``,
			`{"type": "object", "properties": {"ok": {"type": "boolean"}, "result": {"type": "object", "properties": {"name": {"type": "string"}}}}}`, providers.ShapeObject, "result"},
		{"data beside another property is the object", "/me", ``,
			`{"type": "object", "properties": {"data": {"type": "object", "properties": {"gid": {"type": "string"}}}, "name": {"type": "string"}}}`, providers.ShapeObject, ""},
	} {
		m := methodOf(t, c.path, c.params, c.schema)
		if m.Shape != c.shape || m.ItemKey != c.key {
			t.Errorf("%s: shape %s key %q, want %s %q", c.name, m.Shape, m.ItemKey, c.shape, c.key)
		}
		if c.shape == providers.ShapeObject && c.key != "" && (len(m.Columns) == 0 || m.Columns[0].Name == c.key) {
			t.Errorf("%s: columns %v, want the entity's", c.name, m.Columns)
		}
	}
}

func TestPagingWithoutPerPage(t *testing.T) {
	item := `{"type": "object", "properties": {"id": {"type": "string"}}}`
	m := methodOf(t, "/files.list", `{"name": "page", "in": "query", "schema": {"type": "integer"}}, {"name": "count", "in": "query", "schema": {"type": "integer", "maximum": 1000}}`,
		`{"type": "object", "properties": {"files": {"type": "array", "items": `+item+`}, "paging": {"type": "object", "properties": {"page": {"type": "integer"}, "pages": {"type": "integer"}, "total": {"type": "integer"}}}}}`)
	want := providers.Paging{Style: providers.PagingPage, Param: "page", Size: "count", SizeMax: 1000, Pages: "paging.pages", Total: "paging.total"}
	if m.Paging == nil || *m.Paging != want || len(m.Params) != 0 {
		t.Fatalf("paging %+v params %v, want %+v", m.Paging, m.Params, want)
	}
	m = methodOf(t, "/messages", `{"name": "maxResults", "in": "query", "schema": {"type": "integer", "minimum": 200, "maximum": 2000}}, {"name": "pageToken", "in": "query", "schema": {"type": "string"}}`,
		`{"type": "object", "properties": {"items": {"type": "array", "items": `+item+`}, "nextPageToken": {"type": "string"}}}`)
	if m.Paging == nil || m.Paging.SizeMin != 200 || m.Paging.SizeMax != 2000 {
		t.Fatalf("paging %+v", m.Paging)
	}
}
