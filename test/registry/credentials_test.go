package registry_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// awsSecret is another secret of the environment an index could name.
const awsSecret = "AWSSECRETregistrysuite0123456789abcdef"

// assertNoAuth fails when any request to api carried credentials, and
// when no request came (a vacuous pass).
func assertNoAuth(t *testing.T, what string, api *fakeapis.Fixed) {
	t.Helper()
	auths := api.Auths()
	if len(auths) == 0 {
		t.Fatalf("%s: no request reached the API", what)
	}
	for i, a := range auths {
		if a != "" {
			t.Errorf("%s: request %s carried Authorization %q", what, api.Requests()[i], a)
		}
	}
}

// An index given with --provider NAME=FILE.idx chooses its base URL, so
// its header's token variables are never read: GITHUB_TOKEN, any other
// variable it names (AWS_SECRET_ACCESS_KEY) and GitHub App credentials
// (GITHUB_APP_*, for an index naming GITHUB_TOKEN) stay home; only --auth
// for its name gives it credentials. Before, each went to the index's
// host.
func TestIndexFileGetsNoCredentialsFromEnvironment(t *testing.T) {
	_, keyPath, _ := testutil.RSAKey(t)
	sql := "SELECT id, name FROM evil.things.things ORDER BY id"
	for _, tc := range []struct {
		name     string
		tokenEnv []string
		extra    []string
	}{
		{"GITHUB_TOKEN", []string{"GITHUB_TOKEN", "GH_TOKEN"}, nil},
		{"any variable", []string{"AWS_SECRET_ACCESS_KEY"}, nil},
		{"GitHub App", []string{"GITHUB_TOKEN"}, []string{"GITHUB_APP_ID=99", "GITHUB_APP_INSTALLATION_ID=5", "GITHUB_APP_PRIVATE_KEY_PATH=" + keyPath}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := newThingsAPI(t)
			idx := writeFile(t, "evil.idx", craftedIndex(t, api.URL, tc.tokenEnv...))
			e, _ := env(t, append([]string{"AWS_SECRET_ACCESS_KEY=" + awsSecret, "MY_TOKEN=things-token"}, tc.extra...)...)
			r := run(t, e, "--provider", "evil="+idx, "exec", "-o", "csv", sql)
			testutil.WantRun(t, "exec", r, 0, "1,one", "")
			if strings.Contains(r.Stdout+r.Stderr, awsSecret) {
				t.Fatal("the AWS secret was printed")
			}
			for _, u := range api.Requests() {
				if strings.HasPrefix(u, "/app/") {
					t.Errorf("a GitHub App JWT was offered to the index's host: %s", u)
				}
			}
			assertNoAuth(t, "--provider evil=FILE.idx", api)

			// --auth for the name is how such a provider gets credentials.
			r = mustRun(t, e, "--provider", "evil="+idx, "--auth", `{"evil":{"type":"bearer","credentialsenvvar":"MY_TOKEN"}}`, "exec", "-o", "csv", sql)
			if got := lastAuth(t, api); got != "Bearer things-token" {
				t.Fatalf("with --auth: Authorization %q", got)
			}
		})
	}
}

// An index planted in the registry directory under an added provider's
// key, naming token variables, is decoded (its envelope is valid) but its
// token variables are dropped like those of any index: the added
// provider still gets credentials only from --auth.
func TestPlantedIndexOfAddedProviderGetsNoCredentials(t *testing.T) {
	api := newThingsAPI(t)
	e, data := env(t, "AWS_SECRET_ACCESS_KEY="+awsSecret)
	mustRun(t, e, "registry", "add", "things", writeFile(t, "things.json", thingsDoc(api.URL, "things")))
	replantIndex(t, data, func([]byte) bool { return true }, func(h map[string]any) {
		h["token_env"] = []string{"AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN"}
	})
	r := mustRun(t, e, "--debug", "exec", "-o", "csv", "SELECT id FROM things.things.things")
	if !strings.Contains(r.Stderr, "reused") {
		t.Fatalf("the planted index was not used:\n%s", r.Stderr)
	}
	assertNoAuth(t, "planted index of an added provider", api)
}

// A pulled GitHub description is trusted with GITHUB_TOKEN only while its
// base URL is the embedded index's: an index planted under the pulled
// provider's key that points elsewhere (with a valid checksum) gets no
// credentials; the same pull left alone sends the token to GitHub's
// host (here the fake, through ENGINE_BASE_URL_GITHUB).
func TestPlantedPulledIndexElsewhereGetsNoCredentials(t *testing.T) {
	doc := githubDescription(t)
	doc["info"].(map[string]any)["version"] = "pulled-1"
	docs := docServer(t, map[string]served{"/good.json.gz": {body: gz(t, doc)}})
	gh := fakegithub.ForTest(t, fakegithub.WithToken(token))
	e, data := env(t, testutil.FastRetry...)
	mustRun(t, e, "registry", "pull", "github", "--url", docs+"/good.json.gz")
	sql := "SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 1"
	withFake := append(append([]string(nil), e...), "ENGINE_BASE_URL_GITHUB="+gh.URL())
	if r := run(t, withFake, "exec", "-o", "csv", sql); r.Code != 0 {
		t.Fatalf("the pulled description with GITHUB_TOKEN: exit %d\n%s", r.Code, r.Stderr)
	}

	evil := fakeapis.NewFixed(t, map[string]string{"/orgs/acme/repos": `[{"id": 1, "name": "bait"}]`})
	replantIndex(t, data, func(body []byte) bool { return bytes.Contains(body[:200], []byte(`"provider":"github"`)) },
		func(h map[string]any) { h["base_url"] = evil.URL })
	r := run(t, e, "--debug", "exec", "-o", "csv", sql)
	if !strings.Contains(r.Stderr, "reused") || !strings.Contains(r.Stdout, "bait") {
		t.Fatalf("the planted index was not used: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	assertNoAuth(t, "planted pulled index with another base URL", evil)
}

// registry pull prints the document's info.version: terminal escapes and
// line breaks in it are shown as inert escapes, like every other
// human-facing text (the stored description still carries it exactly).
func TestRegistryPullVersionIsInert(t *testing.T) {
	doc := githubDescription(t)
	doc["info"].(map[string]any)["version"] = "1.0\x1b]0;pwned\x07\x1b[2J\r\nforged: line\u202e"
	docs := docServer(t, map[string]served{"/escape.json.gz": {body: gz(t, doc)}})
	e, _ := env(t)
	r := mustRun(t, e, "registry", "pull", "github", "--url", docs+"/escape.json.gz")
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "\nforged"} {
		if strings.Contains(r.Stdout+r.Stderr, bad) {
			t.Errorf("registry pull printed %q raw:\n%q", bad, r.Stdout)
		}
	}
	testutil.Contains(t, "registry pull", r.Stdout, `pulled github version 1.0\x1b]0;pwned\x07\x1b[2J\r\nforged: line\u202e from `)
}
