package openapidoc_test

import (
	"strings"
	"testing"
)

// Identifier advice: the hint for an unbound parameter that is not a
// plain word is written as it parses (`api-version`); a reserved word
// used as a column (ssl, key) gets the backtick hint instead of a bare
// syntax error; a column renamed beside a parameter spelled alike but
// for case (sid read as sid_2 beside Sid) is named.
func TestIdentifierAdvice(t *testing.T) {
	account := obj(`"sid": {"type": "string"}`, `"friendly_name": {"type": "string"}`)
	a, doc := serveDoc(t, map[string]string{
		"/servers":           `[{"id": "s1", "ssl": true, "key": "k1"}]`,
		"/Accounts.json":     `{"accounts": [{"sid": "AC1", "friendly_name": "main"}], "next_page_uri": null}`,
		"/Accounts/AC1.json": `{"sid": "AC1", "friendly_name": "main"}`,
	}, `{
	  "/servers": `+get("listServers", "servers", `{"name": "api-version", "in": "query", "required": true, "schema": {"type": "string"}}`,
		arr(obj(`"id": {"type": "string"}`, `"ssl": {"type": "boolean"}`, `"key": {"type": "string"}`)))+`,
	  "/Accounts.json": `+get("listAccounts", "accounts", "", obj(`"accounts": `+arr(account), `"next_page_uri": {"type": "string", "nullable": true}`))+`,
	  "/Accounts/{Sid}.json": `+get("fetchAccount", "accounts", pathParam("Sid"), account)+`}`)
	r := runAcme(t, doc, "SELECT id FROM acme.servers.servers")
	if r.Code != 1 || !strings.Contains(r.Stderr, "WHERE `api-version` = '...'") {
		t.Fatalf("unbound api-version: exit %d\n%s", r.Code, r.Stderr)
	}
	r = runAcme(t, doc, "SELECT id FROM acme.servers.servers WHERE `api-version` = '2024-01-01'")
	if r.Code != 0 || !strings.Contains(r.Stdout, "s1") {
		t.Fatalf("the hint as written: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if reqs := a.Requests(); !strings.Contains(reqs[len(reqs)-1], "api-version=2024-01-01") {
		t.Fatalf("requests %v", reqs)
	}
	for _, word := range []string{"ssl", "key"} {
		r = runAcme(t, doc, "SELECT "+word+" FROM acme.servers.servers WHERE `api-version` = '1'")
		if r.Code != 1 || !strings.Contains(r.Stderr, "write it in backticks, `"+word+"`") {
			t.Fatalf("SELECT %s: exit %d\n%s", word, r.Code, r.Stderr)
		}
	}
	r = runAcme(t, doc, "SELECT `ssl`, `key` FROM acme.servers.servers WHERE `api-version` = '1'")
	if r.Code != 0 || !strings.Contains(r.Stdout, "k1") {
		t.Fatalf("backticked: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = runAcme(t, doc, "SELECT sid FROM acme.accounts.accounts")
	if r.Code != 1 || !strings.Contains(r.Stderr, "the column sid_2") {
		t.Fatalf("renamed column: exit %d\n%s", r.Code, r.Stderr)
	}
	r = runAcme(t, doc, "SELECT sid_2, friendly_name FROM acme.accounts.accounts")
	if r.Code != 0 || !strings.Contains(r.Stdout, "AC1") {
		t.Fatalf("sid_2: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
