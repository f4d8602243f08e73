package openapidoc_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
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
	testutil.WantRun(t, "unbound api-version", r, 1, "", "WHERE `api-version` = '...'")
	r = runAcme(t, doc, "SELECT id FROM acme.servers.servers WHERE `api-version` = '2024-01-01'")
	testutil.WantRun(t, "the hint as written", r, 0, "s1", "")
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
	testutil.WantRun(t, "backticked", r, 0, "k1", "")
	r = runAcme(t, doc, "SELECT sid FROM acme.accounts.accounts")
	testutil.WantRun(t, "renamed column", r, 1, "", "the column sid_2")
	r = runAcme(t, doc, "SELECT sid_2, friendly_name FROM acme.accounts.accounts")
	testutil.WantRun(t, "sid_2", r, 0, "AC1", "")
}
