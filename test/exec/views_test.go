package exec_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// viewsEnv is one user's environment (one HOME, so one data directory)
// on s, for several processes.
func viewsEnv(t *testing.T, s *fakegithub.Server) ([]string, string) {
	env := execEnvOn(t, s)
	for _, kv := range env {
		if home, ok := strings.CutPrefix(kv, "HOME="); ok {
			return env, home
		}
	}
	t.Fatal("no HOME in the test environment")
	return nil, ""
}

func runEnv(t *testing.T, env []string, args ...string) testutil.Result {
	t.Helper()
	r := testutil.Run(t, env, "", append([]string{"exec"}, args...)...)
	if strings.Contains(r.Stdout+r.Stderr, token) {
		t.Fatalf("token leaked in output of %v", args)
	}
	return r
}

const repoLangs = `CREATE VIEW repo_langs AS SELECT org, name, language FROM github.repos.repos WHERE language IS NOT NULL`

// TestViewsPersistAcrossProcesses: CREATE VIEW in one process is a file
// of the data directory (0600 in a 0700 directory), read by the next
// process (SHOW VIEWS, DESCRIBE, SELECT); CREATE over it is refused,
// CREATE OR REPLACE replaces it, DROP VIEW removes it for later
// processes, and DROP VIEW IF EXISTS of none is no error.
func TestViewsPersistAcrossProcesses(t *testing.T) {
	s := fakegithub.ForTest(t)
	env, home := viewsEnv(t, s)
	r := runEnv(t, env, "-o", "csv", repoLangs)
	if r.Code != 0 || r.Stdout != "view,result\nrepo_langs,created\n" {
		t.Fatalf("CREATE VIEW: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	dir := filepath.Join(home, ".local", "share", "engine", "registry-v1", "view")
	fi, err := os.Stat(filepath.Join(dir, "repo_langs.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("view file: %v %v", fi, err)
	}
	if di, err := os.Stat(dir); err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("view directory: %v %v", di, err)
	}

	r = runEnv(t, env, "-o", "csv", "SHOW VIEWS")
	testutil.WantRun(t, "SHOW VIEWS in a second process", r, 0, `repo_langs,"SELECT org, name, language FROM github.repos.repos WHERE language IS NOT NULL",data directory`, "")
	r = runEnv(t, env, "-o", "csv", "DESCRIBE repo_langs")
	if r.Code != 0 || !strings.Contains(r.Stdout, "repo_langs,,view,") || !strings.Contains(r.Stdout, "org,TEXT,key,,binds github.repos.repos's parameter org") ||
		!strings.Contains(r.Stdout, "language,TEXT,column,,from github.repos.repos.language") {
		t.Fatalf("DESCRIBE repo_langs: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = runEnv(t, env, "-o", "csv", "SELECT name, language FROM repo_langs WHERE org = 'tiny' ORDER BY name")
	if r.Code != 0 || r.Stdout != "name,language\nalpha,Go\nbeta,Python\ngamma,TypeScript\n" {
		t.Fatalf("SELECT from the view: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}

	r = runEnv(t, env, repoLangs)
	if r.Code != 1 || !strings.Contains(r.Stderr, "view repo_langs exists") || !strings.Contains(r.Stderr, "CREATE OR REPLACE VIEW") {
		t.Fatalf("CREATE over a view: exit %d\n%s", r.Code, r.Stderr)
	}
	r = runEnv(t, env, "-o", "csv", strings.Replace(repoLangs, "CREATE VIEW", "CREATE OR REPLACE VIEW", 1)+" AND name <> 'beta' AND name <> 'gamma'")
	if r.Code != 0 || r.Stdout != "view,result\nrepo_langs,replaced\n" {
		t.Fatalf("CREATE OR REPLACE: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = runEnv(t, env, "-o", "csv", "SELECT name FROM repo_langs WHERE org = 'tiny' ORDER BY name")
	if r.Code != 0 || r.Stdout != "name\nalpha\n" {
		t.Fatalf("the replaced view: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}

	for _, st := range []struct {
		what, sql string
		code      int
		stderr    string // "": anything
	}{
		{"DROP VIEW", "DROP VIEW repo_langs", 0, ""},
		{"a dropped view", "SELECT name FROM repo_langs WHERE org = 'tiny'", 1, "no such table: repo_langs"},
		{"DROP VIEW of none", "DROP VIEW repo_langs", 1, "no view repo_langs"},
		{"DROP VIEW IF EXISTS of none", "DROP VIEW IF EXISTS repo_langs", 0, ""},
		// Other DDL stays refused, and nothing else is written.
		{"CREATE TABLE", "CREATE TABLE t (a)", 1, "not allowed"},
		{"a view of an unknown table", "CREATE VIEW bad AS SELECT * FROM github.nope.nope", 1, "unknown table"},
		{"a view of itself", "CREATE VIEW selfish AS SELECT * FROM selfish", 1, "reads itself"},
	} {
		testutil.WantRun(t, st.what, runEnv(t, env, st.sql), st.code, "", st.stderr)
	}
	for _, m := range s.Requests() {
		if m.Method != "GET" {
			t.Errorf("a view statement sent %s %s", m.Method, m.Path)
		}
	}
}

// TestViewBindsThroughToTheAPI: a WHERE key on a view's column binds
// the API parameter of its table: org = 'acme' sends acme's list
// requests only, exactly as many as the table itself asked directly;
// IN fans out; EXPLAIN shows the expanded plan and its estimate; a view
// read without its key is refused as its table would be, before any
// request.
func TestViewBindsThroughToTheAPI(t *testing.T) {
	s := fakegithub.ForTest(t)
	env, _ := viewsEnv(t, s)
	if r := runEnv(t, env, repoLangs); r.Code != 0 {
		t.Fatalf("CREATE VIEW: exit %d\n%s", r.Code, r.Stderr)
	}
	s.ResetRequests()
	direct := runEnv(t, env, "-o", "json", "SELECT org, name, language FROM github.repos.repos WHERE org = 'acme' AND language IS NOT NULL")
	want := len(s.Requests())
	s.ResetRequests()
	r := runEnv(t, env, "-o", "json", "SELECT * FROM repo_langs WHERE org = 'acme'")
	if r.Code != 0 || r.Stdout != direct.Stdout || len(testutil.JSONRows(t, r)) == 0 {
		t.Fatalf("through the view: exit %d, %d bytes, want the direct query's %d\n%s", r.Code, len(r.Stdout), len(direct.Stdout), r.Stderr)
	}
	reqs := s.Requests()
	if len(reqs) != want || want == 0 {
		t.Fatalf("through the view: %d requests, the table directly %d", len(reqs), want)
	}
	for _, q := range reqs {
		if q.Path != "/orgs/acme/repos" {
			t.Errorf("request outside acme's list: %s?%s", q.Path, q.RawQuery)
		}
	}

	s.ResetRequests()
	r = runEnv(t, env, "-o", "csv", "SELECT v.org, count(*) AS n FROM repo_langs v WHERE v.org IN ('tiny', 'acme') GROUP BY v.org ORDER BY v.org")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "org,n\nacme,") || !strings.Contains(r.Stdout, "\ntiny,3\n") {
		t.Fatalf("IN through an aliased view: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	paths := map[string]bool{}
	for _, q := range s.Requests() {
		paths[q.Path] = true
	}
	if len(paths) != 2 || !paths["/orgs/acme/repos"] || !paths["/orgs/tiny/repos"] {
		t.Fatalf("IN through the view asked %v", paths)
	}

	r = runEnv(t, env, "EXPLAIN SELECT name FROM repo_langs WHERE org = 'tiny'")
	if r.Code != 0 || !strings.Contains(r.Stdout, "scan github.repos.repos via list_for_org") || !strings.Contains(r.Stdout, "with org='tiny'") ||
		!strings.Contains(r.Stdout, "estimated requests: 1") {
		t.Fatalf("EXPLAIN through the view: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}

	s.ResetRequests()
	r = runEnv(t, env, "-o", "json", "SELECT * FROM repo_langs")
	var body struct {
		Error struct{ Kind, Message string } `json:"error"`
	}
	if r.Code != 1 || json.Unmarshal([]byte(r.Stderr), &body) != nil || body.Error.Kind != "plan" ||
		!strings.Contains(body.Error.Message, "org") || !strings.Contains(body.Error.Message, "view repo_langs") {
		t.Fatalf("a view without its key: exit %d\n%s", r.Code, r.Stderr)
	}
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("a refused view sent %d requests", n)
	}
}

// TestViewOfAView: a view read through another binds through both.
func TestViewOfAView(t *testing.T) {
	s := fakegithub.ForTest(t)
	env, _ := viewsEnv(t, s)
	for _, q := range []string{repoLangs, "CREATE VIEW go_repos AS SELECT org, name FROM repo_langs WHERE language = 'Go'"} {
		if r := runEnv(t, env, q); r.Code != 0 {
			t.Fatalf("%s: exit %d\n%s", q, r.Code, r.Stderr)
		}
	}
	s.ResetRequests()
	r := runEnv(t, env, "-o", "csv", "SELECT name FROM go_repos WHERE org = 'tiny'")
	if r.Code != 0 || r.Stdout != "name\nalpha\n" {
		t.Fatalf("a view of a view: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, q := range s.Requests() {
		if q.Path != "/orgs/tiny/repos" {
			t.Errorf("request outside tiny's list: %s", q.Path)
		}
	}
}

// TestViewNamedWithAReservedWord: a view whose name is a reserved word
// (created in backticks) reads back, alone and beside a table (before:
// created, then every read was a syntax error at the name).
func TestViewNamedWithAReservedWord(t *testing.T) {
	s := fakegithub.ForTest(t)
	env, _ := viewsEnv(t, s)
	for _, q := range []string{"CREATE VIEW `order` AS SELECT org, name FROM github.repos.repos WHERE language = 'Go'",
		"SELECT name FROM `order` WHERE org = 'tiny'", "SELECT o.name FROM `order` o WHERE o.org = 'tiny'"} {
		r := runEnv(t, env, "-o", "csv", q)
		if r.Code != 0 || (!strings.HasPrefix(q, "CREATE") && r.Stdout != "name\nalpha\n") {
			t.Errorf("%s: exit %d\n%s%s", q, r.Code, r.Stdout, r.Stderr)
		}
	}
	// EXPLAIN shows the expanded statement as one row, its line breaks
	// inside it (before: the lines after the first were rows of their own)
	r := runEnv(t, env, "-o", "json", "EXPLAIN SELECT name FROM `order` WHERE org = 'tiny'")
	rows := testutil.JSONRows(t, r)
	last, _ := rows[len(rows)-1]["plan"].(string)
	if r.Code != 0 || !strings.HasPrefix(last, "sqlite: SELECT name FROM (SELECT") || !strings.Contains(last, ") AS `order`") {
		t.Errorf("EXPLAIN: exit %d, last row %q\n%s", r.Code, last, r.Stdout)
	}
}

// TestScriptStopsAtTheFailingStatement: exec -f runs a script's
// statements in order, a ';' inside a string or a comment splitting
// nothing, each result after its header; an error in statement 2 stops
// the script there (statement 3 never runs), names the statement, and
// sets the exit code; with -o json each result is one JSON array and the
// error is the JSON error object.
func TestScriptStopsAtTheFailingStatement(t *testing.T) {
	s := fakegithub.ForTest(t)
	env, _ := viewsEnv(t, s)
	script := testutil.TempFile(t, "script.sql", "-- a script; of three\nSELECT 'a;b' AS x /* c;d */;\n"+
		"SELECT nope FROM github.repos.repos WHERE org = 'tiny';\nSELECT name FROM github.repos.repos WHERE org = 'acme';\n")
	r := runEnv(t, env, "-f", script)
	if r.Code != 1 || !strings.Contains(r.Stdout, "-- statement 1: SELECT 'a;b' AS x /* c;d */") || !strings.Contains(r.Stdout, "| a;b |") ||
		strings.Contains(r.Stdout, "statement 3") || !strings.Contains(r.Stderr, "statement 2 of 3") || !strings.Contains(r.Stderr, "no such column: nope") {
		t.Fatalf("script: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, q := range s.Requests() {
		if strings.Contains(q.Path, "acme") {
			t.Fatalf("statement 3 ran after the error: %s", q.Path)
		}
	}
	r = runEnv(t, env, "-o", "json", "-f", script)
	dec := json.NewDecoder(strings.NewReader(r.Stdout))
	var first []map[string]any
	if err := dec.Decode(&first); err != nil || len(first) != 1 || first[0]["x"] != "a;b" || dec.More() {
		t.Fatalf("-o json script: %v\n%s", err, r.Stdout)
	}
	testutil.WantRun(t, "-o json script error", r, 1, "", `"message":"statement 2 of 3: `)

	// A script of views: created, read and dropped in one run.
	script = testutil.TempFile(t, "views.sql", repoLangs+";\nSELECT name FROM repo_langs WHERE org = 'tiny' ORDER BY name;\nDROP VIEW repo_langs;\n")
	r = runEnv(t, env, "-o", "json", "-f", script)
	dec = json.NewDecoder(strings.NewReader(r.Stdout))
	var n int
	for ; dec.More(); n++ {
		var rows []map[string]any
		if err := dec.Decode(&rows); err != nil || len(rows) == 0 {
			t.Fatalf("result %d: %v\n%s", n+1, err, r.Stdout)
		}
	}
	if r.Code != 0 || n != 3 || !strings.Contains(r.Stdout, `"name": "alpha"`) {
		t.Fatalf("a script of views: exit %d, %d results\n%s%s", r.Code, n, r.Stdout, r.Stderr)
	}
}

// TestScriptRefusesAStatementOfItsOwn: each statement of a script is
// checked alone, so a write after a SELECT is refused as it would be on
// its own (kind sql), after the SELECT ran; an argument is still one
// statement.
func TestScriptRefusesAStatementOfItsOwn(t *testing.T) {
	s := fakegithub.ForTest(t)
	env, _ := viewsEnv(t, s)
	script := testutil.TempFile(t, "drop.sql", "SELECT name FROM github.repos.repos WHERE org = 'tiny'; DROP TABLE t0_github_repos_repos")
	r := runEnv(t, env, "-o", "json", "-f", script)
	if r.Code != 1 || !strings.Contains(r.Stderr, `"kind":"sql"`) || !strings.Contains(r.Stderr, "statement 2 of 2: ") || !strings.Contains(r.Stderr, "not allowed") {
		t.Fatalf("a DROP TABLE in a script: exit %d\n%s", r.Code, r.Stderr)
	}
	r = runEnv(t, env, "SELECT 1; SELECT 2")
	testutil.WantRun(t, "two statements in an argument", r, 1, "", "one statement")
}
