package corpus_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// rowsDoc holds the shapes the rows mode must tell apart (its own minimal
// description, not a vendor's).
const rowsDoc = `{
  "openapi": "3.0.0",
  "info": {"title": "shapes", "version": "1"},
  "servers": [{"url": "https://api.example.com/v1"}],
  "security": [{"key": []}],
  "paths": {
    "/things": {"get": {"security": [{"key": []}],
      "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}}],
      "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ThingList"}}}}}}},
    "/things/{id}": {"get": {
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
      "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}},
    "/me": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}}}},
    "/settings": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {
      "type": "object", "properties": {"enabled": {"type": "boolean"}, "numbers": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}}}}}}}}}},
    "/browse/categories": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {
      "type": "object", "properties": {"categories": {"type": "object", "properties": {
        "items": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}}, "next": {"type": "string"}}}}}}}}}}},
    "/profile.get": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {
      "type": "object", "properties": {"ok": {"type": "boolean"}, "profile": {"type": "object", "properties": {
        "name": {"type": "string"}, "total": {"type": "integer"},
        "fields": {"nullable": true, "items": {"type": "object"}, "oneOf": [{"type": "object"}, {"type": "array", "items": {}}]}}}}}}}}}}},
    "/pins.list": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {
      "type": "object", "properties": {"ok": {"type": "boolean"}, "items": {"type": "array", "items": {"type": "object", "properties": {"type": {"type": "string"}}}}}}}}}}}},
    "/flags": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"type": "array", "items": {"type": "boolean"}}}}}}}},
    "/apis/v1/": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {
      "type": "object", "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
        "resources": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}}}}}}}},
    "/lists/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^CH[0-9a-fA-F]{32}$"}},
      {"name": "part", "in": "query", "required": true, "schema": {"type": "array", "items": {"type": "string", "enum": ["snippet", "id"]}}}],
      "responses": {"200": {"content": {"application/json": {"schema": {
      "type": "object", "properties": {"recipients": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}}}}}}},
    "/builds/{num}": {"get": {"parameters": [{"name": "num", "in": "path", "required": true, "schema": {"type": "integer"}}],
      "responses": {"200": {"content": {"application/json": {"schema": {
      "type": "object", "properties": {"build_num": {"type": "integer"}, "previous": {"type": "object", "properties": {"build_num": {"type": "integer"}}},
        "commits": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}}}}}}},
    "/nothing": {"get": {"responses": {"204": {"description": "none"}}}},
    "/tokens/{token}": {"get": {"parameters": [
      {"name": "token", "in": "path", "required": true, "schema": {"type": "string"}},
      {"name": "kind", "in": "query", "required": true, "schema": {"type": "string", "enum": ["member", "board"]}},
      {"name": "count", "in": "query", "required": true, "schema": {"type": "integer", "minimum": 200}},
      {"name": "when", "in": "query", "required": true, "example": "2020-01-01", "schema": {"type": "string", "format": "date"}}],
      "responses": {"200": {"content": {"application/jwk-set+json": {"schema": {"type": "object", "properties": {"keys": {"type": "string"}}}}}}}}}
  },
  "components": {"schemas": {
    "Thing": {"type": "object", "properties": {"id": {"type": "string"}, "n": {"type": "integer"}, "on": {"type": "boolean"},
      "customer": {"anyOf": [{"type": "string"}, {"type": "object"}]}}},
    "ThingList": {"type": "object", "properties": {"object": {"type": "string"}, "data": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}}, "has_more": {"type": "boolean"}}},
    "User": {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "images": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}}}}
  }}
}`

func TestRowsLogic(t *testing.T) {
	doc, err := parseDoc([]byte(rowsDoc))
	if err != nil {
		t.Fatal(err)
	}
	items := func(path, body string) []any {
		t.Helper()
		op, params := doc.operation(path)
		if op == nil {
			t.Fatalf("no GET %s", path)
		}
		schema, _ := doc.responseSchema(op, 200)
		its, _, why, ok := doc.expectedItems(path, params, schema, []byte(body))
		if !ok {
			t.Fatalf("%s: the body contradicts the schema: %s", path, why)
		}
		return its
	}
	for _, c := range []struct {
		path, body string
		want       int
	}{
		{"/things", `{"object": "list", "data": [{"id": "a"}, {"id": "b"}], "has_more": false}`, 2}, // envelope: paging parameter and sibling
		{"/things/{id}", `{"id": "a", "n": 1}`, 1},                                                  // path ends in a parameter
		{"/me", `{"id": "u", "name": "x", "images": [{"id": "1"}, {"id": "2"}]}`, 1},                // an entity with an id and one list
		{"/settings", `{"enabled": true, "numbers": [{"id": "1"}, {"id": "2"}, {"id": "3"}]}`, 1},   // no paging, no tag-only siblings: one object
		{"/browse/categories", `{"categories": {"items": [{"id": "1"}, {"id": "2"}], "next": null}}`, 2},
		{"/profile.get", `{"ok": true, "profile": {"name": "x", "total": 3, "fields": {"a": 1}}}`, 1}, // items+oneOf object/array is no array
		{"/pins.list", `{"ok": true, "items": [{"type": "a"}, {"type": "b"}]}`, 2},                    // siblings are tags only
		{"/flags", `[true, false]`, 2},
		{"/nothing", ``, 1}, // the engine's documented row for a body-less answer
		{"/apis/v1/", `{"apiVersion": "v1", "kind": "APIResourceList", "resources": [{"name": "a"}, {"name": "b"}]}`, 2},
		{"/lists/{id}", `{"recipients": [{"n": 1}, {"n": 2}]}`, 2}, // a path parameter does not make one object
		{"/builds/{num}", `{"build_num": 1, "previous": {"build_num": 0}, "commits": [{"n": 1}, {"n": 2}]}`, 1},
	} {
		if got := items(c.path, c.body); len(got) != c.want {
			t.Errorf("%s: %d items, want %d (%v)", c.path, len(got), c.want, got)
		}
	}
	op, _ := doc.operation("/things")
	if _, declared := doc.responseSchema(op, 200); !declared {
		t.Error("/things declares a schema")
	}
	op, _ = doc.operation("/nothing")
	if _, declared := doc.responseSchema(op, 204); declared {
		t.Error("/nothing declares no schema")
	}
	op, _ = doc.operation("/tokens/{token}")
	if s, _ := doc.responseSchema(op, 200); s == nil {
		t.Error("a +json media type is JSON")
	}
	if _, _, _, ok := doc.expectedItems("/things", nil, doc.deref(map[string]any{"$ref": "#/components/schemas/ThingList"}), []byte(`{"data": "x"}`)); ok {
		t.Error("a body whose list is a string contradicts the schema")
	}

	// Placeholders a schema accepts.
	_, params := doc.operation("/tokens/{token}")
	want := map[string]string{"token": "'x'", "kind": "'member'", "count": "200", "when": "'2020-01-01'"}
	types := map[string]string{"token": "TEXT", "kind": "TEXT", "count": "INTEGER", "when": "TEXT"}
	for _, p := range params {
		name := p["name"].(string)
		if got := sqlLiteral(doc.placeholder(p), types[name]); got != want[name] {
			t.Errorf("placeholder of %s: %s, want %s", name, got, want[name])
		}
	}
	_, params = doc.operation("/things/{id}")
	if got := doc.placeholder(params[0]); got != "123e4567-e89b-12d3-a456-426614174000" {
		t.Errorf("uuid placeholder %v", got)
	}
	_, params = doc.operation("/lists/{id}")
	if got := doc.placeholder(params[0]); got != "CH"+strings.Repeat("0", 32) {
		t.Errorf("pattern placeholder %v", got)
	}
	if got := doc.placeholder(params[1]); got != "snippet" {
		t.Errorf("array placeholder %v", got)
	}
	for pat, want := range map[string]string{`^\d{3}-[a-z]+$`: "111-a", `^v\.?1$`: "v1", `^(a|b)$`: ""} {
		got, ok := fromPattern(pat)
		if ok != (want != "") || got != want {
			t.Errorf("fromPattern(%s) = %q, %v", pat, got, ok)
		}
	}
	if got := sqlLiteral("it's", "TEXT"); got != "'it''s'" {
		t.Errorf("quoting: %s", got)
	}

	for _, c := range []struct {
		tpl, path string
		want      bool
	}{
		{"/things/{id}", "/things/a", true},
		{"/things/{id}", "/things", false},
		{"/things/{id}", "/things/a/b", false},
		{"/v1/{a}.json", "/v1/x.json", true},
		{"/conversations.list", "/conversations.list", true},
		{"/conversations.list", "/conversationsXlist", false},
	} {
		if got := matchTemplate(c.tpl, c.path); got != c.want {
			t.Errorf("matchTemplate(%s, %s) = %v", c.tpl, c.path, got)
		}
	}
}

func TestRowsCompare(t *testing.T) {
	doc, err := parseDoc([]byte(rowsDoc))
	if err != nil {
		t.Fatal(err)
	}
	thing := doc.deref(map[string]any{"$ref": "#/components/schemas/Thing"})
	cs := describeColumns([]map[string]any{
		{"name": "id", "kind": "column"}, {"name": "n", "kind": "column"}, {"name": "on", "kind": "column"},
		{"name": "customer", "kind": "column"}, {"name": "n_2", "kind": "column", "description": "Count. API name: N."},
		{"name": "query", "kind": "required key"},
	})
	dec := func(s string) any {
		t.Helper()
		v, err := decodeJSON([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	rows := func(s string) []map[string]any {
		var out []map[string]any
		for _, x := range dec(s).([]any) {
			out = append(out, x.(map[string]any))
		}
		return out
	}
	for _, c := range []struct {
		name, got, items string
		diffs, contra    int
		mention          string
	}{
		{"equal", `[{"id": "a", "n": 1.0, "on": true, "customer": null, "query": "x"}]`, `[{"id": "a", "n": 1, "on": true}]`, 0, 0, ""},
		{"boolean as 1", `[{"id": "a", "on": 1}]`, `[{"id": "a", "on": true}]`, 1, 0, "on: got 1, want true"},
		{"string re-typed", `[{"id": "a", "customer": 42}]`, `[{"id": "a", "customer": "42"}]`, 1, 0, `customer: got 42, want "42"`},
		{"big integer as float", `[{"id": "a", "n": 12345678901234567000}]`, `[{"id": "a", "n": 12345678901234567890}]`, 1, 0, "n: got"},
		{"renamed column", `[{"id": "a", "n_2": 5}]`, `[{"id": "a", "N": 5}]`, 0, 0, ""},
		{"missing declared field", `[{"n": 1}]`, `[{"id": "a", "n": 1}]`, 1, 0, "no column for field id"},
		{"undeclared field without column", `[{"id": "a"}]`, `[{"id": "a", "extra": 1}]`, 0, 0, ""},
		{"extra non-null column", `[{"id": "a", "n": 3}]`, `[{"id": "a"}]`, 1, 0, "column n = 3"},
		{"WHERE key shadows a field", `[{"id": "a", "query": "x"}]`, `[{"id": "a", "query": "the mock's"}]`, 0, 0, ""},
		{"body-less", `[{"ok": true}]`, `[{}]`, 0, 0, ""},
		{"row count", `[{"id": "a"}]`, `[{"id": "a"}, {"id": "b"}]`, 1, 0, "1 rows, want 2"},
		{"limit", `[{"id": "1"}, {"id": "2"}]`, `[{"id": "1"}, {"id": "2"}, {"id": "3"}]`, 0, 0, ""},
		{"example contradicts schema", `[{"id": "a", "n": "10"}]`, `[{"id": "a", "n": "10x"}]`, 0, 1, "the schema says integer"},
	} {
		var items []any
		items = append(items, dec(c.items).([]any)...)
		limit := 5
		if c.name == "limit" {
			limit = 2
		}
		diffs, contra := doc.compareRows(rows(c.got), items, thing, limit, cs)
		if len(diffs) != c.diffs || len(contra) != c.contra {
			t.Errorf("%s: diffs %q, contradictions %q; want %d and %d", c.name, diffs, contra, c.diffs, c.contra)
			continue
		}
		if c.mention != "" && !strings.Contains(strings.Join(append(diffs, contra...), "; "), c.mention) {
			t.Errorf("%s: %q does not say %q", c.name, append(diffs, contra...), c.mention)
		}
	}
	// Items without properties: the whole item in column value.
	flags := doc.deref(map[string]any{"type": "array", "items": map[string]any{"type": "boolean"}})
	if d, _ := doc.compareRows(rows(`[{"value": 1}, {"value": 0}]`), dec(`[true, false]`).([]any), doc.itemsOf(flags), 5, describeColumns(nil)); len(d) != 2 {
		t.Errorf("scalar booleans as 1/0: %q", d)
	}
	if d, _ := doc.compareRows(rows(`[{"value": {"a": 1}}]`), dec(`[{"a": 1}]`).([]any), nil, 5, describeColumns(nil)); len(d) != 0 {
		t.Errorf("an object without properties in value: %q", d)
	}
}

// TestForMock checks the description prism gets: only the kept paths and
// their GETs, no servers, no security, everything else byte for byte in
// its order.
func TestForMock(t *testing.T) {
	out, err := forMock([]byte(rowsDoc), map[string]bool{"/things": true, "/me": true})
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if _, ok := v["servers"]; ok {
		t.Error("servers kept")
	}
	if _, ok := v["security"]; ok {
		t.Error("security kept")
	}
	paths := v["paths"].(map[string]any)
	if len(paths) != 2 || paths["/things"] == nil || paths["/me"] == nil {
		t.Errorf("paths %v", paths)
	}
	if _, ok := paths["/things"].(map[string]any)["get"].(map[string]any)["security"]; ok {
		t.Error("operation security kept")
	}
	s := string(out)
	if strings.Index(s, `"openapi"`) > strings.Index(s, `"info"`) || strings.Index(s, `"/things"`) > strings.Index(s, `"/me"`) {
		t.Errorf("key order changed:\n%s", s)
	}
	if !strings.Contains(s, `"ThingList": {"type": "object"`) {
		t.Error("components not kept byte for byte")
	}

	stripeLike := `{"paths": {"/c": {"get": {"responses": {}}}}, "components": {"schemas": {"Charge": {"properties": {
		"customer": {"anyOf": [{"maxLength": 5000, "type": "string"}, {"$ref": "#/components/schemas/Customer"}], "x-expansionResources": {"oneOf": []}, "nullable": true},
		"other": {"anyOf": [{"type": "string"}, {"type": "object"}]}}}}}}`
	out, err = forMock([]byte(stripeLike), map[string]bool{"/c": true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"customer":{"nullable":true,"maxLength":5000,"type":"string"}`) ||
		!strings.Contains(string(out), `"other":{"anyOf":[{"type":"string"},{"type":"object"}]}`) {
		t.Errorf("expandable fields:\n%s", out)
	}
}

// A *ListResponse envelope (items beside kind, etag, eventId,
// visitorId) is a list; a settings object holding one list beside links
// and other objects is one item.
func TestEnvelopeTagsAndLinks(t *testing.T) {
	youtube := []shapeField{{name: "etag"}, {name: "eventId"}, {name: "items", objArray: true}, {name: "kind"}, {name: "visitorId"}}
	if got := envelope(youtube, "/youtube/v3/captions", map[string]bool{"part": true, "videoId": true}, 0); fmt.Sprint(got) != "[items]" {
		t.Errorf("YouTube list response: %v, want [items]", got)
	}
	settings := []shapeField{{name: "branch_types", objArray: true}, {name: "development", object: true}, {name: "links", object: true}, {name: "production", object: true}, {name: "type"}}
	if got := envelope(settings, "/repositories/{workspace}/{repo_slug}/branching-model/settings", nil, 0); got != nil {
		t.Errorf("settings object: %v, want one item", got)
	}
}

// A list the schema requires, absent from the body, or absent beside an
// array the schema does not declare, is a contradiction of the
// description; an optional list absent is no item.
func TestAbsentList(t *testing.T) {
	doc, err := parseDoc([]byte(`{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	item := map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}}
	list := map[string]any{"type": "array", "items": item}
	schema := func(required bool) map[string]any {
		s := map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}, "reminders": list}}
		if required {
			s["required"] = []any{"ok", "reminders"}
		}
		return s
	}
	if _, _, why, ok := doc.expectedItems("/reminders.list", nil, schema(true), []byte(`{"ok": true}`)); ok {
		t.Error("a required list absent from the body is a contradiction")
	} else if !strings.Contains(why, "requires") {
		t.Errorf("why: %s", why)
	}
	if its, _, why, ok := doc.expectedItems("/reminders.list", nil, schema(false), []byte(`{"ok": true}`)); !ok || len(its) != 0 {
		t.Errorf("an optional list absent: %v %v %s, want no item", its, ok, why)
	}
	if why, ok := doc.lacksRequired(schema(true), []byte(`{"ok": true}`)); ok || !strings.Contains(why, "reminders") {
		t.Errorf("lacksRequired: %v %s, want the required list named", ok, why)
	}
	if _, ok := doc.lacksRequired(schema(false), []byte(`{"ok": true}`)); !ok {
		t.Error("an optional list may be absent")
	}
	if _, _, _, ok := doc.expectedItems("/reminders.list", nil, schema(false), []byte(`{"ok": true, "results": [{"id": "a"}]}`)); ok {
		t.Error("an undeclared array where the list should be is a contradiction")
	}
}
