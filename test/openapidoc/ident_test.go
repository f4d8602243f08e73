package openapidoc_test

import (
	"fmt"
	"strings"
	"testing"
)

// A camelCase required path parameter binds whatever case WHERE writes it
// in, the API gets its own spelling (path and query), and a camelCase
// column is read by name.
func TestCamelCaseParameterBindsAndColumnReads(t *testing.T) {
	a, doc := serveDoc(t, map[string]string{
		"/v1/subscriptions/s-1": `{"subscriptionId": "s-1", "createdAt": "2024-01-02", "displayName": "Main"}`,
	}, `{"/v1/subscriptions/{subscriptionId}": `+get("Subscriptions_Get", "Subscriptions",
		pathParam("subscriptionId")+", "+queryParam("apiVersion"),
		obj(`"subscriptionId": {"type": "string"}`, `"createdAt": {"type": "string"}`, `"displayName": {"type": "string"}`))+`}`)
	for _, where := range []string{"subscriptionId = 's-1'", "SUBSCRIPTIONID = 's-1'", "`subscriptionId` = 's-1'"} {
		q := "SELECT createdAt, displayname, subscriptionId FROM acme.subscriptions.subscriptions WHERE " + where + " AND apiVersion = '2020-01-01'"
		rows := mustRows(t, doc, q)
		if len(rows) != 1 || rows[0]["createdAt"] != "2024-01-02" || rows[0]["displayName"] != "Main" || rows[0]["subscriptionId"] != "s-1" {
			t.Fatalf("%s: rows %v", q, rows)
		}
	}
	reqs := a.Requests()
	if len(reqs) != 3 || reqs[0] != "/v1/subscriptions/s-1?apiVersion=2020-01-01" {
		t.Fatalf("requests %v, want /v1/subscriptions/s-1?apiVersion=2020-01-01 three times", reqs)
	}
}

// Names equal ignoring case get a deterministic suffix, DESCRIBE shows
// the API's name, and a parameter id beside a column Id is bound without
// an error after the HTTP call.
func TestCaseCollisionsGetSuffixes(t *testing.T) {
	a, doc := serveDoc(t, map[string]string{
		"/meetings": `[{"OrganizerKey": "upper", "organizerKey": "lower", "Id": "M1", "2fa": true, "full-name": "Ann"}]`,
	}, `{"/meetings": `+get("listMeetings", "meetings", queryParam("id"),
		arr(obj(`"OrganizerKey": {"type": "string"}`, `"organizerKey": {"type": "string"}`, `"Id": {"type": "string"}`,
			`"2fa": {"type": "boolean"}`, `"full-name": {"type": "string"}`)))+`}`)
	rows := mustRows(t, doc, "SELECT OrganizerKey, organizerKey_2, Id_2, id, `2fa`, `full-name` FROM acme.meetings.meetings WHERE id = 'q'")
	want := map[string]any{"OrganizerKey": "upper", "organizerKey_2": "lower", "Id_2": "M1", "id": "q", "2fa": true, "full-name": "Ann"}
	if len(rows) != 1 || fmt.Sprint(rows[0]) != fmt.Sprint(want) {
		t.Fatalf("rows %v, want %v", rows, want)
	}
	if reqs := a.Requests(); len(reqs) != 1 || reqs[0] != "/meetings?id=q" {
		t.Fatalf("requests %v", reqs)
	}
	desc := mustRows(t, doc, "DESCRIBE acme.meetings.meetings")
	got := map[string]string{}
	for _, r := range desc {
		got[fmt.Sprint(r["name"])] = fmt.Sprint(r["description"])
	}
	if got["organizerKey_2"] != "API name: organizerKey." || got["Id_2"] != "API name: Id." || got["OrganizerKey"] != "" {
		t.Fatalf("DESCRIBE does not show the mapping: %v", got)
	}
}

// A method without a JSON body and without parameters is a table of one
// row (ok = true), not an internal error.
func TestBodylessMethodWithoutParameters(t *testing.T) {
	_, doc := serveDoc(t, map[string]string{"/ping": ""}, `{"/ping": `+get("ping", "ping", "", "")+`}`)
	rows := mustRows(t, doc, "SELECT ok FROM acme.ping.ping")
	if len(rows) != 1 || rows[0]["ok"] != true {
		t.Fatalf("rows %v", rows)
	}
	rows = mustRows(t, doc, "SELECT count(*) AS n FROM acme.ping.ping")
	if len(rows) != 1 || fmt.Sprint(rows[0]["n"]) != "1" {
		t.Fatalf("rows %v", rows)
	}
}

// A document that cannot be used is a plan error (exit 1) that names the
// provider once and says what to do, never an internal error.
func TestRefusedDocumentIsAClearError(t *testing.T) {
	dir := t.TempDir()
	bad := writeDoc(t, "http://127.0.0.1:1", `{"/x": {"get": {"responses": {"200": {"$ref": "other.yaml#/r"}}}}}`)
	for _, file := range []string{bad, dir + "/missing.json"} {
		r := runAcme(t, file, "SHOW RESOURCES IN acme")
		if r.Code != 1 || strings.Contains(r.Stderr, "bug") || strings.Count(r.Stderr, "provider acme:") != 1 ||
			!strings.Contains(r.Stderr, "error (plan)") || !strings.Contains(r.Stderr, "--provider acme=PATH") {
			t.Fatalf("%s: exit %d\n%s", file, r.Code, r.Stderr)
		}
	}
}

// A document declaring the same name as a path and a query parameter: the
// name binds the path (it was "used both as an API parameter and as a row
// filter"), and the value is sent in the query too, which the method
// declares.
func TestQueryParameterShadowedByPathParameter(t *testing.T) {
	op := `{"get": {"operationId": "getLogs", "tags": ["connections"],
	  "parameters": [` + pathParam("id_connection") + `, ` + queryParam("id_connection") + `],
	  "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": ` +
		arr(obj(`"id": {"type": "integer"}`, `"id_connection": {"type": "integer"}`)) + `}}}}}}`
	a, doc := serveDoc(t, map[string]string{"/connections/7/logs": `[{"id": 1, "id_connection": 7}]`}, `{"/connections/{id_connection}/logs": `+op+`}`)
	rows := mustRows(t, doc, "SELECT id, id_connection FROM acme.connections.logs WHERE id_connection = '7'")
	if fmt.Sprint(rows) != "[map[id:1 id_connection:7]]" {
		t.Fatalf("rows %v", rows)
	}
	if reqs := a.Requests(); len(reqs) != 1 || reqs[0] != "/connections/7/logs?id_connection=7" {
		t.Fatalf("requests %v", reqs)
	}
}
