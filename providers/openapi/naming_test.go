package openapi

import "testing"

func TestSnakeCaseAcronyms(t *testing.T) {
	for in, want := range map[string]string{
		"floatingIPs": "floating_ips", "VPCs": "vpcs", "listVPCs": "list_vpcs", "listPetsByID": "list_pets_by_id",
		"IPsAndVPCs": "ips_and_vpcs", "HTTPServer": "http_server", "getURLs": "get_urls", "branch-protection": "branch_protection",
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
