// Package auth_test runs the built engine binary against loopback mocks
// of APIs that a new user sets up from their OpenAPI description alone
// (issue 32, item 5; docs/providers.md "Auth from the description"): the
// description's securitySchemes drive the credentials (an apiKey in a
// header, the query or a cookie, a raw Authorization key, bearer tokens
// for oauth2), each secret from an environment variable named after the
// provider; a method whose variable is unset fails before anything is
// sent; a server URL with a placeholder host is refused until the base
// URL names the user's own, before any credential is sent; `registry add
// --base-url` keeps it; and a header every method requires (Xero's
// xero-tenant-id) is set once instead of in every WHERE.
package auth_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// doc is the path of a description in test/testdata/auth.
func doc(name string) string {
	return filepath.Join(testutil.RepoRoot(), "test", "testdata", "auth", name)
}

const things = `[{"id": "t1", "name": "one"}, {"id": "t2", "name": "two"}]`

// keyedMock serves every path of keyed.json.
func keyedMock(t *testing.T) *fakeapis.Fixed {
	return fakeapis.NewFixed(t, map[string]string{
		"/v1/header/things": things, "/v1/query/things": things, "/v1/cookie/things": things,
		"/v1/raw/things": things, "/v1/public/things": things,
	})
}

func keyedArgs(f *fakeapis.Fixed, extra ...string) []string {
	return append([]string{"exec", "-o", "json", "--provider", "keyed=" + doc("keyed.json"), "--base-url", "keyed=" + f.URL + "/v1"}, extra...)
}

func ids(t *testing.T, r testutil.Result) string {
	t.Helper()
	rows := testutil.JSONRows(t, r)
	var out []string
	for _, row := range rows {
		out = append(out, fmt.Sprint(row["id"]))
	}
	return strings.Join(out, ",")
}

func never(t *testing.T, what, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("%s shows the secret %q:\n%s", what, s, text)
		}
	}
}

// An apiKey scheme in a header, the query or a cookie takes its secret
// from the variable named after the provider and the key (four apiKey
// schemes: KEYED_ and the key's name), sends it where the description
// says, and nowhere else; the api_key query parameter the description
// also declares is not a WHERE binding. The raw Authorization scheme
// sends the key as is, without "Bearer".
func TestAPIKeyFromTheDescription(t *testing.T) {
	const (
		headerKey = "hk_live_4f1a9c2e77d0b3a5"
		queryKey  = "qk_live_90c3b1e6a4d7f258"
		cookieKey = "ck_live_5e8d2a7f1b3c9640"
		rawKey    = "rk_live_0a7b3c9d5e1f2468"
	)
	f := keyedMock(t)
	env := testutil.FastEnv(t, "KEYED_X_API_KEY="+headerKey, "KEYED_API_KEY="+queryKey,
		"KEYED_SESSION_KEY="+cookieKey, "KEYED_AUTHORIZATION="+rawKey)
	for i, c := range []struct{ table, check string }{
		{"keyed.header.things", "header"}, {"keyed.query.things", "query"},
		{"keyed.cookie.things", "cookie"}, {"keyed.raw.things", "raw"},
	} {
		r := testutil.Run(t, env, "", keyedArgs(f, "--debug", "SELECT id FROM "+c.table+" ORDER BY id")...)
		if r.Code != 0 || ids(t, r) != "t1,t2" {
			t.Fatalf("%s: exit %d, want rows t1,t2\nstdout: %s\nstderr: %s", c.table, r.Code, r.Stdout, r.Stderr)
		}
		never(t, c.table+" output", r.Stdout+r.Stderr, headerKey, queryKey, cookieKey, rawKey)
		h := f.Headers()[i]
		uri := f.Requests()[i]
		switch c.check {
		case "header":
			if got := h.Get("X-Api-Key"); got != headerKey {
				t.Errorf("header scheme: X-API-Key = %q, want the key from KEYED_X_API_KEY", got)
			}
		case "query":
			if !strings.Contains(uri, "api_key="+queryKey) {
				t.Errorf("query scheme: request %s lacks api_key from KEYED_API_KEY", uri)
			}
		case "cookie":
			if got := h.Get("Cookie"); got != "session_key="+cookieKey {
				t.Errorf("cookie scheme: Cookie = %q, want session_key=<KEYED_SESSION_KEY>", got)
			}
		case "raw":
			if got := h.Get("Authorization"); got != rawKey {
				t.Errorf("raw Authorization scheme: Authorization = %q, want the key as is", got)
			}
		}
		// Only the method's own scheme is sent.
		for _, other := range []string{"X-Api-Key", "Cookie", "Authorization"} {
			if (other == "X-Api-Key" && c.check == "header") || (other == "Cookie" && c.check == "cookie") || (other == "Authorization" && c.check == "raw") {
				continue
			}
			if h.Get(other) != "" {
				t.Errorf("%s: %s was sent too", c.table, other)
			}
		}
		if c.check != "query" && strings.Contains(uri, "api_key") {
			t.Errorf("%s: the query key was sent too: %s", c.table, uri)
		}
	}
}

// A method whose description requires a scheme whose variable is unset
// fails before anything is sent (exit 1, kind usage), naming the variable
// to set; a method the description declares open (security: []) is
// read without credentials.
func TestMissingVariableNamesIt(t *testing.T) {
	f := keyedMock(t)
	env := testutil.FastEnv(t)
	r := testutil.Run(t, env, "", keyedArgs(f, "SELECT id FROM keyed.header.things")...)
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1 (usage)\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	testutil.Contains(t, "stderr", r.Stderr, "set KEYED_X_API_KEY", "apiKey scheme", "headerKey", "header X-API-Key", "nothing was sent")
	if n := len(f.Requests()); n != 0 {
		t.Errorf("the mock received %d requests, want none: %v", n, f.Requests())
	}
	// MCP-shaped JSON error: kind usage.
	r = testutil.Run(t, env, "", keyedArgs(f, "SELECT id FROM keyed.raw.things")...)
	testutil.Contains(t, "stdout", r.Stdout+r.Stderr, "KEYED_AUTHORIZATION", "the raw Authorization header")
	if len(f.Requests()) != 0 {
		t.Errorf("the mock received requests: %v", f.Requests())
	}
	r = testutil.Run(t, env, "", keyedArgs(f, "SELECT id FROM keyed.public.things ORDER BY id")...)
	if r.Code != 0 || ids(t, r) != "t1,t2" {
		t.Fatalf("open method: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	if h := f.Headers()[0]; h.Get("Authorization") != "" || h.Get("X-Api-Key") != "" {
		t.Errorf("an open method was sent credentials: %v", h)
	}
}

// An auth entry of type api_key gives one scheme's secret from a variable
// of the user's choosing; a profile may name the variable (it must start
// with the provider's name) but never hold the secret: a literal is
// refused, and so is a variable of another provider.
func TestAPIKeyAuthEntryAndProfile(t *testing.T) {
	const key = "hk_entry_7d3e9a1c5b2f4068"
	f := keyedMock(t)
	r := testutil.Run(t, testutil.FastEnv(t, "MY_KEYED_KEY="+key), "", keyedArgs(f,
		"--auth", `{"keyed":{"type":"api_key","scheme":"headerKey","credentialsenvvar":"MY_KEYED_KEY"}}`, "SELECT id FROM keyed.header.things")...)
	if r.Code != 0 || len(f.Headers()) != 1 || f.Headers()[0].Get("X-Api-Key") != key {
		t.Fatalf("api_key entry: exit %d, requests %v\nstderr: %s", r.Code, f.Requests(), r.Stderr)
	}

	named := testutil.TempFile(t, "keyed-profile.json", `{"auth": {"schemes": {"headerKey": {"env": "KEYED_MAIN_KEY"}}}}`)
	args := []string{"exec", "-o", "json", "--provider", "keyed=" + doc("keyed.json") + ",profile=" + named, "--base-url", "keyed=" + f.URL + "/v1", "SELECT id FROM keyed.header.things"}
	r = testutil.Run(t, testutil.FastEnv(t, "KEYED_MAIN_KEY="+key), "", args...)
	if r.Code != 0 || len(f.Headers()) != 2 || f.Headers()[1].Get("X-Api-Key") != key {
		t.Fatalf("profile-named variable: exit %d\nstderr: %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, testutil.FastEnv(t), "", args...)
	testutil.Contains(t, "unset profile variable", r.Stderr, "set KEYED_MAIN_KEY")

	const literal = "sk_live_literal_in_profile_1234"
	for _, c := range []struct{ profile, want string }{
		{`{"auth": {"schemes": {"headerKey": {"value": "` + literal + `"}}}}`, "a profile never holds a secret"},
		{`{"headers": {"X-API-Key": "` + literal + `"}}`, "a profile never holds a secret"},
		{`{"auth": {"schemes": {"headerKey": {"env": "GITHUB_TOKEN"}}}}`, "does not start with KEYED_"},
		{`{"auth": {"schemes": {"nope": {"env": "KEYED_X"}}}}`, "no such security scheme"},
	} {
		p := testutil.TempFile(t, "bad-profile.json", c.profile)
		r := testutil.Run(t, testutil.FastEnv(t, "GITHUB_TOKEN=ghp_must_not_travel_000111"), "", "exec", "--provider", "keyed="+doc("keyed.json")+",profile="+p,
			"--base-url", "keyed="+f.URL+"/v1", "SELECT id FROM keyed.header.things")
		if r.Code != 1 {
			t.Errorf("profile %s: exit %d, want 1\nstderr: %s", c.profile, r.Code, r.Stderr)
		}
		testutil.Contains(t, "profile "+c.profile, r.Stderr, c.want)
		never(t, "profile error", r.Stdout+r.Stderr, literal, "ghp_must_not_travel_000111")
	}
	if n := len(f.Requests()); n != 2 {
		t.Errorf("the mock received %d requests, want the 2 good ones: %v", n, f.Requests())
	}
}

// proxy is a loopback HTTP proxy (HTTP_PROXY for the engine) that
// records every request it is asked to forward and answers each itself:
// where a description's server host would have been reached, the test
// sees what would have been sent there.
type proxy struct {
	URL  string
	mu   sync.Mutex
	seen []*http.Request
}

func newProxy(t *testing.T, body string) *proxy {
	p := &proxy{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.seen = append(p.seen, r.Clone(r.Context()))
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

func (p *proxy) requests() []*http.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*http.Request(nil), p.seen...)
}

// placeholderDoc is a bearer-protected description whose server URL is
// server (variables as given).
func placeholderDoc(t *testing.T, server string) string {
	return testutil.TempFile(t, "jira.json", `{"openapi": "3.0.3", "info": {"title": "j", "version": "1"},
  "servers": [`+server+`],
  "components": {"securitySchemes": {"basicAuth": {"type": "http", "scheme": "basic"}}},
  "security": [{"basicAuth": []}],
  "paths": {"/rest/api/3/project": {"get": {"operationId": "getAllProjects", "responses": {"200": {"description": "ok",
    "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}, "key": {"type": "string"}}}}}}}}}}}}`)
}

// A server URL with a placeholder host is refused until a base URL names
// the user's own, before any credential is sent: the proxy that would
// carry the request sees none. Server variables with real defaults are
// fine, and a base URL given on the command line is used.
func TestPlaceholderHostRefused(t *testing.T) {
	const secret = "ann@acme.io:atl_pw_3c7e1a9f5d"
	px := newProxy(t, `[{"id": "1", "key": "OPS"}]`)
	env := testutil.FastEnv(t, "HTTP_PROXY="+px.URL, "HTTPS_PROXY="+px.URL, "JIRA_BASIC_AUTH="+secret)
	for _, c := range []struct{ server, placeholder string }{
		{`{"url": "http://your-domain.atlassian.net"}`, `"your-domain"`},
		{`{"url": "http://{subdomain}.example.com/api"}`, `"{subdomain}"`},
		{`{"url": "http://{subdomain}.atlassian.net", "variables": {"subdomain": {"default": "your-subdomain"}}}`, `"your-subdomain"`},
		{`{"url": "http://api.example.com/v1"}`, `"example.com"`},
	} {
		r := testutil.Run(t, env, "", "exec", "--provider", "jira="+placeholderDoc(t, c.server), "SELECT id FROM jira.project.project")
		if r.Code != 1 {
			t.Errorf("%s: exit %d, want 1\nstdout: %s\nstderr: %s", c.server, r.Code, r.Stdout, r.Stderr)
		}
		testutil.Contains(t, c.server, r.Stderr, "placeholder host ("+c.placeholder+")", "nothing was sent", "--base-url")
		never(t, c.server, r.Stdout+r.Stderr, secret, "atl_pw_3c7e1a9f5d")
	}
	if n := len(px.requests()); n != 0 {
		t.Fatalf("the proxy was asked %d requests (%v), want none", n, px.requests()[0].URL)
	}

	// A variable whose default is a real host.
	r := testutil.Run(t, env, "", "exec", "-o", "json", "--provider", "jira="+placeholderDoc(t, `{"url": "http://{region}.api.keyed.dev", "variables": {"region": {"default": "eu"}}}`), "SELECT id FROM jira.project.project")
	if r.Code != 0 || ids(t, r) != "1" {
		t.Fatalf("real default host: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	seen := px.requests()
	if len(seen) != 1 || seen[0].Host != "eu.api.keyed.dev" {
		t.Fatalf("want one request to eu.api.keyed.dev, got %d (%v)", len(seen), seen)
	}
	if u, p, ok := seen[0].BasicAuth(); !ok || u+":"+p != secret {
		t.Errorf("http basic scheme: Authorization is not JIRA_BASIC_AUTH's user:password")
	}

	// The placeholder one with the user's base URL.
	f := fakeapis.NewFixed(t, map[string]string{"/rest/api/3/project": `[{"id": "7", "key": "WEB"}]`})
	r = testutil.Run(t, env, "", "exec", "-o", "json", "--provider", "jira="+placeholderDoc(t, `{"url": "http://your-domain.atlassian.net"}`), "--base-url", "jira="+f.URL, "SELECT id FROM jira.project.project")
	if r.Code != 0 || ids(t, r) != "7" || len(f.Requests()) != 1 {
		t.Fatalf("with --base-url: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
}

// registry add --base-url keeps the user's host with the provider: later
// commands reach it without --base-url; a placeholder given there is
// refused, and a command's --base-url still wins.
func TestRegistryAddBaseURL(t *testing.T) {
	f := fakeapis.NewFixed(t, map[string]string{"/rest/api/3/project": `[{"id": "7", "key": "WEB"}]`})
	px := newProxy(t, `[]`)
	env := testutil.FastEnv(t, "HTTP_PROXY="+px.URL, "JIRA_BASIC_AUTH=ann:pw_0123456789")
	d := placeholderDoc(t, `{"url": "http://your-domain.atlassian.net"}`)

	r := testutil.Run(t, env, "", "registry", "add", "jira", d)
	if r.Code != 0 {
		t.Fatalf("registry add: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	testutil.Contains(t, "registry add without a base URL", r.Stdout, "is a placeholder", "--base-url")
	r = testutil.Run(t, env, "", "exec", "SELECT id FROM jira.project.project")
	testutil.WantRun(t, "stored placeholder", r, 1, "", "placeholder host")

	r = testutil.Run(t, env, "", "registry", "add", "jira", d, "--base-url", "https://your-company.atlassian.net")
	testutil.WantRun(t, "registry add with a placeholder base URL", r, 1, "", "placeholder")

	r = testutil.Run(t, env, "", "registry", "add", "jira", d, "--base-url", f.URL)
	if r.Code != 0 {
		t.Fatalf("registry add --base-url: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = testutil.Run(t, env, "", "exec", "-o", "json", "SELECT id FROM jira.project.project")
	if r.Code != 0 || ids(t, r) != "7" {
		t.Fatalf("exec after registry add --base-url: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	// registry list says where the requests go: the stored base URL, and
	// a --base-url given to the command over it
	for _, c := range []struct{ flag, want string }{{"", f.URL}, {"jira=https://jira.acme-corp.dev", "https://jira.acme-corp.dev"}} {
		args := []string{"registry", "list", "-o", "json"}
		if c.flag != "" {
			args = append(args, "--base-url", c.flag)
		}
		r = testutil.Run(t, env, "", args...)
		if r.Code != 0 || !strings.Contains(r.Stdout, `"provider": "jira"`) || !strings.Contains(r.Stdout, `"base_url": "`+c.want+`"`) {
			t.Errorf("registry list %s: exit %d, want jira's base_url %s\n%s%s", c.flag, r.Code, c.want, r.Stdout, r.Stderr)
		}
	}
	if got := f.Headers()[0].Get("Authorization"); got != "Basic "+base64.StdEncoding.EncodeToString([]byte("ann:pw_0123456789")) {
		t.Errorf("stored provider: basic credentials not sent from JIRA_BASIC_AUTH")
	}
	g := fakeapis.NewFixed(t, map[string]string{"/rest/api/3/project": `[{"id": "8", "key": "OPS"}]`})
	r = testutil.Run(t, env, "", "exec", "-o", "json", "--base-url", "jira="+g.URL, "SELECT id FROM jira.project.project")
	if r.Code != 0 || ids(t, r) != "8" {
		t.Fatalf("--base-url over the stored one: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	if len(px.requests()) != 0 {
		t.Errorf("a request left for the placeholder host: %v", px.requests()[0].URL)
	}
}

// A header every method requires (Xero's xero-tenant-id) is set once, by
// --param, the config file or the profile (a value or a variable), and
// is then no required WHERE binding; WHERE still wins. oauth2 is a
// bearer token from XERO_TOKEN.
func TestHeaderParamSetOnce(t *testing.T) {
	const token = "xero_at_6a1f0c9e3b7d2548"
	f := fakeapis.NewFixed(t, map[string]string{
		"/Accounts": `{"Accounts": [{"AccountID": "a1", "Name": "Sales"}]}`,
		"/Contacts": `{"Contacts": [{"ContactID": "c1", "Name": "Ann"}]}`,
	})
	base := []string{"--provider", "xero=" + doc("xero.json"), "--base-url", "xero=" + f.URL}
	env := testutil.FastEnv(t, "XERO_TOKEN="+token)
	sel := "SELECT Name FROM xero.accounting.accounts"

	r := testutil.Run(t, env, "", append(append([]string{"exec"}, base...), sel)...)
	testutil.WantRun(t, "without the tenant", r, 1, "", "xero-tenant-id")
	tenants := func(from int) []string {
		var out []string
		for _, h := range f.Headers()[from:] {
			out = append(out, h.Get("Xero-Tenant-Id"))
		}
		return out
	}

	r = testutil.Run(t, env, "", append(append([]string{"exec", "--param", "xero.xero-tenant-id=tenant-flag"}, base...), sel)...)
	if r.Code != 0 || fmt.Sprint(tenants(0)) != "[tenant-flag]" {
		t.Fatalf("--param: exit %d, tenants %v\n%s", r.Code, tenants(0), r.Stderr)
	}
	if got := f.Headers()[0].Get("Authorization"); got != "Bearer "+token {
		t.Errorf("oauth2 scheme: Authorization %q, want Bearer <XERO_TOKEN>", got)
	}
	never(t, "output", r.Stdout+r.Stderr, token)

	r = testutil.Run(t, env, "", append(append([]string{"exec", "--param", "xero.xero-tenant-id=tenant-flag"}, base...), "DESCRIBE xero.accounting.accounts")...)
	testutil.Contains(t, "DESCRIBE", r.Stdout, "optional key", "Set once for the provider")

	cfg := testutil.TempFile(t, "config.yaml", "param: {xero: {xero-tenant-id: tenant-config}}\n")
	r = testutil.Run(t, env, "", append(append([]string{"exec", "--config", cfg}, base...), "SELECT Name FROM xero.accounting.contacts")...)
	if r.Code != 0 || fmt.Sprint(tenants(1)) != "[tenant-config]" {
		t.Fatalf("config param: exit %d, tenants %v\n%s", r.Code, tenants(1), r.Stderr)
	}

	prof := testutil.TempFile(t, "xero-profile.json", `{"params": {"xero-tenant-id": {"env": "XERO_TENANT_ID"}}}`)
	pbase := []string{"--provider", "xero=" + doc("xero.json") + ",profile=" + prof, "--base-url", "xero=" + f.URL}
	r = testutil.Run(t, testutil.FastEnv(t, "XERO_TOKEN="+token, "XERO_TENANT_ID=tenant-env"), "", append(append([]string{"exec"}, pbase...), sel)...)
	if r.Code != 0 || fmt.Sprint(tenants(2)) != "[tenant-env]" {
		t.Fatalf("profile env param: exit %d, tenants %v\n%s", r.Code, tenants(2), r.Stderr)
	}
	r = testutil.Run(t, testutil.FastEnv(t, "XERO_TOKEN="+token, "XERO_TENANT_ID=tenant-env"), "", append(append([]string{"exec"}, pbase...), sel+" WHERE `xero-tenant-id` = 'tenant-where'")...)
	if r.Code != 0 || fmt.Sprint(tenants(3)) != "[tenant-where]" {
		t.Fatalf("WHERE over the preset: exit %d, tenants %v\n%s", r.Code, tenants(3), r.Stderr)
	}
}

// The MCP surface says the same: a missing variable and a placeholder
// host are error results (kind usage) naming what to set, and nothing
// reaches the mock; with the variable set, rows.
func TestMCPSaysWhatToSet(t *testing.T) {
	f := keyedMock(t)
	c, _, _ := mcptest.Stdio(t, testutil.FastEnv(t), "mcp", "--provider", "keyed="+doc("keyed.json"), "--base-url", "keyed="+f.URL+"/v1",
		"--provider", "jira="+placeholderDoc(t, `{"url": "https://your-domain.atlassian.net"}`))
	r := c.Query(t, "SELECT id FROM keyed.cookie.things")
	if !r.IsError || r.Error == nil || r.Error.Kind != "usage" || !strings.Contains(r.Error.Message, "KEYED_SESSION_KEY") {
		t.Errorf("missing variable: %+v", r)
	}
	r = c.Query(t, "SELECT id FROM jira.project.project")
	if !r.IsError || r.Error == nil || r.Error.Kind != "usage" || !strings.Contains(r.Error.Message, `placeholder host ("your-domain")`) {
		t.Errorf("placeholder host: %+v", r)
	}
	r = c.Query(t, "SELECT id FROM keyed.public.things")
	if r.IsError || r.RowCount != 2 {
		t.Errorf("open method: %+v", r)
	}
	if n := len(f.Requests()); n != 1 {
		t.Errorf("the mock received %d requests, want only the open method's: %v", n, f.Requests())
	}
}

// A Swagger 2.0 description (YAML) is read as its OpenAPI 3 conversion
// (kin-openapi's openapi2conv): registry add takes it, its
// securityDefinitions drive the credentials as securitySchemes do (an
// apiKey in a header and in the query, http basic), its basePath stays
// under the base URL, and its definitions give the columns. Before: it
// was refused ("only OpenAPI 3 is supported").
func TestSwagger2Description(t *testing.T) {
	const headerKey, queryKey, basic = "hk_sw2_1f2e3d4c5b6a", "qk_sw2_6a5b4c3d2e1f", "ann:pw_sw2_0123"
	f := fakeapis.NewFixed(t, map[string]string{"/v1/header/things": things, "/v1/query/things": things, "/v1/basic/things": things})
	env := testutil.FastEnv(t, "K2_X_API_KEY="+headerKey, "K2_API_KEY="+queryKey, "K2_BASIC_AUTH="+basic)
	r := testutil.Run(t, env, "", "registry", "add", "k2", doc("keyed-swagger.yaml"), "--base-url", f.URL+"/v1")
	if r.Code != 0 {
		t.Fatalf("registry add of a Swagger 2.0 description: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, table := range []string{"k2.header.things", "k2.query.things", "k2.basic.things"} {
		r = testutil.Run(t, env, "", "exec", "-o", "json", "SELECT id, name FROM "+table+" ORDER BY id")
		if r.Code != 0 || ids(t, r) != "t1,t2" || !strings.Contains(r.Stdout, `"name": "two"`) {
			t.Fatalf("%s: exit %d, want rows t1,t2 with their names\nstdout: %s\nstderr: %s", table, r.Code, r.Stdout, r.Stderr)
		}
		never(t, table+" output", r.Stdout+r.Stderr, headerKey, queryKey, basic)
	}
	h, uris := f.Headers(), f.Requests()
	if len(h) != 3 {
		t.Fatalf("%d requests, want 3: %v", len(h), uris)
	}
	if h[0].Get("X-Api-Key") != headerKey || h[0].Get("Authorization") != "" {
		t.Errorf("header scheme: X-API-Key %q, Authorization %q", h[0].Get("X-Api-Key"), h[0].Get("Authorization"))
	}
	if !strings.Contains(uris[1], "api_key="+queryKey) || h[1].Get("X-Api-Key") != "" {
		t.Errorf("query scheme: request %s, X-API-Key %q", uris[1], h[1].Get("X-Api-Key"))
	}
	if h[2].Get("Authorization") != "Basic "+base64.StdEncoding.EncodeToString([]byte(basic)) {
		t.Errorf("basic scheme: Authorization %q is not K2_BASIC_AUTH's user:password", h[2].Get("Authorization"))
	}
}
