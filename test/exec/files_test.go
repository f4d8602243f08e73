package exec_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// Issue 34: the SQL functions that read files (regexp, base64, YAML,
// split_part, GLOB) through the built binary: their edge cases (Unicode,
// NULL, empty, invalid) and their errors, of kind sql naming what is
// wrong.
func TestFileFunctions(t *testing.T) {
	cases := []struct{ sql, want string }{
		{`SELECT regexp_like('Ünïcödé', '^ü.ïc', 'i') AS v`, `[{"v":1}]`},
		{`SELECT 'uses: actions/checkout@v4' REGEXP '@v[0-9]+$' AS v`, `[{"v":1}]`},
		{`SELECT regexp_like(NULL, 'a') AS v`, `[{"v":null}]`},
		{`SELECT regexp_substr('日本語テキスト', '本.') AS v`, `[{"v":"本語"}]`},
		{`SELECT regexp_substr('actions/setup-go@v5', '@(.+)$', 1) AS v`, `[{"v":"v5"}]`},
		{`SELECT regexp_replace('a-b', '(a)-(b)', '$2-$1') AS v`, `[{"v":"b-a"}]`},
		{`SELECT regexp_count('', 'x') AS v`, `[{"v":0}]`},
		// a backslash is itself, as SQLite reads it (before: refused)
		{`SELECT regexp_like('v1.22', '^v\d+\.\d+$') AS a, regexp_like('v1x22', '^v\d+\.\d+$') AS b, '\' AS c`, `[{"a":1,"b":0,"c":"\\"}]`},
		{`SELECT count(*) AS v FROM github.repos.repos WHERE org = 'tiny' AND name REGEXP '^\w+$' AND name NOT REGEXP '\d'`, `[{"v":3}]`},
		{`SELECT base64_decode('4pyTIMOg
IGxhIG1vZGU=') AS v`, `[{"v":"✓ à la mode"}]`},
		{`SELECT base64_decode('') AS v`, `[{"v":""}]`},
		{`SELECT base64_encode('✓') AS v`, `[{"v":"4pyT"}]`},
		{`SELECT split_part('refs/heads/main', '/', -1) AS v`, `[{"v":"main"}]`},
		{`SELECT 'abc' GLOB 'a*' AS a, 'Abc' GLOB 'a*' AS b`, `[{"a":1,"b":0}]`},
		{`SELECT yaml_to_json('on: push
permissions: write-all') AS v`, `[{"v":"{\"on\":\"push\",\"permissions\":\"write-all\"}"}]`},
		{`SELECT json_extract(yaml_to_json('a: &x [1, 2]
b: *x'), '$.b[1]') AS v`, `[{"v":2}]`},
	}
	for _, c := range cases {
		r := run(t, "-o", "json", c.sql)
		got, _ := json.Marshal(testutil.JSONRows(t, r))
		if r.Code != 0 || string(got) != c.want {
			t.Errorf("%s: exit %d\n got %s\nwant %s\n%s", c.sql, r.Code, got, c.want, r.Stderr)
		}
	}
	errs := []struct{ sql, want string }{
		{`SELECT regexp_like('a', '(')`, `regexp_like: invalid regular expression '(': missing closing )`},
		{`SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name REGEXP '[z-a]'`, `REGEXP: invalid regular expression '[z-a]'`},
		{`SELECT base64_decode('%%%')`, `base64_decode: the text is not base64`},
		{`SELECT yaml_to_json('a: [1')`, `yaml_to_json: `},
		{`SELECT split_part('a', ',', 0)`, `numbered from 1`},
	}
	for _, c := range errs {
		r := run(t, "-o", "json", c.sql)
		if r.Code != 1 || !strings.Contains(r.Stdout+r.Stderr, `"kind":"sql"`) || !strings.Contains(r.Stdout+r.Stderr, c.want) {
			t.Errorf("%s: exit %d, want 1, kind sql and %q:\n%s%s", c.sql, r.Code, c.want, r.Stdout, r.Stderr)
		}
	}
}

// A billion-laughs YAML document is an error naming the value limit,
// not a process that grows until it is killed.
func TestYAMLAliasBomb(t *testing.T) {
	doc := "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		doc += n + ": &" + n + " [" + strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",") + "]\n"
		prev = n
	}
	r := testutil.Run(t, execEnv(t), "", "exec", "--debug", "-o", "json", "SELECT length(yaml_to_json('"+doc+"'))")
	if r.Code != 1 || !strings.Contains(r.Stdout+r.Stderr, "max-value-bytes") || !strings.Contains(r.Stdout+r.Stderr, `"kind":"sql"`) {
		t.Fatalf("exit %d, want 1 and the value limit:\n%s%.2000s", r.Code, r.Stdout, r.Stderr)
	}
	if peak, ok := testutil.DebugPeakMemory(r.Stderr); ok && peak > 400<<20 {
		t.Errorf("peak memory %d MB for an 8 MiB value limit", peak>>20)
	}
}

// The contents path goes out with its slashes as written (GitHub
// answers 404 to %2F, as the fake does), and a path with an empty, .
// or .. segment is refused before any request.
func TestContentsPathSlashes(t *testing.T) {
	s := fakegithub.ForTest(t)
	env := execEnvOn(t, s)
	r := testutil.Run(t, env, "", "exec", "-o", "json", `SELECT path, encoding, base64_decode(content) AS text FROM github.repos.contents WHERE owner = 'tiny' AND repo = 'alpha' AND path = '.github/workflows/ci.yml'`)
	rows := testutil.JSONRows(t, r)
	if r.Code != 0 || len(rows) != 1 || rows[0]["text"] != fakegithub.WorkflowSafe || rows[0]["encoding"] != "base64" {
		t.Fatalf("exit %d: %v\n%s", r.Code, rows, r.Stderr)
	}
	sent := false
	for _, q := range s.Requests() {
		if q.EscapedPath == "/repos/tiny/alpha/contents/.github/workflows/ci.yml" {
			sent = true
		}
	}
	if !sent {
		t.Fatalf("the contents path was not sent with raw slashes: %v", s.Requests())
	}
	before := len(s.Requests())
	for _, bad := range []string{"../secrets", ".github/../x", "./README.md", ".github//workflows", "/README.md", "docs/"} {
		r := testutil.Run(t, env, "", "exec", "-o", "json", `SELECT path FROM github.repos.contents WHERE owner = 'tiny' AND repo = 'alpha' AND path = '`+bad+`'`)
		if r.Code != 1 || !strings.Contains(r.Stdout+r.Stderr, `"kind":"plan"`) || !strings.Contains(r.Stdout+r.Stderr, "cannot be sent") {
			t.Errorf("path %q: exit %d, want 1 and kind plan:\n%s%s", bad, r.Code, r.Stdout, r.Stderr)
		}
	}
	if n := len(s.Requests()); n != before {
		t.Errorf("%d requests sent for refused paths: %v", n-before, s.Requests()[before:])
	}
	// Every other path parameter stays one segment: a slash in an owner
	// is %2F on the wire.
	r = testutil.Run(t, env, "", "exec", "-o", "json", `SELECT path FROM github.repos.contents WHERE owner = 'tiny/alpha' AND repo = 'x' AND path = 'README.md'`)
	if r.Code != 2 || !strings.Contains(r.Stdout+r.Stderr, "/repos/tiny%2Falpha/x/contents/README.md") {
		t.Errorf("a slash in owner: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// A directory's contents are its entries, one row each.
func TestContentsDirectory(t *testing.T) {
	r := run(t, "-o", "csv", `SELECT name, type FROM github.repos.contents WHERE owner = 'tiny' AND repo = 'beta' AND path = '.github/workflows'`)
	if r.Code != 0 || r.Stdout != "name,type\npr.yml,file\n" {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// A file over 1 MB, which GitHub's contents API answers with "encoding":
// "none" and an empty content, is an error of kind incomplete naming the
// way to read it (git blobs), never a row whose content is empty; the
// blob serves it whole.
func TestContentsOversized(t *testing.T) {
	r := run(t, "-o", "json", `SELECT length(base64_decode(content)) AS n FROM github.repos.contents WHERE owner = 'acme' AND repo = 'repo-000' AND path = '.github/workflows/big.yml'`)
	out := r.Stdout + r.Stderr
	if r.Code != 2 || !strings.Contains(out, `"kind":"incomplete"`) || !strings.Contains(out, `cut short (\"encoding\": \"none\")`) || !strings.Contains(out, "github.git.blobs") {
		t.Fatalf("exit %d, want 2 and kind incomplete:\n%s", r.Code, out)
	}
	r = run(t, "-o", "csv", `SELECT length(base64_decode(b.content)) AS n FROM github.repos.contents w JOIN github.git.blobs b ON b.owner = 'acme' AND b.repo = 'repo-000' AND b.file_sha = w.sha WHERE w.owner = 'acme' AND w.repo = 'repo-000' AND w.path = '.github/workflows'`)
	if want := "n\n" + strconv.Itoa(fakegithub.BigWorkflowBytes) + "\n"; r.Code != 0 || r.Stdout != want {
		t.Fatalf("exit %d\n%s\nwant %s\n%s", r.Code, r.Stdout, want, r.Stderr)
	}
}

// GLOB, which MySQL's grammar lacks, parses and runs as SQLite's
// case-sensitive wildcard match, over a provider table too, where it
// binds nothing and narrows nothing (the rows are SQLite's).
func TestGlobOperator(t *testing.T) {
	for q, want := range map[string]string{
		`SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name GLOB '?eta' ORDER BY name`:             "name\nbeta\n",
		`SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name GLOB 'B*' ORDER BY name`:               "name\n",
		`SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name NOT GLOB '*a*a' ORDER BY name`:         "name\nbeta\n",
		`SELECT name FROM github.repos.repos WHERE org = 'tiny' AND glob('[ag]*', name) ORDER BY name`:          "name\nalpha\ngamma\n",
		`SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name REGEXP '^(alpha|beta)$' ORDER BY name`: "name\nalpha\nbeta\n",
	} {
		r := run(t, "-o", "csv", q)
		if r.Code != 0 || r.Stdout != want {
			t.Errorf("%s: exit %d\n%s\nwant\n%s\n%s", q, r.Code, r.Stdout, want, r.Stderr)
		}
	}
}
