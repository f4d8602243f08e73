package providers

import (
	"net/http"
	"strings"
	"testing"
)

func TestPlaceholderHost(t *testing.T) {
	for raw, want := range map[string]string{
		"https://your-domain.atlassian.net":         "your-domain",
		"https://yourcompany.zendesk.com/api/v2":    "yourcompany",
		"https://{subdomain}.example.com/api":       "{subdomain}",
		"http://{region}.api.acme.io":               "{region}",
		"https://api.example.com/v1":                "example.com",
		"https://example.org":                       "example.org",
		"https://api.acme.example":                  "api.acme.example",
		"https://mycompany.freshdesk.com":           "mycompany",
		"https://<tenant>.auth0.com":                "<tenant>",
		"https://tenant.auth0.com":                  "tenant",
		"https://example.zendesk.com/api/v2":        "example",
		"https://api.github.com":                    "",
		"https://app.asana.com/api/1.0":             "",
		"http://127.0.0.1:8080/v1":                  "",
		"http://[::1]:9/x":                          "",
		"https://eu.api.keyed.dev":                  "",
		"https://api.twilio.com":                    "",
		"https://user:pw@your-domain.atlassian.net": "your-domain",
		"/api/v3":                         "",
		"https://discourse.local":         "",
		"https://api.domain-tools.io":     "",
		"https://api.example.com.evil.io": "",
	} {
		if got := PlaceholderHost(raw); got != want {
			t.Errorf("PlaceholderHost(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestSchemeCredentialsPerMethod(t *testing.T) {
	h := &Header{Provider: "acme-api", Security: &Security{Schemes: []SecurityScheme{
		{Name: "k", Type: SchemeAPIKey, In: InQuery, Param: "api_key"},
		{Name: "b", Type: SchemeBearer},
	}}}
	env := map[string]string{"ACME_API_API_KEY": "key-123456"}
	creds, err := h.Credentials(nil, func(v string) string { return env[v] })
	if err != nil || creds.Anonymous() {
		t.Fatalf("creds %v, %v", creds, err)
	}
	if strings.Contains(creds.String()+creds.GoString(), "key-123456") {
		t.Fatal("String shows the secret")
	}
	req, _ := http.NewRequest("GET", "https://api.acme.io/x?a=1", nil)
	if err := creds.ForMethod(req, &Method{Auth: [][]string{{"b"}, {"k"}}}); err != nil {
		t.Fatal(err)
	}
	if req.URL.Query().Get("api_key") != "key-123456" || req.Header.Get("Authorization") != "" {
		t.Errorf("want the query key only: %s %v", req.URL, req.Header)
	}
	req, _ = http.NewRequest("GET", "https://api.acme.io/x", nil)
	err = creds.ForMethod(req, &Method{OperationID: "op", Path: "/x", Auth: [][]string{{"b"}}})
	if err == nil || !strings.Contains(err.Error(), "set ACME_API_TOKEN") || req.Header.Get("Authorization") != "" {
		t.Errorf("missing bearer: %v", err)
	}
	req, _ = http.NewRequest("GET", "https://api.acme.io/x", nil)
	if err := creds.ForMethod(req, &Method{Auth: [][]string{{"b"}, {}}}); err != nil || req.Header.Get("Authorization") != "" {
		t.Errorf("optional: %v", err)
	}
	// A profile's variable of another provider is not read.
	h.Security.Schemes[1].Env = "GITHUB_TOKEN"
	if v := h.SchemeEnv(h.Security.Schemes[1]); v != "ACME_API_TOKEN" {
		t.Errorf("SchemeEnv = %s", v)
	}
}
