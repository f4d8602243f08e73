// Package openapidoc_test runs the built binary against OpenAPI documents
// given with --provider (not GitHub): identifiers as the API writes them,
// naming, list envelopes, side-effecting GETs and refused documents. A
// loopback server plays the API and records what it was asked.
package openapidoc_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/testutil"
)

// writeDoc writes an OpenAPI document whose servers[0] is url and whose
// paths are the given JSON object text.
func writeDoc(t *testing.T, url, paths string) string {
	t.Helper()
	doc := fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": "Acme Cloud", "version": "1"},
  "servers": [{"url": %q}], "paths": %s}`, url, paths)
	var check any
	if err := json.Unmarshal([]byte(doc), &check); err != nil {
		t.Fatalf("test document is not JSON: %v\n%s", err, doc)
	}
	return testutil.TempFile(t, "acme.json", doc)
}

// serveDoc starts a loopback API answering bodies (fakeapis.NewFixed)
// and writes a document of the given paths (writeDoc) served by it.
func serveDoc(t *testing.T, bodies map[string]string, paths string) (*fakeapis.Fixed, string) {
	t.Helper()
	a := fakeapis.NewFixed(t, bodies)
	return a, writeDoc(t, a.URL, paths)
}

// runAcme runs `engine exec` with flags and the document as provider
// acme.
func runAcme(t *testing.T, doc, q string, flags ...string) testutil.Result {
	t.Helper()
	args := append(append([]string{"exec"}, flags...), "--provider", "acme="+doc, q)
	return testutil.Run(t, testutil.Env(t), "", args...)
}

// execJSON runs `engine exec -o json` with the document as provider acme.
func execJSON(t *testing.T, doc, q string) ([]map[string]any, testutil.Result) {
	t.Helper()
	r := runAcme(t, doc, q, "-o", "json")
	if r.Code != 0 {
		return nil, r
	}
	rows := testutil.JSONRows(t, r)
	return rows, r
}

func mustRows(t *testing.T, doc, q string) []map[string]any {
	t.Helper()
	rows, r := execJSON(t, doc, q)
	if r.Code != 0 {
		t.Fatalf("%s: exit %d\n%s%s", q, r.Code, r.Stdout, r.Stderr)
	}
	return rows
}

// obj is a JSON response schema: an object with the given properties
// (name -> JSON schema text).
func obj(props ...string) string {
	return `{"type": "object", "properties": {` + strings.Join(props, ", ") + `}}`
}

func arr(item string) string { return `{"type": "array", "items": ` + item + `}` }

// get is one GET operation answering schema with 200 (204 without body
// when schema is "").
func get(opID, tag, params, schema string) string {
	tags := ""
	if tag != "" {
		tags = fmt.Sprintf(`"tags": [%q], `, tag)
	}
	if params != "" {
		params = `"parameters": [` + params + `], `
	}
	resp := `{"204": {"description": "ok"}}`
	if schema != "" {
		resp = `{"200": {"description": "ok", "content": {"application/json": {"schema": ` + schema + `}}}}`
	}
	return fmt.Sprintf(`{"get": {"operationId": %q, %s%s"responses": %s}}`, opID, tags, params, resp)
}

func pathParam(name string) string {
	return fmt.Sprintf(`{"name": %q, "in": "path", "required": true, "schema": {"type": "string"}}`, name)
}

func queryParam(name string) string {
	return fmt.Sprintf(`{"name": %q, "in": "query", "schema": {"type": "string"}}`, name)
}
