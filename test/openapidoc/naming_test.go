package openapidoc_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/testutil"
)

func tableNames(t *testing.T, doc string) []string {
	t.Helper()
	var names []string
	for _, r := range mustRows(t, doc, "SHOW RESOURCES IN acme") {
		names = append(names, fmt.Sprint(r["full_name"]))
	}
	sort.Strings(names)
	return names
}

// Version segments do not name tables, acronym plurals stay one word, a
// GET at / or /{param} gets a name instead of refusing the document, a
// name starting with a digit is made writable, and every printed name
// parses back.
func TestNamingRules(t *testing.T) {
	item := arr(obj(`"id": {"type": "string"}`))
	doc := writeDoc(t, "http://127.0.0.1:1", `{
  "/rest/api/3/issue/{issueIdOrKey}": `+get("getIssue", "Issues", pathParam("issueIdOrKey"), obj(`"id": {"type": "string"}`))+`,
  "/2010-04-01/Accounts/{AccountSid}/Calls.json": `+get("ListCall", "Api20100401Call", pathParam("AccountSid"), obj(`"calls": `+item+`, "page": {"type": "integer"}, "next_page_uri": {"type": "string"}`))+`,
  "/v2_1/things": `+get("listThings", "", "", item)+`,
  "/v2/floatingIPs": `+get("listFloatingIPs", "", "", item)+`,
  "/v2/VPCs": `+get("listVPCs", "", "", item)+`,
  "/": `+get("ListBuckets", "", "", item)+`,
  "/{Bucket}": `+get("GetBucket", "", pathParam("Bucket"), obj(`"name": {"type": "string"}`))+`,
  "/3ds/checks": `+get("list3ds", "3ds", "", item)+`,
  "/order": `+get("orders", "order", "", arr(obj(`"key": {"type": "string"}`, `"from": {"type": "string"}`)))+`,
  "/grün/stromIndex": `+get("gsi", "Grün-Strom", "", item)+`
}`)
	got := strings.Join(tableNames(t, doc), " ")
	want := "acme.bucket.bucket acme.buckets.buckets acme.call.call acme.floating_ips.floating_ips acme.grun_strom.grun acme.issues.issues acme.n3ds.checks acme.order.order acme.things.things acme.vpcs.vpcs"
	if got != want {
		t.Fatalf("tables\n got %s\nwant %s", got, want)
	}
	// Every printed name parses: EXPLAIN each with its keys bound.
	for _, q := range []string{
		"EXPLAIN SELECT * FROM acme.issues.issues WHERE issueIdOrKey = 'JRA-1'",
		"EXPLAIN SELECT * FROM acme.call.call WHERE AccountSid = 'AC1'",
		"EXPLAIN SELECT * FROM acme.bucket.bucket WHERE bucket = 'b'",
		"EXPLAIN SELECT * FROM acme.n3ds.checks",
		"EXPLAIN SELECT * FROM acme.buckets.buckets",
		"EXPLAIN SELECT * FROM acme.grun_strom.grun",
		"EXPLAIN SELECT `key`, `from` FROM acme.order.order WHERE `key` = 'k'",
		"EXPLAIN SELECT `key` FROM `acme`.`order`.`order`.`orders`",
		"EXPLAIN SELECT * FROM acme.`n3ds`.`checks`",
	} {
		mustRows(t, doc, q)
	}
}

// A GET whose operation name or summary says it changes state is not a
// table; its neighbours are.
func TestSideEffectingGetsAreNotTables(t *testing.T) {
	ok := obj(`"ok": {"type": "boolean"}`)
	list := obj(`"ok": {"type": "boolean"}`, `"channels": `+arr(obj(`"id": {"type": "string"}`)), `"response_metadata": {"type": "object"}`)
	summary := `{"get": {"operationId": "tokens_drop", "summary": "Revokes a token.", "tags": ["tokens"], "responses": {"200": {"description": "ok"}}}}`
	doc := writeDoc(t, "http://127.0.0.1:1", `{
  "/auth.revoke": `+get("auth_revoke", "auth", "", ok)+`,
  "/apps.uninstall": `+get("apps_uninstall", "apps", "", ok)+`,
  "/chat.delete": `+get("chat_delete", "chat", "", ok)+`,
  "/tokens.drop": `+summary+`,
  "/dialog.open": `+get("dialog_open", "dialog", "", ok)+`,
  "/views.publish": `+get("views_publish", "views", "", ok)+`,
  "/conversations.list": `+get("conversations_list", "conversations", "", list)+`,
  "/auth.test": `+get("auth_test", "auth", "", ok)+`,
  "/triggers/{id}": `+get("Trigger_Get", "triggers", pathParam("id"), ok)+`
}`)
	got := strings.Join(tableNames(t, doc), " ")
	want := "acme.auth.auth_test acme.conversations.conversations acme.triggers.triggers"
	if got != want {
		t.Fatalf("tables\n got %s\nwant %s", got, want)
	}
	r := testutil.Run(t, testutil.Env(t), "", "exec", "--provider", "acme="+doc, "SELECT * FROM acme.apps.apps")
	if r.Code != 1 {
		t.Fatalf("a side-effecting GET is a table: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// Two tables of one service that the naming rule gives the same name no
// longer refuse the document (a document loaded with --provider has no
// overrides file to name them): the later one gets a number.
func TestTableNameClashGetsANumber(t *testing.T) {
	a := fakeapis.NewFixed(t, map[string]string{"/stats/consolidated": "", "/stats/d1/consolidated": ""})
	doc := writeDoc(t, a.URL, `{
  "/stats/consolidated": `+get("statistics/consolidated", "stats", "", "")+`,
  "/stats/{day}/consolidated": `+get("scorings/consolidated", "stats", pathParam("day"), "")+`
}`)
	got := strings.Join(tableNames(t, doc), " ")
	if got != "acme.stats.consolidated acme.stats.consolidated_2" {
		t.Fatalf("tables %s", got)
	}
	rows := mustRows(t, doc, "SELECT day FROM acme.stats.consolidated_2 WHERE day = 'd1'")
	if fmt.Sprint(rows) != "[map[day:d1]]" {
		t.Fatalf("rows %v", rows)
	}
}
