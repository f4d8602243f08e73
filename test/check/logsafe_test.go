package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// forged is a file name that, printed raw, puts a GitHub Actions
// workflow command at the start of a log line.
const forged = "ctl\n::error file=pwn.go,line=1::forged by a file name\n.yaml"

// workflowLines returns the lines of out that a GitHub Actions log reads
// as workflow commands.
func workflowLines(out string) []string {
	var cmds []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// TestNamesCannotForgeLogLines: a control file whose name holds a
// newline (a fork's pull request can add one) made `engine check` print
// stderr lines starting "::error file=...", which a GitHub Actions log
// reads as workflow commands; so did paths given to exec (--provider,
// -f, --config). Every path and name is now printed on its own line's
// terms, control characters escaped.
func TestNamesCannotForgeLogLines(t *testing.T) {
	fake := fakegithub.ForTest(t)
	env := testutil.FakeEnv(t, fake.URL())
	dir := t.TempDir()
	bad := filepath.Join(dir, forged)
	if err := os.WriteFile(bad, []byte("controls:\n  - id: c1\n    query: SELECT 1\n    expect: rows\n"), 0o600); err != nil {
		t.Skipf("this file system refuses newlines in names: %v", err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"check of a file with problems", []string{"check", bad}},
		{"check of a file with problems, -o github", []string{"check", "-o", "github", bad}},
		{"check of a missing file", []string{"check", bad + ".missing"}},
		{"exec --provider", []string{"--provider", "lp=" + bad + ".missing", "exec", "SELECT 1"}},
		{"exec -f", []string{"exec", "-f", bad + ".missing"}},
		{"exec --config", []string{"--config", bad + ".missing", "exec", "SELECT 1"}},
	} {
		r := testutil.Run(t, env, "", c.args...)
		if r.Code == 0 {
			t.Errorf("%s: exit 0\n%s", c.name, r.Stderr)
		}
		if cmds := workflowLines(r.Stderr); len(cmds) > 0 {
			t.Errorf("%s: stderr has workflow-command lines %q\n%s", c.name, cmds, r.Stderr)
		}
		if !strings.Contains(r.Stderr, `ctl\n::error`) {
			t.Errorf("%s: the name is not shown escaped:\n%s", c.name, r.Stderr)
		}
		// -o github writes annotations on stdout on purpose: each is one
		// line, its file property escaped.
		for _, l := range workflowLines(r.Stdout) {
			if strings.HasPrefix(l, "::error file=pwn.go") {
				t.Errorf("%s: stdout has the forged command: %q", c.name, l)
			}
		}
	}
}
