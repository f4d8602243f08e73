package openapi

import (
	"os"
	"reflect"
	"testing"

	"github.com/enginehq/engine/providers"
)

// tablesOf is the tables LoadData derives from data; an error fails the
// test.
func tablesOf(t *testing.T, name, path string, data []byte) []*providers.Resource {
	t.Helper()
	p, err := LoadData(name, path, data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rs, err := p.AllResources()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rs
}

// The test descriptions of test/fakeapis, in the shapes the real APIs
// document.
func loadFake(t *testing.T, name string) map[string]*providers.Method {
	t.Helper()
	path := "../../test/fakeapis/docs/" + name + ".json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	byOp := map[string]*providers.Method{}
	for _, r := range tablesOf(t, name, path, data) {
		for _, m := range r.Methods {
			byOp[m.OperationID] = m
		}
	}
	return byOp
}

func TestInferPaging(t *testing.T) {
	for _, c := range []struct {
		doc, op string
		want    *providers.Paging
		key     string
		params  []string
	}{
		{"stripe", "GetCustomers", &providers.Paging{Style: "cursor", Param: "starting_after", HasMore: "has_more", LastItem: "id", Size: "limit", SizeMax: 100}, "data", []string{"email", "ending_before"}},
		{"stripe", "GetCharges", nil, "data", []string{"limit"}},
		{"slack", "conversations_list", &providers.Paging{Style: "cursor", Param: "cursor", Next: "response_metadata.next_cursor", Size: "limit", SizeMax: 1000}, "channels", []string{"exclude_archived", "types"}},
		{"jira", "searchProjects", &providers.Paging{Style: "offset", Param: "startAt", Size: "maxResults", SizeMax: 100, Total: "total", IsLast: "isLast"}, "values", []string{"query"}},
	} {
		m := loadFake(t, c.doc)[c.op]
		if m == nil {
			t.Fatalf("%s: no method %s", c.doc, c.op)
		}
		if !reflect.DeepEqual(m.Paging, c.want) {
			t.Errorf("%s %s: paging %+v, want %+v", c.doc, c.op, m.Paging, c.want)
		}
		if m.Shape != providers.ShapeWrapped || m.ItemKey != c.key {
			t.Errorf("%s %s: shape %s key %q, want wrapped %q", c.doc, c.op, m.Shape, m.ItemKey, c.key)
		}
		var names []string
		for _, p := range m.Params {
			names = append(names, p.Name)
		}
		if !reflect.DeepEqual(names, c.params) {
			t.Errorf("%s %s: params %v, want %v (the paging owns its parameters)", c.doc, c.op, names, c.params)
		}
	}
}

func TestInferErrorMessage(t *testing.T) {
	for name, want := range map[string]string{"stripe": "error.message", "slack": "error", "jira": "errorMessages"} {
		data, err := os.ReadFile("../../test/fakeapis/docs/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		p, err := LoadData(name, name, data)
		if err != nil {
			t.Fatal(err)
		}
		if p.Profile == nil || !reflect.DeepEqual(p.Profile.ErrorMessage, []string{want}) {
			t.Errorf("%s: profile %+v, want error message %q", name, p.Profile, want)
		}
	}
}

// DigitalOcean (page/per_page with links.pages.next), Kubernetes
// (metadata.continue and continue), Twilio (next_page_uri): the styles the
// issue names beside the three fakes.
func TestInferPagingOtherAPIs(t *testing.T) {
	doc := func(params, props string) []byte {
		return []byte(`{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {"/v2/things": {"get": {"operationId": "things_list",
  "parameters": [` + params + `],
  "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {` + props + `}}}}}}}}}}`)
	}
	items := `"things": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}`
	q := func(name string) string {
		return `{"name": "` + name + `", "in": "query", "schema": {"type": "string"}}`
	}
	for name, c := range map[string]struct {
		data []byte
		want providers.Paging
	}{
		"digitalocean": {doc(q("page")+`,`+`{"name": "per_page", "in": "query", "schema": {"type": "integer", "maximum": 200}}`,
			items+`, "links": {"type": "object", "properties": {"pages": {"type": "object", "properties": {"next": {"type": "string"}, "last": {"type": "string"}}}}}, "meta": {"type": "object", "properties": {"total": {"type": "integer"}}}`),
			providers.Paging{Style: "next_url", Next: "links.pages.next", Size: "per_page", SizeMax: 200}},
		"kubernetes": {doc(q("continue")+`,`+`{"name": "limit", "in": "query", "schema": {"type": "integer"}}`,
			`"items": {"type": "array", "items": {"type": "object", "properties": {"kind": {"type": "string"}}}}, "metadata": {"type": "object", "properties": {"continue": {"type": "string"}, "resourceVersion": {"type": "string"}}}, "kind": {"type": "string"}, "apiVersion": {"type": "string"}`),
			providers.Paging{Style: "cursor", Param: "continue", Next: "metadata.continue", Size: "limit"}},
		"twilio": {doc(`{"name": "PageSize", "in": "query", "schema": {"type": "integer"}}`,
			items+`, "next_page_uri": {"type": "string", "nullable": true}, "page": {"type": "integer"}, "page_size": {"type": "integer"}, "uri": {"type": "string"}, "first_page_uri": {"type": "string"}, "previous_page_uri": {"type": "string"}`),
			providers.Paging{Style: "next_url", Next: "next_page_uri", Size: "PageSize"}},
		// Issue 32: the nested and other styles of real descriptions.
		"twilio v1 (meta.next_page_url)": {doc(`{"name": "PageSize", "in": "query", "schema": {"type": "integer", "maximum": 1000}}`,
			items+`, "meta": {"type": "object", "properties": {"first_page_url": {"type": "string"}, "next_page_url": {"type": "string", "nullable": true}, "page": {"type": "integer"}, "page_size": {"type": "integer"}, "key": {"type": "string"}}}`),
			providers.Paging{Style: "next_url", Next: "meta.next_page_url", Size: "PageSize", SizeMax: 1000}},
		"box (next_marker)": {doc(q("marker")+`,`+`{"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 1000}}`,
			`"entries": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}, "limit": {"type": "integer"}, "next_marker": {"type": "string"}, "prev_marker": {"type": "string"}`),
			providers.Paging{Style: "cursor", Param: "marker", Next: "next_marker", Size: "limit", SizeMax: 1000}},
		"box (an integer next_marker)": {doc(q("marker")+`,`+`{"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 1000}}`,
			`"entries": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}, "limit": {"type": "integer"}, "next_marker": {"type": "integer", "format": "int64"}, "prev_marker": {"type": "integer"}`),
			providers.Paging{Style: "cursor", Param: "marker", Next: "next_marker", Size: "limit", SizeMax: 1000}},
		"mailchimp (offset, count, total_items)": {doc(`{"name": "count", "in": "query", "schema": {"type": "integer", "maximum": 1000}},{"name": "offset", "in": "query", "schema": {"type": "integer"}}`,
			`"lists": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}, "total_items": {"type": "integer"}, "_links": {"type": "array", "items": {"type": "object", "properties": {"rel": {"type": "string"}, "href": {"type": "string"}}}}`),
			providers.Paging{Style: "offset", Param: "offset", Size: "count", SizeMax: 1000, Total: "total_items"}},
		"box (offset beside usemarker)": {doc(q("marker")+`,`+q("usemarker")+`,`+`{"name": "offset", "in": "query", "schema": {"type": "integer"}},{"name": "limit", "in": "query", "schema": {"type": "integer"}}`,
			`"entries": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}, "total_count": {"type": "integer"}, "limit": {"type": "integer"}, "offset": {"type": "integer"}, "next_marker": {"type": "string"}, "order": {"type": "array", "items": {"type": "object", "properties": {"by": {"type": "string"}}}}`),
			providers.Paging{Style: "offset", Param: "offset", Size: "limit", Total: "total_count"}},
		"square (cursor)": {doc(q("cursor")+`,`+`{"name": "limit", "in": "query", "schema": {"type": "integer"}}`,
			items+`, "cursor": {"type": "string"}, "errors": {"type": "array", "items": {"type": "string"}}`),
			providers.Paging{Style: "cursor", Param: "cursor", Next: "cursor", Size: "limit"}},
		"asana (next_page.offset)": {doc(q("offset")+`,`+`{"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}}`,
			`"data": {"type": "array", "items": {"type": "object", "properties": {"gid": {"type": "string"}}}}, "next_page": {"type": "object", "nullable": true, "properties": {"offset": {"type": "string"}, "path": {"type": "string"}, "uri": {"type": "string"}}}`),
			providers.Paging{Style: "cursor", Param: "offset", Next: "next_page.offset", Size: "limit", SizeMax: 100}},
		"vercel (pagination.next, until)": {doc(`{"name": "until", "in": "query", "schema": {"type": "number"}},{"name": "limit", "in": "query", "schema": {"type": "number"}}`,
			`"projects": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}, "pagination": {"type": "object", "properties": {"count": {"type": "number"}, "next": {"type": "number", "nullable": true}, "prev": {"type": "number", "nullable": true}}}`),
			providers.Paging{Style: "cursor", Param: "until", Next: "pagination.next", Size: "limit"}},
		"hal (_links.next.href)": {doc(q("page")+`,`+`{"name": "per_page", "in": "query", "schema": {"type": "integer"}}`,
			items+`, "_links": {"type": "object", "properties": {"self": {"type": "object", "properties": {"href": {"type": "string"}}}, "next": {"type": "object", "properties": {"href": {"type": "string"}}}}}`),
			providers.Paging{Style: "next_url", Next: "_links.next.href", Size: "per_page"}},
	} {
		m := tablesOf(t, name, name, c.data)[0].Methods[0]
		if m.Paging == nil || *m.Paging != c.want || m.Shape != providers.ShapeWrapped {
			t.Errorf("%s: paging %+v shape %s, want %+v wrapped", name, m.Paging, m.Shape, c.want)
		}
	}
}
