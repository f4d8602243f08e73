package openapi

import (
	"slices"
	"testing"

	"github.com/enginehq/engine/providers"
)

// A parameter's enum and default are carried as the API reads them,
// only for scalar string and integer enums; nulls are dropped, enums on
// array items, of booleans or of mixed types are not kept.
func TestParamEnumsAndDefaults(t *testing.T) {
	params := `{"name": "state", "in": "query", "schema": {"type": "string", "enum": ["open", "closed", "all"], "default": "open"}},
	  {"name": "nullable", "in": "query", "schema": {"type": "string", "nullable": true, "enum": ["a", "b", null]}},
	  {"name": "level", "in": "query", "schema": {"type": "integer", "enum": [1, 2, 3], "default": 2}},
	  {"name": "sort", "in": "query", "schema": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}}},
	  {"name": "flag", "in": "query", "schema": {"type": "boolean", "enum": [true], "default": false}},
	  {"name": "mixed", "in": "query", "schema": {"enum": ["a", 1]}},
	  {"name": "sha", "in": "query", "schema": {"type": "string", "default": "none"}},
	  {"name": "free", "in": "query", "schema": {"type": "string"}}`
	m := methodOf(t, "/things", params, `{"type": "array", "items": {"type": "object", "properties": {"state": {"type": "string"}}}}`)
	for _, c := range []struct {
		name string
		enum []string
		def  string
	}{
		{"state", []string{"open", "closed", "all"}, "open"},
		{"nullable", []string{"a", "b"}, ""},
		{"level", []string{"1", "2", "3"}, "2"},
		{"sort", nil, ""},
		{"flag", nil, "false"},
		{"mixed", nil, ""},
		{"sha", nil, "none"},
		{"free", nil, ""},
	} {
		p := m.Param(c.name)
		if p == nil {
			t.Fatalf("no parameter %s in %+v", c.name, m.Params)
		}
		if !slices.Equal(p.Enum, c.enum) || p.Default != c.def {
			t.Errorf("%s: enum %q default %q, want %q %q", c.name, p.Enum, p.Default, c.enum, c.def)
		}
	}
	if p := m.Param("state"); !p.Allows("closed") || p.Allows("Closed") || !(providers.Param{}).Allows("x") {
		t.Errorf("Allows: values compare exactly; no enum allows any value")
	}
}

// A table of several methods is described by its entity (the schema's
// description or title, else its name), never by one method's summary;
// each method keeps its own; a table of one method adds that method's.
func TestTableSummaryIsTheEntity(t *testing.T) {
	doc := `{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {
	  "/repos": {"get": {"operationId": "repos/list-mine", "tags": ["repos"], "summary": "List repositories for the authenticated user", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/repository"}}}}}}}},
	  "/orgs/{org}/repos": {"get": {"operationId": "repos/list-for-org", "tags": ["repos"], "summary": "List organization repositories", "parameters": [{"name": "org", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/repository"}}}}}}}},
	  "/usage": {"get": {"operationId": "usage/get-usage", "summary": "Get the cache usage", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/actions-cache-usage"}}}}}}}},
	  "components": {"schemas": {"repository": {"title": "Repository", "type": "object", "properties": {"id": {"type": "integer"}}},
	    "actions-cache-usage": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}`
	got := map[string]string{}
	for _, r := range tablesOf(t, "t", "t.json", []byte(doc)) {
		got[r.Service+"."+r.Name] = r.Summary
		for _, m := range r.Methods {
			got[m.Name] = m.Summary
		}
	}
	want := map[string]string{
		"repos.repos": "Repository.", "list_mine": "List repositories for the authenticated user", "list_for_org": "List organization repositories",
		"usage.usage": "Actions cache usage. Get the cache usage", "get_usage": "Get the cache usage",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: summary %q, want %q (all: %q)", k, got[k], w, got)
		}
	}
}
