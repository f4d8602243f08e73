package shell

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestShellViewsAndReadStatementNumber: a .read file creates a view and
// reads it (its key binding through), a ';' in a string splitting
// nothing; its failing third statement is named by number, and the
// view is there for the next session.
func TestShellViewsAndReadStatementNumber(t *testing.T) {
	gh, env := fake(t)
	file := testutil.TempFile(t, "views.sql", "CREATE OR REPLACE VIEW repo_langs AS SELECT org, name, language FROM github.repos.repos;\n"+
		"SELECT name, 'a;b' AS x FROM repo_langs WHERE org = 'tiny' ORDER BY name;\nSELECT nope FROM repo_langs WHERE org = 'tiny';\nSELECT 42;\n")
	r := testutil.Run(t, env, ".read "+file+"\n", "shell", "-o", "csv")
	if r.Code != 1 || !strings.Contains(r.Stdout, "alpha,a;b\nbeta,a;b\ngamma,a;b\n") || strings.Contains(r.Stdout, "42") ||
		!strings.Contains(r.Stderr, "statement 3 failed and later statements were not run") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, q := range gh.Requests() {
		if q.Path != "/orgs/tiny/repos" {
			t.Errorf("request outside tiny's list: %s", q.Path)
		}
	}
	r = testutil.Run(t, env, "SHOW VIEWS;\nDESCRIBE repo_langs;\n", "shell", "-o", "csv")
	if r.Code != 0 || !strings.Contains(r.Stdout, `repo_langs,"SELECT org, name, language FROM github.repos.repos",data directory`) ||
		!strings.Contains(r.Stdout, "org,TEXT,key,") {
		t.Fatalf("the next session: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
