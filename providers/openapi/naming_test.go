package openapi

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestSnakeCaseAcronyms(t *testing.T) {
	for in, want := range map[string]string{
		"floatingIPs": "floating_ips", "VPCs": "vpcs", "listVPCs": "list_vpcs", "listPetsByID": "list_pets_by_id",
		"IPsAndVPCs": "ips_and_vpcs", "HTTPServer": "http_server", "getURLs": "get_urls", "branch-protection": "branch_protection",
		"Grünstrom-Index": "grunstrom_index", "日本 API": "api",
	} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPathSegmentsSkipVersions(t *testing.T) {
	for in, want := range map[string]string{
		"/rest/api/3/issue/{issueIdOrKey}":             "issue",
		"/2010-04-01/Accounts/{AccountSid}/Calls.json": "accounts calls",
		"/v2_1/things":                  "things",
		"/2/tweets":                     "tweets",
		"/v1beta1/namespaces/{ns}/pods": "namespaces pods",
		"/api/v1/nodes":                 "nodes",
		"/projects/rest/x":              "projects rest x",
	} {
		got := ""
		for i, s := range pathSegments(in) {
			if i > 0 {
				got += " "
			}
			got += s
		}
		if got != want {
			t.Errorf("pathSegments(%q) = %q, want %q", in, got, want)
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
