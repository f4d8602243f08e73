package registry_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/testutil"
)

// An app-installation auth kind is data in the provider's profile
// (auth.app, docs/providers.md): a provider other than GitHub, with its
// own token path, JWT paths and headers, gets installation tokens through
// --auth type app, and a provider without the kind refuses type app.
// Before, the paths and headers were GitHub's, written in the client, and
// a profile could not declare them.
func TestAppAuthKindFromProfile(t *testing.T) {
	const minted = "vendor_installation_SECRET_token"
	api := fakeapis.NewFixed(t, map[string]string{
		"/things":               `[{"id": 1, "name": "one"}]`,
		"/v2/installs/77/token": `{"token": "` + minted + `", "expires_at": "2099-01-01T00:00:00Z"}`,
	})
	doc := writeFile(t, "things.json", thingsDoc(api.URL, "things"))
	prof := writeFile(t, "things-profile.json", []byte(`{"auth": {"app": {"name": "Vendor App",
	  "installations_path": "/v2/installs", "token_path": "/v2/installs/{installation_id}/token",
	  "jwt_paths": ["/v2/**"], "headers": {"X-Vendor-App": "1"}}}}`))
	_, keyPath, _ := testutil.RSAKey(t)
	auth := `{"things":{"type":"app","app_id":5,"installation_id":77,"private_key_path":"` + keyPath + `"}}`
	e, _ := env(t)
	sql := "SELECT id, name FROM things.things.things"
	r := run(t, e, "--provider", "things="+doc+",profile="+prof, "--auth", auth, "exec", "-o", "csv", sql)
	if r.Code != 0 || !strings.Contains(r.Stdout, "1,one") || strings.Contains(r.Stdout+r.Stderr, minted) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	reqs, heads := api.Requests(), api.Headers()
	minting := -1
	for i, u := range reqs {
		if u == "/v2/installs/77/token" {
			minting = i
		}
	}
	if minting < 0 {
		t.Fatalf("no token was minted at the profile's token path: %v", reqs)
	}
	if h := heads[minting]; !strings.HasPrefix(h.Get("Authorization"), "Bearer ey") || h.Get("X-Vendor-App") != "1" {
		t.Fatalf("the mint carried Authorization %.12q and X-Vendor-App %q, want the app's JWT and the profile's header", h.Get("Authorization"), h.Get("X-Vendor-App"))
	}
	if got := lastAuth(t, api); got != "Bearer "+minted {
		t.Fatalf("the query carried Authorization %.12q..., want the installation token", got)
	}

	// The same document without the kind in its profile refuses type app
	// before any request.
	before := len(api.Requests())
	r = run(t, e, "--provider", "things="+doc, "--auth", auth, "exec", "-o", "csv", sql)
	if r.Code == 0 || !strings.Contains(r.Stderr, "declares no app authentication") || len(api.Requests()) != before {
		t.Fatalf("without auth.app: exit %d, %d requests\n%s", r.Code, len(api.Requests())-before, r.Stderr)
	}
}
