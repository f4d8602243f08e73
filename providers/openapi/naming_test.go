package openapi

import (
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestNames runs each function that maps a name or a text to another
// (entity names, plurals, descriptions, SQL names, path words) over its
// cases.
func TestNames(t *testing.T) {
	for name, c := range map[string]struct {
		f     func(string) string
		cases map[string]string
	}{
		"NormalizeEntity": {NormalizeEntity, map[string]string{
			"minimal-repository": "repository", "full-repository": "repository", "nullable-repository": "repository",
			"simple-user": "user", "public-user": "user", "private-user": "user", "nullable-simple-user": "user",
			"team-simple": "team", "team-full": "team", "organization-full": "organization", "organization-simple": "organization",
			"organization-invitation": "invitation", "short-branch": "branch", "branch-with-protection": "branch",
			"dependabot-alert-with-repository": "dependabot-alert", "contributor": "contributor", "full": "full",
		}},
		"Plural": {Plural, map[string]string{
			"repo": "repos", "code": "code", "repository": "repositories", "branch": "branches", "status": "status",
			"key": "keys", "address": "addresses", "metadata": "metadata",
		}},
		"FirstSentence": {FirstSentence, map[string]string{
			"Whether the repository is archived.":                         "Whether the repository is archived.",
			"The id. See [the docs](https://x/y) for more.\n\nMore text.": "The id.",
			"Use e.g. the name. Then more":                                "Use e.g. the name.",
			"  spaced\n  out  ":                                           "spaced out",
			strings.Repeat("word ", 40):                                   strings.TrimSpace(strings.Repeat("word ", 23)) + "...",
		}},
		"SnakeCase": {SnakeCase, map[string]string{
			"branch-protection": "branch_protection",
			"secret-scanning":   "secret_scanning",
			"list-for-org":      "list_for_org",
			"listPetsByID":      "list_pets_by_id",
			"HTTPServerStatus":  "http_server_status",
			"get_v2Thing":       "get_v2_thing",
			"  Rate Limit ":     "rate_limit",
			"a--b__c":           "a_b_c",
			"usageItems":        "usage_items",
			// acronyms
			"floatingIPs": "floating_ips", "VPCs": "vpcs", "listVPCs": "list_vpcs",
			"IPsAndVPCs": "ips_and_vpcs", "HTTPServer": "http_server", "getURLs": "get_urls",
			"Grünstrom-Index": "grunstrom_index", "日本 API": "api",
		}},
		// pathSegments skips version segments
		"pathSegments": {func(p string) string { return strings.Join(pathSegments(p), " ") }, map[string]string{
			"/rest/api/3/issue/{issueIdOrKey}":             "issue",
			"/2010-04-01/Accounts/{AccountSid}/Calls.json": "accounts calls",
			"/v2_1/things":                  "things",
			"/2/tweets":                     "tweets",
			"/v1beta1/namespaces/{ns}/pods": "namespaces pods",
			"/api/v1/nodes":                 "nodes",
			"/projects/rest/x":              "projects rest x",
		}},
	} {
		for in, want := range c.cases {
			if got := c.f(in); got != want {
				t.Errorf("%s(%q) = %q, want %q", name, in, got, want)
			}
		}
	}
}

func TestSideEffectingGetsAreSkippedWithReason(t *testing.T) {
	doc, err := ParseDocument("t.json", []byte(`{"openapi": "3.0.3", "info": {"title": "Slack", "version": "1"},
  "paths": {
    "/auth.revoke": {"get": {"operationId": "auth_revoke", "tags": ["auth"], "responses": {"200": {"description": "ok"}}}},
    "/users.list": {"get": {"operationId": "users_list", "tags": ["users"], "responses": {"200": {"description": "ok"}}}},
    "/tokens.drop": {"get": {"operationId": "tokens_drop", "summary": "Revokes a token.", "responses": {"200": {"description": "ok"}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	h, rs, err := Derive(doc, "slack")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].FullName() != "slack.users.users" {
		t.Fatalf("resources %v", rs)
	}
	got := map[string]string{}
	for _, s := range h.Skipped {
		got[s.OperationID+" "+s.Path] = s.Reason
	}
	want := map[string]string{
		"auth_revoke /auth.revoke": "changes state: its operationId auth_revoke says revoke",
		"tokens_drop /tokens.drop": "changes state: its summary says Revokes",
	}
	if len(got) != len(want) {
		t.Fatalf("skipped %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("skipped %q: %q, want %q", k, got[k], v)
		}
	}
}

func TestEnvelopeKey(t *testing.T) {
	for _, c := range []struct {
		names  []string
		arrays []string
		want   string
	}{
		{[]string{"droplets", "links", "meta"}, []string{"droplets"}, "droplets"},
		{[]string{"apiVersion", "items", "kind", "metadata"}, []string{"items"}, "items"},
		{[]string{"isLast", "maxResults", "startAt", "total", "values"}, []string{"values"}, "values"},
		{[]string{"id", "labels", "name"}, []string{"labels"}, ""},      // an item holding an array
		{[]string{"a", "b", "links"}, []string{"a", "b"}, ""},           // two arrays
		{[]string{"name", "runners", "total"}, []string{"runners"}, ""}, // a field that is not paging
	} {
		if got := envelopeKey(c.names, c.arrays); got != c.want {
			t.Errorf("envelopeKey(%v, %v) = %q, want %q", c.names, c.arrays, got, c.want)
		}
	}
}

func TestChangesStateWords(t *testing.T) {
	for _, c := range []struct {
		op, summary, path string
		skip              bool
	}{
		{"auth_revoke", "", "/auth.revoke", true},
		{"createGroupUsingGET", "creates a new group", "/createGroup", true},
		{"views_list", "", "/views.open", true},
		{"Trigger_Get", "", "/triggers/{id}", false},
		{"Get.Count.openShifts-cf03", "", "/openShifts/$count", false},
		{"postReplies", "", "/posts/{id}/replies.json", false},
		{"Schedule", "", "/{format}/Schedule/{roundid}", false},
		{"createRecipeCardGet", "Create Recipe Card", "/recipes/{id}/card", false},
		{"query", "Execute a SQL query", "/content.json", false},
		{"Reporting_BundlesInUpdateGroup", "", "/api/v2/Reporting/BundlesInUpdateGroup", false},
		{"", "Deletes cookies", "/cookies/delete", true},
	} {
		op := &openapi3.Operation{OperationID: c.op, Summary: c.summary}
		if got := changesState(op, c.path) != ""; got != c.skip {
			t.Errorf("changesState(%q, %q, %q) skips = %v, want %v", c.op, c.summary, c.path, got, c.skip)
		}
	}
}
