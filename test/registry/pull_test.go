package registry_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// githubDescription returns GitHub's description (../shared, the one the
// embedded index is generated from), decoded, for the test to change.
func githubDescription(t *testing.T) map[string]any {
	t.Helper()
	raw := testutil.RepoFile(t, "../shared/openapi/github/api.github.com.json.gz")
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(plain, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func gz(t *testing.T, v any) []byte {
	t.Helper()
	plain, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return gzipBytes(plain)
}

// engine registry pull github: a good description from loopback (gzip)
// replaces the embedded index and is used by queries (with GITHUB_TOKEN,
// as the embedded one); broken and hostile ones are refused with a clear
// error and the index in use is kept; --reset goes back to the embedded
// index.
func TestRegistryPullGitHub(t *testing.T) {
	doc := githubDescription(t)
	doc["info"].(map[string]any)["version"] = "pulled-1"
	good := gz(t, doc)

	doc["info"].(map[string]any)["version"] = "evil"
	doc["servers"] = []any{map[string]any{"url": "https://api.github.com.evil.example"}}
	evil := gz(t, doc)

	doc["servers"] = []any{map[string]any{"url": "https://api.github.com"}}
	delete(doc["paths"].(map[string]any)["/repos/{owner}/{repo}/pulls"].(map[string]any), "get")
	noPulls := gz(t, doc)

	docs := docServer(t, map[string]served{"/good.json.gz": {body: good}, "/evil.json.gz": {body: evil}, "/nopulls.json.gz": {body: noPulls},
		"/broken.json": {body: []byte(`{"openapi": "3.0.3", "paths": {`)}})
	gh := fakegithub.ForTest(t)
	e, _ := env(t, append([]string{"ENGINE_BASE_URL_GITHUB=" + gh.URL()}, testutil.FastRetry...)...)

	if row := list(t, e)["github"]; row.Via != "embedded" || row.Source != "embedded" {
		t.Fatalf("before pull: %+v", row)
	}
	r := mustRun(t, e, "registry", "pull", "github", "--url", docs+"/good.json.gz")
	if !strings.Contains(r.Stdout, "pulled github version pulled-1") || !strings.Contains(r.Stdout, "371 tables") {
		t.Fatalf("pull: %s", r.Stdout)
	}
	pulled := func(when string) {
		t.Helper()
		row := list(t, e)["github"]
		if row.Version != "pulled-1" || row.Via != "registry pull" || row.Source != docs+"/good.json.gz" ||
			row.SHA256 != sha(good)[:12] || row.Fetched == "" || row.Compiled == "" || row.Resources != 371 {
			t.Fatalf("%s: registry list row = %+v", when, row)
		}
		r := mustRun(t, e, "--debug", "exec", "-o", "csv", "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme'")
		if !strings.HasPrefix(r.Stdout, "n\n") || r.Stdout == "n\n0\n" || !strings.Contains(r.Stderr, "provider github: compiled index") ||
			!strings.Contains(r.Stderr, "reused") {
			t.Fatalf("%s: query with the pulled index:\n%s%s", when, r.Stdout, r.Stderr)
		}
	}
	pulled("after pull")
	reqs := gh.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the fake GitHub")
	}
	if got := reqs[len(reqs)-1].AuthHeader; got != "Bearer "+token {
		t.Fatalf("the pulled GitHub index sent Authorization %q, want GITHUB_TOKEN's", got)
	}

	for _, c := range []struct{ path, want string }{
		{"/evil.json.gz", `base URL is "https://api.github.com.evil.example", not "https://api.github.com"`},
		{"/nopulls.json.gz", "method github.pulls.pulls.list is missing"},
		{"/broken.json", "not a loadable OpenAPI 3 document"},
		{"/gone.json", "HTTP 404"},
	} {
		r := run(t, e, "registry", "pull", "github", "--url", docs+c.path)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("pull %s: exit %d, want 2 and %q:\n%s", c.path, r.Code, c.want, r.Stderr)
		}
		if c.path != "/gone.json" && !strings.Contains(r.Stderr, "the index in use is kept") {
			t.Errorf("pull %s: %s", c.path, r.Stderr)
		}
	}
	pulled("after the refused pulls")

	r = mustRun(t, e, "registry", "pull", "github", "--reset")
	if !strings.Contains(r.Stdout, "embedded index is used again") {
		t.Fatalf("reset: %s", r.Stdout)
	}
	if row := list(t, e)["github"]; row.Via != "embedded" || row.Version != "23.0.2" {
		t.Fatalf("after reset: %+v", row)
	}
	if r := run(t, e, "registry", "pull", "gitlab"); r.Code != 1 || !strings.Contains(r.Stderr, "engine registry add gitlab") {
		t.Errorf("pull gitlab: exit %d %s", r.Code, r.Stderr)
	}
}

// registry list --verbose lists the GET operations that are not tables,
// with the reason, in the text formats and in JSON.
func TestRegistryListVerbose(t *testing.T) {
	e, _ := env(t)
	r := mustRun(t, e, "registry", "list")
	if strings.Contains(r.Stdout, "download-tarball-archive") {
		t.Fatalf("list without --verbose shows skipped operations:\n%s", r.Stdout)
	}
	r = mustRun(t, e, "registry", "list", "--verbose")
	if !strings.Contains(r.Stdout, "GET operations that are not tables (9)") ||
		!strings.Contains(r.Stdout, "repos/download-tarball-archive") || !strings.Contains(r.Stdout, "GET /repos/{owner}/{repo}/tarball/{ref}") {
		t.Fatalf("list --verbose:\n%s", r.Stdout)
	}
	r = mustRun(t, e, "registry", "list", "--verbose", "-o", "json")
	var out struct {
		Providers []listRow
		Skipped   []struct{ Provider, Operation, Path, Reason string }
	}
	testutil.StdoutJSON(t, r, &out)
	if len(out.Providers) != 1 || len(out.Skipped) != 9 || out.Skipped[0].Provider != "github" || !strings.Contains(out.Skipped[0].Reason, "download") {
		t.Fatalf("list --verbose -o json = %+v", out)
	}
}
