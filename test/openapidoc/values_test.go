package openapidoc_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// chargesDoc describes a list of charges whose customer is expandable (an
// ID string unless expanded into an object, as in Stripe), whose headers
// are a string or an object, whose score is a number or a boolean, and
// whose serial is an integer that may exceed 64 bits; a loopback API
// answers chargesBody.
func chargesDoc(t *testing.T) string {
	customer := obj(`"id": {"type": "string"}`, `"email": {"type": "string"}`)
	charge := obj(`"id": {"type": "string"}`,
		`"customer": {"anyOf": [{"type": "string"}, `+customer+`]}`,
		`"headers": {"oneOf": [{"type": "string"}, {"type": "object"}]}`,
		`"score": {"oneOf": [{"type": "number"}, {"type": "boolean"}]}`,
		`"serial": {"type": "integer"}`)
	_, doc := serveDoc(t, map[string]string{"/v1/charges": chargesBody}, `{"/v1/charges": `+get("listCharges", "charges", "", obj(`"object": {"type": "string"}`, `"data": `+arr(charge), `"has_more": {"type": "boolean"}`))+`}`)
	return doc
}

const chargesBody = `{"object": "list", "has_more": false, "data": [
  {"id": "ch_1", "customer": "cus_123", "headers": "{\"a\": 1}", "score": true, "serial": 123456789012345678901234567890},
  {"id": "ch_2", "customer": {"id": "cus_9", "email": "x@example.com"}, "headers": {"a": 1}, "score": 2.5, "serial": 7},
  {"id": "ch_3", "customer": "42", "score": false},
  {"id": "ch_4", "customer": "null", "score": 1}]}`

// exactRows runs q with -o json and returns its rows, numbers kept as
// written; it fails the test unless the run succeeds.
func exactRows(t *testing.T, doc, q string) []map[string]any {
	t.Helper()
	r := runAcme(t, doc, q, "-o", "json")
	if r.Code != 0 {
		t.Fatalf("%s: exit %d\n%s%s", q, r.Code, r.Stdout, r.Stderr)
	}
	dec := json.NewDecoder(strings.NewReader(r.Stdout))
	dec.UseNumber()
	var rows []map[string]any
	if err := dec.Decode(&rows); err != nil {
		t.Fatalf("stdout is not a JSON array: %v\n%s", err, r.Stdout)
	}
	return rows
}

// A string in a column whose schema is a string or an object (an
// expandable reference) stays a string: json_extract into it is NULL, not
// a malformed-JSON error that fails the statement, and a string that
// reads as JSON ("42", "null", a JSON object's text) keeps its type in
// -o json.
func TestJSONColumnStringsKeepTheirType(t *testing.T) {
	doc := chargesDoc(t)

	// json_extract over an expandable column.
	if got := fmt.Sprint(exactRows(t, doc, "SELECT id, json_extract(customer, '$.email') AS email FROM acme.charges.charges ORDER BY id")); got != "[map[email:<nil> id:ch_1] map[email:x@example.com id:ch_2] map[email:<nil> id:ch_3] map[email:<nil> id:ch_4]]" {
		t.Fatalf("emails %s", got)
	}

	rows := exactRows(t, doc, "SELECT id, customer, headers, score FROM acme.charges.charges ORDER BY id")
	want := []map[string]any{
		{"id": "ch_1", "customer": "cus_123", "headers": `{"a": 1}`, "score": true},
		{"id": "ch_2", "customer": map[string]any{"id": "cus_9", "email": "x@example.com"}, "headers": map[string]any{"a": json.Number("1")}, "score": json.Number("2.5")},
		{"id": "ch_3", "customer": "42", "headers": nil, "score": false},
		{"id": "ch_4", "customer": "null", "headers": nil, "score": json.Number("1")},
	}
	if fmt.Sprintf("%#v", rows) != fmt.Sprintf("%#v", want) {
		t.Fatalf("-o json re-types values:\n got %#v\nwant %#v", rows, want)
	}

	// The text formats show a string as the string itself, an object as
	// its JSON text, a boolean as true/false.
	for format, want := range map[string]string{
		"csv":   "id,customer,headers,score\nch_1,cus_123,\"{\"\"a\"\": 1}\",true\nch_2,\"{\"\"id\"\": \"\"cus_9\"\", \"\"email\"\": \"\"x@example.com\"\"}\",\"{\"\"a\"\": 1}\",2.5\nch_3,42,,false\nch_4,null,,1\n",
		"tsv":   "id\tcustomer\theaders\tscore\nch_1\tcus_123\t{\"a\": 1}\ttrue\nch_2\t{\"id\": \"cus_9\", \"email\": \"x@example.com\"}\t{\"a\": 1}\t2.5\nch_3\t42\t\tfalse\nch_4\tnull\t\t1\n",
		"table": "| ch_1 | cus_123 ",
	} {
		r := runAcme(t, doc, "SELECT id, customer, headers, score FROM acme.charges.charges ORDER BY id", "-o", format)
		if r.Code != 0 {
			t.Fatalf("-o %s: exit %d\n%s%s", format, r.Code, r.Stdout, r.Stderr)
		}
		if format == "table" {
			if !strings.Contains(r.Stdout, want) || strings.Contains(r.Stdout, `"cus_123"`) {
				t.Errorf("-o table shows the ID string otherwise than as itself:\n%s", r.Stdout)
			}
			continue
		}
		if r.Stdout != want {
			t.Errorf("-o %s:\n got %q\nwant %q", format, r.Stdout, want)
		}
	}

	// The rule is SQLite's, documented: a JSON column holds JSON text, so
	// a string is compared through ->> (or json_extract(x, '$')).
	rows = mustRows(t, doc, "SELECT id FROM acme.charges.charges WHERE customer ->> '$' = 'cus_123' OR json_extract(customer, '$.id') = 'cus_9' ORDER BY id")
	if fmt.Sprint(rows) != "[map[id:ch_1] map[id:ch_2]]" {
		t.Fatalf("rows %v", rows)
	}
}

// An integer beyond 64 bits keeps its digits (a string in -o json)
// instead of becoming a rounded float.
func TestIntegersBeyond64BitsStayExact(t *testing.T) {
	doc := chargesDoc(t)
	rows := exactRows(t, doc, "SELECT id, serial FROM acme.charges.charges WHERE serial IS NOT NULL ORDER BY id")
	if fmt.Sprintf("%#v", rows) != fmt.Sprintf("%#v", []map[string]any{
		{"id": "ch_1", "serial": "123456789012345678901234567890"}, {"id": "ch_2", "serial": json.Number("7")}}) {
		t.Fatalf("serials %#v", rows)
	}
	r := runAcme(t, doc, "SELECT serial FROM acme.charges.charges WHERE id = 'ch_1'", "-o", "csv")
	if r.Code != 0 || r.Stdout != "serial\n123456789012345678901234567890\n" {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// Booleans keep their type outside BOOLEAN columns: a list of booleans
// reads as true/false in its value column, and DESCRIBE lists the
// synthetic value and ok columns with their types.
func TestBooleansAndSyntheticColumns(t *testing.T) {
	_, doc := serveDoc(t, map[string]string{
		"/flags": `[true, false]`, "/labels": `["42", "null", "x"]`, "/ping": ""}, `{"/flags": `+get("listFlags", "flags", "", arr(`{"type": "boolean"}`))+
		`, "/labels": `+get("listLabels", "labels", "", arr(`{"type": "string"}`))+
		`, "/ping": `+get("ping", "ping", "", "")+`}`)
	r := runAcme(t, doc, "SELECT value FROM acme.flags.flags", "-o", "json")
	if r.Code != 0 || !bytes.Equal([]byte(r.Stdout), []byte("[\n  {\"value\": true},\n  {\"value\": false}\n]\n")) {
		t.Fatalf("boolean items: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = runAcme(t, doc, "SELECT value FROM acme.labels.labels WHERE value = 'x' OR value = '42' OR value = 'null'", "-o", "json")
	if r.Code != 0 || r.Stdout != "[\n  {\"value\": \"42\"},\n  {\"value\": \"null\"},\n  {\"value\": \"x\"}\n]\n" {
		t.Fatalf("string items: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	for table, want := range map[string]string{
		"acme.flags.flags":   "value\tBOOLEAN\tcolumn\tall\t",
		"acme.labels.labels": "value\tTEXT\tcolumn\tall\t",
		"acme.ping.ping":     "ok\tBOOLEAN\tcolumn\tall\t",
	} {
		r := runAcme(t, doc, "DESCRIBE "+table, "-o", "tsv")
		if r.Code != 0 || !strings.Contains(r.Stdout, "\n"+want) {
			t.Errorf("DESCRIBE %s does not list %q: exit %d\n%s%s", table, want, r.Code, r.Stdout, r.Stderr)
		}
	}
}

// Forms that would read a JSON column as if it held bare strings are
// refused before any request with the form to write: a comparison with a
// text that no JSON value can equal (it would silently give no rows),
// and a parameter bound from the bare column (the ID would be sent with
// its quotes). The documented forms work: a customer, expanded or not,
// binds GET /v1/customers/{customer} through coalesce(json_extract(...)).
func TestJSONColumnMisreadsAreRefused(t *testing.T) {
	customer := obj(`"id": {"type": "string"}`, `"email": {"type": "string"}`)
	charge := obj(`"id": {"type": "string"}`, `"customer": {"anyOf": [{"type": "string"}, `+customer+`]}`)
	a, doc := serveDoc(t, map[string]string{
		"/v1/charges":           chargesBody,
		"/v1/customers/cus_123": `{"id": "cus_123", "email": "a@example.com"}`,
		"/v1/customers/cus_9":   `{"id": "cus_9", "email": "x@example.com"}`,
		"/v1/customers/42":      `{"id": "42", "email": "n@example.com"}`,
		"/v1/customers/null":    `{"id": "null", "email": "z@example.com"}`,
	}, `{"/v1/charges": `+get("listCharges", "charges", "", obj(`"object": {"type": "string"}`, `"data": `+arr(charge), `"has_more": {"type": "boolean"}`))+
		`, "/v1/customers/{customer}": `+get("getCustomer", "customers", pathParam("customer"), customer)+`}`)
	for q, want := range map[string]string{
		"SELECT id FROM acme.charges.charges WHERE customer = 'cus_123'":                                          "customer ->> '$' = 'cus_123'",
		"SELECT ch.id FROM acme.charges.charges ch WHERE ch.customer IN ('cus_123', 'cus_9')":                     "ch.customer ->> '$' = 'cus_123'",
		"SELECT c.email FROM acme.charges.charges ch JOIN acme.customers.customers c ON c.customer = ch.customer": "coalesce(json_extract(ch.customer, '$.id'), json_extract(ch.customer, '$'))",
	} {
		before := len(a.Requests())
		r := runAcme(t, doc, q)
		if r.Code != 1 || !strings.Contains(r.Stderr, "JSON column") || !strings.Contains(r.Stderr, want) {
			t.Errorf("%s: exit %d, want 1 with advice %q\n%s%s", q, r.Code, want, r.Stdout, r.Stderr)
		}
		if n := len(a.Requests()) - before; n != 0 {
			t.Errorf("%s: %d requests before the refusal", q, n)
		}
	}
	rows := mustRows(t, doc, `SELECT ch.id, c.email FROM acme.charges.charges ch
  JOIN acme.customers.customers c ON c.customer = coalesce(json_extract(ch.customer, '$.id'), json_extract(ch.customer, '$')) ORDER BY ch.id`)
	if got := fmt.Sprint(rows); got != "[map[email:a@example.com id:ch_1] map[email:x@example.com id:ch_2] map[email:n@example.com id:ch_3] map[email:z@example.com id:ch_4]]" {
		t.Fatalf("rows %s", got)
	}
	// A literal that is JSON text can equal a value: not refused.
	rows = mustRows(t, doc, `SELECT id FROM acme.charges.charges WHERE customer = '"cus_123"'`)
	if fmt.Sprint(rows) != "[map[id:ch_1]]" {
		t.Fatalf("rows %v", rows)
	}
}
