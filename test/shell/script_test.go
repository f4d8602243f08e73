package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

func TestScriptRunsAllStatements(t *testing.T) {
	_, env := fake(t)
	script := `-- a comment; not a statement end
SELECT name FROM github.repos.repos
  WHERE org = 'tiny' AND name <> 'a;b' ORDER BY name;
.mode csv
SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme'
`
	r := testutil.Run(t, env, script, "shell")
	if r.Code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	want := `+-------+
| name  |
+-------+
| alpha |
| beta  |
| gamma |
+-------+
n
250
`
	if r.Stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.Stdout, want)
	}
	// footers go to stderr so that stdout holds only data
	if !strings.Contains(r.Stderr, "3 rows (1 HTTP request, 1 page, ") || !strings.Contains(r.Stderr, "1 row (3 HTTP requests, 3 pages, ") {
		t.Errorf("stderr footers:\n%s", r.Stderr)
	}
	if strings.Contains(r.Stderr, "fetched") {
		t.Errorf("progress shown without a terminal:\n%s", r.Stderr)
	}
}

func TestScriptStopsAtFirstError(t *testing.T) {
	gh, env := fake(t)
	script := `SELECT name FROM github.repos.repos WHERE org = 'tiny';
SELECT nope FROM github.repos.repos WHERE org = 'tiny';
SELECT name FROM github.repos.repos WHERE org = 'acme';
`
	r := testutil.Run(t, env, script, "shell")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "| alpha |") {
		t.Errorf("first statement's result missing:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stderr, "no such column: nope") || !strings.Contains(r.Stderr, "stopped at stdin line 2") {
		t.Errorf("stderr:\n%s", r.Stderr)
	}
	for _, req := range gh.Requests() {
		if req.Path == "/orgs/acme/repos" {
			t.Errorf("a statement after the failure ran: %s", req.Path)
		}
	}
}

func TestScriptProviderErrorExitsNonZero(t *testing.T) {
	gh, env := fake(t)
	gh.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Page: 2, Kind: fakegithub.KindStatus, Status: 502})
	r := testutil.Run(t, env, "SELECT count(*) FROM github.repos.repos WHERE org = 'acme';\n", "shell")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.Code, r.Stderr)
	}
	if r.Stdout != "" {
		t.Errorf("a partial result was printed:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stderr, "provider github answered HTTP 502") || !strings.Contains(r.Stderr, "retryable") {
		t.Errorf("stderr:\n%s", r.Stderr)
	}
}

func TestScriptPlanErrorNamesMissingKeys(t *testing.T) {
	gh, env := fake(t)
	r := testutil.Run(t, env, "SELECT name FROM github.branches.branches;", "shell")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "error (plan):") || !strings.Contains(r.Stderr, "list_branches needs owner, repo") || !strings.Contains(r.Stderr, "DESCRIBE github.branches.branches") {
		t.Errorf("stderr:\n%s", r.Stderr)
	}
	if len(gh.Requests()) != 0 {
		t.Errorf("a plan error made %d requests", len(gh.Requests()))
	}
}

func TestScriptReadAndOutput(t *testing.T) {
	_, env := fake(t)
	inner := testutil.TempFile(t, "inner.sql", ".mode json\nSELECT name FROM github.repos.repos WHERE org = 'tiny' AND name = 'beta';\n")
	out := filepath.Join(t.TempDir(), "out.json")
	script := ".output " + out + "\n.read " + inner + "\n.output\n.mode tsv\nSELECT 'x\ty' AS v;\n"
	r := testutil.Run(t, env, script, "shell")
	if r.Code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.Code, r.Stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "[\n  {\"name\": \"beta\"}\n]\n" {
		t.Errorf(".output file = %q", b)
	}
	if r.Stdout != "v\nx\\ty\n" {
		t.Errorf("stdout = %q", r.Stdout)
	}
}

func TestScriptReadMissingFileFails(t *testing.T) {
	r := testutil.Run(t, testutil.Env(t), ".read /nonexistent/q.sql\nSELECT 1;\n", "shell")
	if r.Code != 1 || r.Stdout != "" || !strings.Contains(r.Stderr, "no such file") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
}

func TestScriptQuitStopsWithSuccess(t *testing.T) {
	r := testutil.Run(t, testutil.Env(t), "SELECT 1 AS a;\n.quit\nSELECT nope;\n", "shell", "-o", "csv")
	if r.Code != 0 || r.Stdout != "a\n1\n" {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
}
