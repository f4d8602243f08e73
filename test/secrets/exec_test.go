package secrets

import (
	"path/filepath"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestExecNeverPrintsToken: every format, successes and every error kind,
// EXPLAIN, discovery, with and without --debug.
func TestExecNeverPrintsToken(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	var out outputs
	e := env(t, fake)
	stmts := map[string]string{
		"ok":       okSQL,
		"explain":  "EXPLAIN " + okSQL,
		"show":     "SHOW RESOURCES IN github.repos",
		"describe": "DESCRIBE github.repos.repos",
		"echo 403": echoSQL,
		"sql":      "SELECT nope( FROM github.repos.repos WHERE org = 'acme'",
		"plan":     "SELECT * FROM github.actions.workflow_runs",
		"404":      "SELECT name FROM github.repos.repos WHERE org = 'no-such-org'",
	}
	for name, sql := range stmts {
		for _, format := range []string{"table", "json", "csv", "tsv", "line"} {
			for _, debug := range []bool{false, true} {
				args := []string{"exec", "-o", format, sql}
				if debug {
					args = append([]string{"--debug"}, args...)
				}
				label := name + "/" + format
				r := out.run(label, testutil.Run(t, e, "", args...))
				switch name {
				case "ok", "explain", "show", "describe":
					if r.Code != 0 {
						t.Errorf("%s: exit %d %s", label, r.Code, r.Stderr)
					}
				case "echo 403":
					if r.Code != 2 {
						t.Errorf("%s: exit %d", label, r.Code)
					}
					testutil.Contains(t, label, r.Stderr, "Resource not accessible")
				}
				if debug && (name == "ok" || name == "echo 403") {
					testutil.Contains(t, label+" --debug", r.Stderr, "debug: GET ")
				}
			}
		}
	}
	// The response cache on disk, when it is on.
	cache := filepath.Join(t.TempDir(), "cache")
	ce := env(t, fake, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+cache)
	for i := 0; i < 2; i++ {
		if r := out.run("cached", testutil.Run(t, ce, "", "exec", "-o", "json", okSQL)); r.Code != 0 {
			t.Fatalf("cached run: %d %s", r.Code, r.Stderr)
		}
		out.run("cached echo", testutil.Run(t, ce, "", "exec", echoSQL))
	}
	if n := out.addDir(t, "cache file", cache); n == 0 {
		t.Error("the cache wrote no files; nothing to scan")
	}
	out.run("registry list", testutil.Run(t, e, "", "registry", "list"))
	out.run("registry list debug", testutil.Run(t, e, "", "--debug", "registry", "list"))
	assertSent(t, fake)
	out.assertClean(t, 100_000)
}
