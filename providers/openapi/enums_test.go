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
