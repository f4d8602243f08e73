// Package registry_test runs the built engine binary's registry commands
// (add, remove, pull, list) and the compiled-index reuse of --provider:
// documents served from files and from loopback HTTP servers, the API of
// an added provider faked on loopback, and the user's data directory
// (XDG_DATA_HOME) in a temporary directory.
package registry_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/testutil"
)

const token = "ghp_REGISTRYTEST1234567890secret"

// newThingsAPI is a fake API with one list, recording the Authorization
// header of each request.
func newThingsAPI(t *testing.T) *fakeapis.Fixed {
	return fakeapis.NewFixed(t, map[string]string{"/things": `[{"id": 1, "name": "one"}, {"id": 2, "name": "two"}]`})
}

// lastAuth is the Authorization header of the API's last request.
func lastAuth(t *testing.T, api *fakeapis.Fixed) string {
	t.Helper()
	got, ok := api.LastAuth()
	if !ok {
		t.Fatal("no request reached the API")
	}
	return got
}

// thingsDoc is an OpenAPI document for the fake API; resource names the
// table (so two documents can be told apart by their tables).
func thingsDoc(base, resource string) []byte {
	return []byte(fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": "things", "version": "7.1"},
  "servers": [{"url": %q}],
  "paths": {"/things": {"get": {"operationId": "list-%s", "tags": [%q],
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
      {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}},
      "404": {"description": "no things"}}}}}}`,
		base, resource, resource))
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	return testutil.TempFile(t, name, string(data))
}

func sha(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// env is a clean environment with its own data directory.
func env(t *testing.T, extra ...string) ([]string, string) {
	data := filepath.Join(t.TempDir(), "data")
	return testutil.Env(t, append([]string{"XDG_DATA_HOME=" + data, "GITHUB_TOKEN=" + token}, extra...)...), data
}

func run(t *testing.T, env []string, args ...string) testutil.Result {
	t.Helper()
	r := testutil.Run(t, env, "", args...)
	if strings.Contains(r.Stdout+r.Stderr, token) {
		t.Fatalf("the token leaked: %s %s", r.Stdout, r.Stderr)
	}
	return r
}

func mustRun(t *testing.T, env []string, args ...string) testutil.Result {
	t.Helper()
	r := run(t, env, args...)
	if r.Code != 0 {
		t.Fatalf("engine %v: exit %d\n%s%s", args, r.Code, r.Stdout, r.Stderr)
	}
	return r
}

type listRow struct {
	Provider, Version, Source, Via, Fetched, Compiled, SHA256 string
	Resources                                                 int
}

func list(t *testing.T, env []string) map[string]listRow {
	t.Helper()
	r := mustRun(t, env, "registry", "list", "-o", "json")
	var rows []listRow
	testutil.StdoutJSON(t, r, &rows)
	out := map[string]listRow{}
	for _, row := range rows {
		out[row.Provider] = row
	}
	return out
}

// registry add from a file: validated, compiled, kept, queried without
// --provider, credentials only from --auth, listed with its source and
// hash, and removed.
func TestRegistryAddFileThenQuery(t *testing.T) {
	api := newThingsAPI(t)
	doc := thingsDoc(api.URL, "things")
	file := writeFile(t, "things.json", doc)
	e, _ := env(t, "MY_TOKEN=things-token")

	r := mustRun(t, e, "registry", "add", "things", file)
	if !strings.Contains(r.Stdout, "added provider things") || !strings.Contains(r.Stdout, "1 tables") {
		t.Fatalf("registry add: %s", r.Stdout)
	}
	r = mustRun(t, e, "exec", "-o", "csv", "SELECT id, name FROM things.things.things ORDER BY id")
	if r.Stdout != "id,name\n1,one\n2,two\n" {
		t.Fatalf("rows:\n%s%s", r.Stdout, r.Stderr)
	}
	if got := lastAuth(t, api); got != "" {
		t.Fatalf("an added provider was sent Authorization %q (GITHUB_TOKEN must never go to it)", got)
	}
	mustRun(t, e, "exec", "--auth", `{"things":{"type":"bearer","credentialsenvvar":"MY_TOKEN"}}`, "SELECT name FROM things.things.things")
	if got := lastAuth(t, api); got != "Bearer things-token" {
		t.Fatalf("with --auth things: Authorization %q", got)
	}
	row := list(t, e)["things"]
	abs, _ := filepath.Abs(file)
	if row.Source != abs || row.Via != "registry add" || row.Version != "7.1" || row.SHA256 != sha(doc)[:12] ||
		row.Fetched == "" || row.Compiled == "" || row.Resources != 1 {
		t.Fatalf("registry list row = %+v", row)
	}
	// The document may go away: the provider is kept in the data directory.
	os.Remove(file)
	mustRun(t, e, "exec", "SELECT name FROM things.things.things")

	mustRun(t, e, "registry", "remove", "things")
	r = run(t, e, "exec", "SELECT name FROM things.things.things")
	testutil.WantRun(t, "after remove", r, 1, "", "things")
	if _, ok := list(t, e)["things"]; ok {
		t.Fatal("registry list still shows things after remove")
	}
	r = run(t, e, "registry", "remove", "things")
	testutil.WantRun(t, "second remove", r, 1, "", "no provider things")
}

// registry add from a loopback URL (gzip-served), and the documents that
// must be refused before anything is stored.
func TestRegistryAddURL(t *testing.T) {
	api := newThingsAPI(t)
	gz := gzipBytes(thingsDoc(api.URL, "things"))
	noTables := []byte(`{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/x": {"post": {"responses": {"200": {"description": "ok"}}}}}}`)
	docs := docServer(t, map[string]served{
		"/things.json.gz": {gz, map[string]string{"Content-Type": "application/gzip"}},
		"/plain.json.gz":  {gz, map[string]string{"Content-Encoding": "gzip"}}, // answered decompressed in transit
		"/notes.txt":      {body: []byte("this is not an OpenAPI document")},
		"/posts.json":     {body: noTables},
	})
	e, data := env(t)

	url := docs + "/things.json.gz?sig=secret-signature"
	r := mustRun(t, e, "registry", "add", "things", url)
	if strings.Contains(r.Stdout, "secret-signature") {
		t.Fatalf("the URL's query was printed: %s", r.Stdout)
	}
	r = mustRun(t, e, "exec", "-o", "csv", "SELECT name FROM things.things.things ORDER BY id")
	if r.Stdout != "name\none\ntwo\n" {
		t.Fatalf("rows: %s%s", r.Stdout, r.Stderr)
	}
	row := list(t, e)["things"]
	if row.Source != docs+"/things.json.gz?…" || row.Via != "registry add" || row.SHA256 != sha(gz)[:12] {
		t.Fatalf("registry list row = %+v", row)
	}

	mustRun(t, e, "registry", "add", "plain", docs+"/plain.json.gz")
	if r := run(t, e, "registry", "add", "bad", docs+"/notes.txt?sig=secret-signature"); strings.Contains(r.Stderr, "secret-signature") || r.Code != 1 {
		t.Errorf("a refused URL's query was printed: exit %d %s", r.Code, r.Stderr)
	}
	for _, c := range []struct{ path, code, want string }{
		{"/missing.json", "2", "HTTP 404"},
		{"/notes.txt", "1", "not a loadable OpenAPI 3 document"},
		{"/posts.json", "1", "no GET operations"},
	} {
		r := run(t, e, "registry", "add", "bad", docs+c.path)
		if fmt.Sprint(r.Code) != c.code || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("add %s: exit %d, want %s with %q: %s", c.path, r.Code, c.code, c.want, r.Stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(data, "engine", "registry-v1", "provider", "bad.json")); err == nil {
		t.Error("a refused document was stored")
	}
	if _, ok := list(t, e)["bad"]; ok {
		t.Error("a refused document is listed")
	}
	// Names: a built-in provider is pulled, not added; bad names are refused.
	if r := run(t, e, "registry", "add", "github", docs+"/things.json.gz"); r.Code != 1 || !strings.Contains(r.Stderr, "engine registry pull github") {
		t.Errorf("add github: exit %d %s", r.Code, r.Stderr)
	}
	if r := run(t, e, "registry", "add", "Bad-Name", docs+"/things.json.gz"); r.Code != 1 || !strings.Contains(r.Stderr, "lower-case") {
		t.Errorf("add Bad-Name: exit %d %s", r.Code, r.Stderr)
	}
}

// indexFiles returns the compiled index files in the data directory.
func indexFiles(t *testing.T, data string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(data, "engine", "registry-v1", "index", "*.idx"))
	return m
}

// --provider compiles a document once and reuses its compiled index: the
// second run decodes the stored index instead of parsing the document.
// Proof without timing: an index planted under the document's key (a
// valid index of ANOTHER document) is what the engine serves; a corrupt,
// foreign or outdated one is ignored and rebuilt.
func TestProviderReusesCompiledIndex(t *testing.T) {
	api := newThingsAPI(t)
	docA := writeFile(t, "a.json", thingsDoc(api.URL, "alpha"))
	docB := writeFile(t, "b.json", thingsDoc(api.URL, "beta"))
	e, data := env(t)
	resources := func(doc string) (string, string) {
		r := mustRun(t, e, "--debug", "--provider", "p="+doc, "exec", "-o", "csv", "SHOW RESOURCES IN p")
		return r.Stdout, r.Stderr
	}

	out, log := resources(docA)
	if !strings.Contains(out, "p.alpha.") || !strings.Contains(log, "provider p: compiled index") || !strings.Contains(log, "stored") {
		t.Fatalf("first run:\n%s%s", out, log)
	}
	files := indexFiles(t, data)
	if len(files) != 1 {
		t.Fatalf("compiled indexes after the first run: %v", files)
	}
	idxA := files[0]
	key := strings.TrimSuffix(filepath.Base(idxA), ".idx")
	out, log = resources(docA)
	if !strings.Contains(out, "p.alpha.") || !strings.Contains(log, "provider p: compiled index "+key[:12]+" reused") {
		t.Fatalf("second run:\n%s%s", out, log)
	}

	// Compile B too, then put B's index under A's key, with a valid
	// envelope: the engine answers with B's tables for document A.
	resources(docB)
	var idxB string
	for _, f := range indexFiles(t, data) {
		if f != idxA {
			idxB = f
		}
	}
	rawB, err := os.ReadFile(idxB)
	if err != nil {
		t.Fatal(err)
	}
	_, bodyB, _ := bytes.Cut(rawB, []byte("\n"))
	planted := fmt.Sprintf("engine-index v1 %s %s 1700000000\n%s", key, sha(bodyB), bodyB)
	if err := os.WriteFile(idxA, []byte(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	out, log = resources(docA)
	if !strings.Contains(out, "p.beta.") || strings.Contains(out, "alpha") {
		t.Fatalf("with B's index planted under A's key, document A was parsed instead of the index being decoded:\n%s%s", out, log)
	}

	// Corrupt, foreign and outdated-format indexes are ignored and rebuilt.
	goodA := func() []byte {
		os.Remove(idxA)
		resources(docA)
		b, err := os.ReadFile(idxA)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}()
	head, body, _ := bytes.Cut(goodA, []byte("\n"))
	flipped := append([]byte(nil), goodA...)
	flipped[len(flipped)-5] ^= 0x20
	current := fmt.Sprintf(`{"format":%d,`, providers.IndexFormat)
	outdated := bytes.Replace(body, []byte(current), []byte(`{"format":1,`), 1)
	if bytes.Equal(outdated, body) {
		t.Fatal("test setup: no format field in the index header")
	}
	for name, bad := range map[string][]byte{
		"corrupt (a byte changed)": flipped,
		"truncated":                goodA[:len(goodA)/2],
		"foreign file":             []byte("PK\x03\x04 not an index\n"),
		"another key":              append([]byte(fmt.Sprintf("engine-index v1 %s %s 1700000000\n", strings.Repeat("0", 64), sha(body))), body...),
		"outdated format":          append([]byte(fmt.Sprintf("engine-index v1 %s %s 1700000000\n", key, sha(outdated))), outdated...),
	} {
		if err := os.WriteFile(idxA, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		out, log := resources(docA)
		if !strings.Contains(out, "p.alpha.") || !strings.Contains(log, "compiled index "+key[:12]+" ignored") {
			t.Errorf("%s: not ignored and rebuilt:\n%s%s", name, out, log)
		}
		now, _ := os.ReadFile(idxA)
		_, nowBody, _ := bytes.Cut(now, []byte("\n"))
		if !bytes.Equal(nowBody, body) {
			t.Errorf("%s: the rebuilt index differs from the original", name)
		}
		if _, log := resources(docA); !strings.Contains(log, key[:12]+" reused") {
			t.Errorf("%s: the rebuilt index is not reused: %s", name, log)
		}
	}
	_ = head
	if fi, err := os.Stat(idxA); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("compiled index mode: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Stat(filepath.Join(data, "engine", "registry-v1")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("registry directory mode: %v %v", fi.Mode(), err)
	}
}

// A document changed in place is a new key: never the old index.
func TestProviderChangedDocumentIsRecompiled(t *testing.T) {
	api := newThingsAPI(t)
	doc := writeFile(t, "p.json", thingsDoc(api.URL, "alpha"))
	e, _ := env(t)
	mustRun(t, e, "--provider", "p="+doc, "exec", "SHOW RESOURCES IN p")
	os.WriteFile(doc, thingsDoc(api.URL, "gamma"), 0o644)
	r := mustRun(t, e, "--provider", "p="+doc, "exec", "-o", "csv", "SHOW RESOURCES IN p")
	if !strings.Contains(r.Stdout, "p.gamma.") || strings.Contains(r.Stdout, "alpha") {
		t.Fatalf("after changing the document:\n%s", r.Stdout)
	}
}

// snapshotFiles maps every file under dir to its content and mode.
func snapshotFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			out[p] = fmt.Sprintf("%v %d %x %v", fi.Mode(), fi.Size(), sha256.Sum256(b), fi.ModTime().UnixNano())
		}
		return nil
	})
	return out
}

// The registry directory is the engine's own: files next to it, and a
// registry-v1 directory the engine did not create (or a link, or one
// others can write), are never read as providers, written or removed.
// Commands then run without the registry after one warning; add refuses.
func TestRegistryNeverTouchesUserFiles(t *testing.T) {
	api := newThingsAPI(t)
	doc := writeFile(t, "things.json", thingsDoc(api.URL, "things"))
	plant := func(t *testing.T, root string, files map[string]string) {
		for rel, body := range files {
			p := filepath.Join(root, rel)
			os.MkdirAll(filepath.Dir(p), 0o700)
			if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	key := strings.Repeat("ab", 32)
	userFiles := map[string]string{
		"engine/notes.txt":               "mine\n",
		"engine/index/" + key + ".idx":   "looks like a compiled index\n",
		"engine/provider/things.json":    `{"name": "things"}`,
		"engine/registry-v0/blob/" + key: "old\n",
	}

	t.Run("next to the registry", func(t *testing.T) {
		e, data := env(t)
		plant(t, data, userFiles)
		before := snapshotFiles(t, data)
		mustRun(t, e, "registry", "add", "things", doc)
		mustRun(t, e, "--provider", "p="+doc, "exec", "SHOW RESOURCES IN p")
		mustRun(t, e, "registry", "remove", "things")
		after := snapshotFiles(t, data)
		for p, s := range before {
			if after[p] != s {
				t.Errorf("%s changed or removed", p)
			}
		}
		for p := range after {
			if _, ok := before[p]; !ok && !strings.Contains(p, string(filepath.Separator)+"registry-v1"+string(filepath.Separator)) {
				t.Errorf("file written outside registry-v1: %s", p)
			}
		}
	})

	for name, setup := range map[string]func(t *testing.T, data string){
		"foreign registry-v1": func(t *testing.T, data string) {
			plant(t, data, map[string]string{"engine/registry-v1/provider/things.json": `{"name":"things","kind":"added","origin":"x","document":"` + key + `"}`, "engine/registry-v1/thesis.tex": "chapter 1\n"})
		},
		"registry-v1 is a link": func(t *testing.T, data string) {
			other := t.TempDir()
			plant(t, other, map[string]string{"thesis.tex": "chapter 1\n"})
			os.MkdirAll(filepath.Join(data, "engine"), 0o700)
			if err := os.Symlink(other, filepath.Join(data, "engine", "registry-v1")); err != nil {
				t.Fatal(err)
			}
		},
		"registry-v1 open to others": func(t *testing.T, data string) {
			plant(t, data, map[string]string{"engine/registry-v1/thesis.tex": "chapter 1\n"})
			os.Chmod(filepath.Join(data, "engine", "registry-v1"), 0o777)
		},
	} {
		t.Run(name, func(t *testing.T) {
			e, data := env(t)
			setup(t, data)
			before := snapshotFiles(t, data)
			r := run(t, e, "registry", "add", "things", doc)
			if r.Code != 1 || !strings.Contains(r.Stderr, "registry") || !strings.Contains(r.Stderr, "registry-v1") {
				t.Errorf("add: exit %d %s", r.Code, r.Stderr)
			}
			r = mustRun(t, e, "--provider", "p="+doc, "exec", "-o", "csv", "SELECT name FROM p.things.things ORDER BY id")
			if r.Stdout != "name\none\ntwo\n" || !strings.Contains(r.Stderr, "warning: provider registry disabled") {
				t.Errorf("--provider without the registry: %s%s", r.Stdout, r.Stderr)
			}
			if _, ok := list(t, e)["things"]; ok {
				t.Error("a provider was read from a directory the engine did not create")
			}
			after := snapshotFiles(t, data)
			if len(after) != len(before) {
				t.Errorf("files: %d before, %d after", len(before), len(after))
			}
			for p, s := range before {
				if after[p] != s {
					t.Errorf("%s changed or removed", p)
				}
			}
		})
	}
}

// A profile given with the document is part of what is compiled and of
// the key: a bad one is refused before anything is stored, a changed one
// is a new compiled index.
func TestRegistryAddWithProfile(t *testing.T) {
	api := newThingsAPI(t)
	doc := writeFile(t, "things.json", thingsDoc(api.URL, "things"))
	rule := func(reason string) []byte {
		return []byte(`{"absent": {"list-things": {"status": 404, "message": "No things", "reason": "` + reason + `"}}}`)
	}
	e, data := env(t)

	bad := writeFile(t, "bad.json", []byte(`{"bogus": true}`))
	r := run(t, e, "registry", "add", "things", doc, "--profile", bad)
	if r.Code != 1 || !strings.Contains(r.Stderr, "profile") || !strings.Contains(r.Stderr, "bogus") {
		t.Fatalf("bad profile: exit %d %s", r.Code, r.Stderr)
	}
	if _, ok := list(t, e)["things"]; ok {
		t.Fatal("a provider with a refused profile was stored")
	}
	prof := writeFile(t, "things-profile.json", rule("documented"))
	mustRun(t, e, "registry", "add", "things", doc, "--profile", prof)
	raw, err := os.ReadFile(filepath.Join(data, "engine", "registry-v1", "provider", "things.json"))
	if err != nil || !strings.Contains(string(raw), sha(rule("documented"))) {
		t.Fatalf("manifest: %s %v", raw, err)
	}
	os.Remove(prof) // the stored copy is used
	mustRun(t, e, "exec", "SELECT name FROM things.things.things")

	// --provider with a profile: changing only the profile recompiles.
	prof = writeFile(t, "p-profile.json", rule("first"))
	flag := "p=" + doc + ",profile=" + prof
	if r := mustRun(t, e, "--debug", "--provider", flag, "exec", "SHOW RESOURCES IN p"); !strings.Contains(r.Stderr, "stored") {
		t.Fatalf("first run: %s", r.Stderr)
	}
	if r := mustRun(t, e, "--debug", "--provider", flag, "exec", "SHOW RESOURCES IN p"); !strings.Contains(r.Stderr, "reused") {
		t.Fatalf("second run: %s", r.Stderr)
	}
	os.WriteFile(prof, rule("second"), 0o644)
	if r := mustRun(t, e, "--debug", "--provider", flag, "exec", "SHOW RESOURCES IN p"); !strings.Contains(r.Stderr, "stored") || strings.Contains(r.Stderr, "reused") {
		t.Fatalf("after changing the profile: %s", r.Stderr)
	}
}
