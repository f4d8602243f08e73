package hostile

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// sandbox is the set of directories a subprocess could write to: its
// HOME (and XDG dirs under it), TMPDIR and working directory, all empty
// at the start.
type sandbox struct {
	home, tmp, cwd string
}

func newSandbox(t *testing.T) sandbox {
	t.Helper()
	root := t.TempDir()
	s := sandbox{home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp"), cwd: filepath.Join(root, "cwd")}
	for _, d := range []string{s.home, s.tmp, s.cwd} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// env is the subprocess environment: the fake server, the statement's
// time limit, and every writable location inside the sandbox.
func (s sandbox) env(t *testing.T, fake *fakegithub.Server, timeout string) []string {
	return testutil.FakeEnv(t, fake.URL(),
		"GITHUB_TOKEN=ghp_hostile_suite_token",
		"ENGINE_QUERY_TIMEOUT="+timeout,
		"HOME="+s.home,
		"TMPDIR="+s.tmp,
		"XDG_STATE_HOME="+filepath.Join(s.home, "state"),
		"XDG_CACHE_HOME="+filepath.Join(s.home, "cache"),
		"XDG_CONFIG_HOME="+filepath.Join(s.home, "config"),
	)
}

// assertEmpty fails when anything was created in the sandbox.
func (s sandbox) assertEmpty(t *testing.T) {
	t.Helper()
	for _, d := range []string{s.home, s.tmp, s.cwd} {
		filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error { //nolint:errcheck
			if err == nil && p != d {
				t.Errorf("written: %s", p)
			}
			return nil
		})
	}
}

// execStdin runs `engine exec -o json -f -` in the sandbox with the
// statement on stdin (an argument cannot carry NUL bytes or 1 MB).
func (s sandbox) execStdin(t *testing.T, fake *fakegithub.Server, h hostile) testutil.Result {
	t.Helper()
	return testutil.RunIn(t, s.cwd, s.env(t, fake, h.timeout()), h.sql, "exec", "-o", "json", "-f", "-")
}
