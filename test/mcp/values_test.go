package mcp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// A string in a column whose schema is a string or an object (Stripe's
// expandable customer) stays a string in structuredContent and shows as
// itself in the TSV block; an object stays an object; json_extract into a
// string is NULL, not an error; a boolean of a number-or-boolean column
// stays a boolean.
func TestJSONColumnValuesKeepTheirType(t *testing.T) {
	api := fakeapis.NewFixed(t, map[string]string{"/v1/charges": `{"object": "list", "has_more": false, "data": [
  {"id": "ch_1", "customer": "cus_123", "score": true},
  {"id": "ch_2", "customer": {"id": "cus_9", "email": "x@example.com"}, "score": 2.5},
  {"id": "ch_3", "customer": "42", "score": false}]}`})
	doc := fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": "acme", "version": "1"}, "servers": [{"url": %q}],
  "paths": {"/v1/charges": {"get": {"operationId": "listCharges", "tags": ["charges"],
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {
      "object": {"type": "string"}, "has_more": {"type": "boolean"},
      "data": {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "string"},
        "customer": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"id": {"type": "string"}, "email": {"type": "string"}}}]},
        "score": {"oneOf": [{"type": "number"}, {"type": "boolean"}]}}}}}}}}}}}}}}`, api.URL)
	c := providerClient(t, doc)

	r := c.Query(t, "SELECT id, customer, score, json_extract(customer, '$.email') AS email FROM acme.charges.charges ORDER BY id")
	if r.IsError {
		t.Fatalf("error result: %s", r.Text)
	}
	got := fmt.Sprintf("%#v", r.Rows)
	want := fmt.Sprintf("%#v", [][]any{
		{"ch_1", "cus_123", true, nil},
		{"ch_2", map[string]any{"id": "cus_9", "email": "x@example.com"}, 2.5, "x@example.com"},
		{"ch_3", "42", false, nil},
	})
	if got != want {
		t.Fatalf("structuredContent rows:\n got %s\nwant %s", got, want)
	}
	_, lines, _ := mcptest.TSVLines(r.Text)
	wantLines := []string{"ch_1\tcus_123\ttrue\t", `ch_2` + "\t" + `{"id": "cus_9", "email": "x@example.com"}` + "\t2.5\tx@example.com", "ch_3\t42\tfalse\t"}
	if strings.Join(lines, "\n") != strings.Join(wantLines, "\n") {
		t.Fatalf("TSV rows:\n got %q\nwant %q", lines, wantLines)
	}
}
