package shell

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// sqlBlock is a fenced SQL example of the documentation.
var sqlBlock = regexp.MustCompile("(?s)```sql\n(.*?)```")

// TestDocSQLExamplesRun: every SQL example block of the README and of
// docs/*.md runs against the fake server as `make demo` starts it, each
// statement without an error (`engine shell` with the block on stdin
// stops at the first). The examples name the fake's organisations and
// repositories (acme, tiny; acme's repo-005 has workflow runs), so a
// reader who runs them in `make demo` sees rows. docs/orgscale.md's
// examples read a GitHub App's installations, which need App
// credentials: test/ratelimit runs them against its App fake.
func TestDocSQLExamplesRun(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testutil.RepoRoot(), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(testutil.RepoRoot(), "README.md")}, files...)
	gh := fakegithub.ForTest(t)
	env := testutil.FakeEnv(t, gh.URL())
	n := 0
	for _, f := range files {
		if filepath.Base(f) == "orgscale.md" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range sqlBlock.FindAllSubmatch(b, -1) {
			block := string(m[1])
			n++
			r := testutil.Run(t, env, block, "shell", "-o", "csv", "--auth", `{"github":{"type":"null_auth"}}`)
			if r.Code != 0 || strings.Contains(r.Stderr, "error") {
				t.Errorf("%s, SQL block %d: exit %d\n%s\nstderr:\n%s", filepath.Base(f), i+1, r.Code, block, r.Stderr)
			}
		}
	}
	if n == 0 {
		t.Fatal("no SQL example blocks found")
	}
}
