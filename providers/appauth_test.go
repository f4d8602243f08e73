package providers

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// testKey returns a fresh app key's PEM text and the path of its file.
func testKey(t *testing.T) (string, string) {
	_, path, pemText := testutil.RSAKey(t)
	return pemText, path
}

// parseAuth decodes an auth object keyed by provider name and checks each
// entry, as the CLI's --auth does.
func parseAuth(s string) (map[string]AuthConfig, error) {
	out := map[string]AuthConfig{}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, err
	}
	for _, a := range out {
		if err := a.Check(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func TestCheckAuthApp(t *testing.T) {
	_, path := testKey(t)
	cfg, err := parseAuth(`{"github":{"type":"app","app_id":123,"installation_id":"456","private_key_path":"` + path + `"}}`)
	if err != nil || cfg["github"].AppID != "123" || cfg["github"].InstallationID != "456" {
		t.Fatalf("%+v %v", cfg, err)
	}
	for in, want := range map[string]string{
		`{"github":{"type":"app","installation_id":1,"private_key_path":"x"}}`:                                          "needs app_id",
		`{"github":{"type":"app","app_id":"x1","installation_id":1,"private_key_path":"x"}}`:                            "needs app_id",
		`{"github":{"type":"app","app_id":1,"installation_id":1,"default_installation":"acme","private_key_path":"x"}}`: "give one of them",
		`{"github":{"type":"app","app_id":1,"default_installation":"no/such","private_key_path":"x"}}`:                  "must be the login",
		`{"github":{"type":"app","app_id":1,"installation_id":"x","private_key_path":"x"}}`:                             "or left out",
		`{"github":{"type":"app","app_id":1,"installation_id":1}}`:                                                      "exactly one of private_key_path",
		`{"github":{"type":"app","app_id":1,"installation_id":1,"private_key_path":"x","private_key_env":"Y"}}`:         "exactly one of private_key_path",
		`{"github":{"type":"app","app_id":[1],"installation_id":1,"private_key_path":"x"}}`:                             "number or a string",
	} {
		if _, err := parseAuth(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

// githubApp is the app auth kind of the built-in GitHub profile.
func githubApp(t *testing.T) *AppAuth {
	var a AppAuth
	if err := json.Unmarshal(testutil.ProfileSection(t, "github", "auth", "app"), &a); err != nil {
		t.Fatal(err)
	}
	return &a
}

// githubHeader is a header with GitHub's token variables and app kind.
func githubHeader(t *testing.T, tokenEnv ...string) *Header {
	return &Header{TokenEnv: tokenEnv, Profile: &Profile{App: githubApp(t)}}
}

func TestResolveAppCredentials(t *testing.T) {
	pemText, path := testKey(t)
	env := map[string]string{"KEY": pemText}
	getenv := func(k string) string { return env[k] }
	for _, cfg := range []*AuthConfig{
		{Type: AuthApp, AppID: "1", InstallationID: "2", PrivateKeyPath: path},
		{Type: AuthApp, AppID: "1", InstallationID: "2", PrivateKeyEnv: "KEY"},
	} {
		c, err := githubHeader(t).Credentials(cfg, getenv)
		if err != nil || c.App() == nil || c.Anonymous() || c.Secret() != "" || c.Identity() == "anonymous" {
			t.Fatalf("%+v: %v %v", cfg, c, err)
		}
		for _, s := range []string{c.String(), fmt.Sprintf("%#v %v %+v", c, c.App(), c.App())} {
			if strings.Contains(s, "PRIVATE") || strings.Contains(s, c.App().Key.N.String()[:20]) {
				t.Fatalf("key in %q", s)
			}
		}
	}
	env["BAD"] = "-----BEGIN RSA PRIVATE KEY-----\nc2VjcmV0c2VjcmV0\n-----END RSA PRIVATE KEY-----\n"
	_, err := githubHeader(t).Credentials(&AuthConfig{Type: AuthApp, AppID: "1", InstallationID: "2", PrivateKeyEnv: "BAD"}, getenv)
	if err == nil || strings.Contains(err.Error(), "c2VjcmV0") || !strings.Contains(err.Error(), "not an RSA private key") {
		t.Fatalf("bad key: %v", err)
	}
	// A provider whose profile declares no app kind takes no app credentials.
	if _, err := (&Header{}).Credentials(&AuthConfig{Type: AuthApp, AppID: "1", InstallationID: "2", PrivateKeyPath: path}, getenv); err == nil || !strings.Contains(err.Error(), "declares no app") {
		t.Fatalf("no app kind: %v", err)
	}
}

func TestAppFromEnv(t *testing.T) {
	pemText, path := testKey(t)
	env := map[string]string{"GITHUB_TOKEN": "ghp_x", "GITHUB_APP_ID": "7", "GITHUB_APP_INSTALLATION_ID": "8", "GITHUB_APP_PRIVATE_KEY_PATH": path}
	getenv := func(k string) string { return env[k] }
	c, err := githubHeader(t, "GITHUB_TOKEN").Credentials(nil, getenv)
	if err != nil || c.App() == nil || c.App().AppID != "7" {
		t.Fatalf("%v %v: the app variables win over GITHUB_TOKEN", c, err)
	}
	// Only for providers whose profile names the app variables.
	if c, err := (&Header{TokenEnv: []string{"OTHER_TOKEN"}}).Credentials(nil, getenv); err != nil || c.App() != nil {
		t.Fatalf("other provider: %v %v", c, err)
	}
	// A definition not trusted with environment credentials loses them.
	h := githubHeader(t, "GITHUB_TOKEN")
	if !h.DropCredentialEnv() {
		t.Fatal("DropCredentialEnv: named none")
	}
	if c, err := h.Credentials(nil, getenv); err != nil || !c.Anonymous() {
		t.Fatalf("untrusted: %v %v", c, err)
	}
	delete(env, "GITHUB_APP_PRIVATE_KEY_PATH")
	if _, err := githubHeader(t, "GITHUB_TOKEN").Credentials(nil, getenv); err == nil || !strings.Contains(err.Error(), "must be set for GitHub App auth") {
		t.Fatalf("partial: %v", err)
	}
	env["GITHUB_APP_PRIVATE_KEY"] = pemText
	if c, err := githubHeader(t, "GITHUB_TOKEN").Credentials(nil, getenv); err != nil || c.App() == nil {
		t.Fatalf("PEM in the environment: %v", err)
	}
}

func TestCheckProbePath(t *testing.T) {
	for _, ok := range []string{"", "/rate_limit", "/v1/limits?scope=all", "/a/b%20c"} {
		if err := CheckProbePath(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"@evil.example/rate_limit", "rate_limit", "//evil.example/x", "http://evil.example/x",
		"/x@evil", "/a b", "/a\\b", "/a\nb", "\\\\evil/x"} {
		if err := CheckProbePath(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestAccountOfPath(t *testing.T) {
	app := githubApp(t)
	for path, want := range map[string]string{
		"/orgs/Acme/repos": "Acme", "/orgs/acme": "acme", "/repos/acme/r/issues": "acme", "/repos/acme": "",
		"/users/octo/repos": "octo", "/user": "", "/search/repositories": "", "/rate_limit": "", "/orgs/": "",
	} {
		if got := app.Account(path); got != want {
			t.Errorf("AccountOfPath(%q) = %q, want %q", path, got, want)
		}
	}
	if !app.JWTPath("/app/installations") || !app.JWTPath("/app") || app.JWTPath("/apps/x") || app.JWTPath("/application") ||
		!app.JWTPath("/orgs/acme/installation") || !app.JWTPath("/repos/a/b/installation") || !app.JWTPath("/users/u/installation") ||
		app.JWTPath("/orgs/acme/installations") || app.JWTPath("/repos/a/installation") {
		t.Error("AppJWTPath")
	}
}
