package hostile

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

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

// env is the subprocess environment: the fake server, a short query
// timeout, and every writable location inside the sandbox.
func (s sandbox) env(t *testing.T, fake *fakegithub.Server) []string {
	return testutil.FakeEnv(t, fake.URL(),
		"GITHUB_TOKEN=ghp_hostile_suite_token",
		"ENGINE_QUERY_TIMEOUT=1s",
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
func (s sandbox) execStdin(t *testing.T, fake *fakegithub.Server, stmt string) testutil.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testutil.EngineBinary(t), "exec", "-o", "json", "-f", "-")
	cmd.Env, cmd.Dir = s.env(t, fake), s.cwd
	cmd.Stdin = bytes.NewBufferString(stmt)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := testutil.Result{Stdout: out.String(), Stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return r
}
