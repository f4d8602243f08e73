package openapidoc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/testutil"
)

// getMedia is one GET operation answering 200 with schema under each of
// the media types.
func getMedia(opID, tag, params, schema string, media ...string) string {
	content := make([]string, len(media))
	for i, m := range media {
		content[i] = fmt.Sprintf(`%q: {"schema": %s}`, m, schema)
	}
	if params != "" {
		params = `"parameters": [` + params + `], `
	}
	return fmt.Sprintf(`{"get": {"operationId": %q, "tags": [%q], %s"responses": {"200": {"description": "ok", "content": {%s}}}}}`,
		opID, tag, params, strings.Join(content, ", "))
}

// A method whose answer is declared only with another JSON media type
// (a JWK set) is asked with that type in Accept, so a server that
// negotiates strictly answers it instead of 406.
func TestAcceptIsTheDeclaredMediaType(t *testing.T) {
	a := fakeapis.NewMedia(t, map[string]fakeapis.Body{
		"/.well-known/jwks.json": {Type: "application/jwk-set+json", Text: `{"keys": [{"kid": "k1", "kty": "RSA"}, {"kid": "k2", "kty": "EC"}]}`},
		"/things":                {Type: "application/json", Text: `[{"id": "a"}]`},
	})
	doc := writeDoc(t, a.URL, `{"/.well-known/jwks.json": `+
		getMedia("getJwks", "keys", "", obj(`"keys": `+arr(obj(`"kid": {"type": "string"}`, `"kty": {"type": "string"}`))), "application/jwk-set+json")+
		`, "/things": `+getMedia("listThings", "things", "", arr(obj(`"id": {"type": "string"}`)), "application/json")+`}`)
	rows := mustRows(t, doc, "SELECT kid, kty FROM acme.keys.well_known ORDER BY kid")
	if fmt.Sprint(rows) != "[map[kid:k1 kty:RSA] map[kid:k2 kty:EC]]" {
		t.Fatalf("rows %v", rows)
	}
	rows = mustRows(t, doc, "SELECT id FROM acme.things.things")
	if fmt.Sprint(rows) != "[map[id:a]]" {
		t.Fatalf("rows %v", rows)
	}
	if got := fmt.Sprint(a.Accepts()); got != "[application/jwk-set+json application/json]" {
		t.Fatalf("Accept headers sent: %s", got)
	}
}

// A 200 whose schema is a plain string (a pod's log as text/plain, a
// version as a JSON string, a log declared as JSON but served as text as
// Kubernetes does) reads as one row with the text in column value.
func TestPlainStringAnswerIsAValueRow(t *testing.T) {
	const log = "line 1\nline \"2\"\n{\"not\": \"json\"}\n"
	a := fakeapis.NewMedia(t, map[string]fakeapis.Body{
		"/api/v1/namespaces/default/pods/web/log":  {Type: "text/plain; charset=utf-8", Text: log},
		"/api/v1/namespaces/default/pods/web/logs": {Type: "text/plain", Text: log},
		"/api/v1/namespaces/default/pods/web/tail": {Type: "text/plain", Text: log},
		"/version": {Type: "application/json", Text: `"v1.2.3"`},
	})
	str := `{"type": "string"}`
	ns, pod := pathParam("namespace"), pathParam("name")
	doc := writeDoc(t, a.URL, `{"/api/v1/namespaces/{namespace}/pods/{name}/log": `+getMedia("readPodLog", "logs", ns+", "+pod, str, "text/plain")+
		`, "/api/v1/namespaces/{namespace}/pods/{name}/logs": `+getMedia("readPodLogs", "podlogs", ns+", "+pod, str, "application/json", "text/plain", "application/yaml")+
		`, "/api/v1/namespaces/{namespace}/pods/{name}/tail": `+getMedia("readPodTail", "tails", ns+", "+pod, str, "*/*")+
		`, "/files/{name}": `+getMedia("downloadFile", "files", pod, `{"type": "string", "format": "binary"}`, "*/*")+
		`, "/version": `+getMedia("getVersion", "version", "", str, "application/json")+`}`)
	if got := fmt.Sprint(tableNames(t, doc)); got != "[acme.logs.logs acme.podlogs.namespaces acme.tails.tails acme.version.version]" {
		t.Fatalf("tables %s (a */* binary body is a download, not a table)", got)
	}

	for _, table := range []string{"acme.logs.logs", "acme.podlogs.namespaces", "acme.tails.tails"} {
		r := testutil.Run(t, testutil.Env(t), "", "exec", "-o", "json", "--provider", "acme="+doc,
			"SELECT value, name FROM "+table+" WHERE namespace = 'default' AND name = 'web'")
		if r.Code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", table, r.Code, r.Stdout, r.Stderr)
		}
		if want := "[\n  {\"value\": \"line 1\\nline \\\"2\\\"\\n{\\\"not\\\": \\\"json\\\"}\\n\", \"name\": \"web\"}\n]\n"; r.Stdout != want {
			t.Fatalf("%s:\n got %q\nwant %q", table, r.Stdout, want)
		}
	}
	rows := mustRows(t, doc, "SELECT value FROM acme.version.version")
	if fmt.Sprint(rows) != "[map[value:v1.2.3]]" {
		t.Fatalf("rows %v", rows)
	}
	r := testutil.Run(t, testutil.Env(t), "", "exec", "-o", "tsv", "--provider", "acme="+doc, "DESCRIBE acme.logs.logs")
	testutil.WantRun(t, "DESCRIBE", r, 0, "\nvalue\tTEXT\tcolumn\tall\t", "")
	if got := fmt.Sprint(a.Accepts()); got != "[text/plain application/json, text/plain */* application/json]" {
		t.Fatalf("Accept headers sent: %s", got)
	}
}
