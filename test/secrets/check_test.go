package secrets

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// controls: one pass, one fail (rows printed), one provider error whose
// body echoes the token.
const controls = testutil.GhostControl + `  - id: no-public
    title: No public repositories
    sql: SELECT name, visibility FROM github.repos.repos WHERE org = 'acme' AND NOT private
  - id: members-visible
    title: Members can be listed
    sql: ` + echoSQL + `
    expect: nonempty
`

// TestCheckNeverPrintsToken: every report format, the GitHub job summary,
// and the problems report of an invalid file.
func TestCheckNeverPrintsToken(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	var out outputs
	files := writeControls(t, controls)
	file, summary := files.Controls, files.Summary
	bad := filepath.Join(files.Dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("controls:\n  - id: x\n    sql: DROP TABLE y\n    bogus: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := env(t, fake, "GITHUB_STEP_SUMMARY="+summary)
	for _, format := range []string{"text", "json", "junit", "github"} {
		for _, debug := range []bool{false, true} {
			args := []string{"check", "-o", format, file}
			if debug {
				args = append([]string{"--debug"}, args...)
			}
			r := out.run("check "+format, testutil.Run(t, e, "", args...))
			if r.Code != 2 {
				t.Errorf("check -o %s: exit %d, want 2 (one control errors)", format, r.Code)
			}
			testutil.Contains(t, "check "+format, r.Stdout, "no-public", "members-visible")
			out.run("check problems "+format, testutil.Run(t, e, "", append(args[:len(args)-1], bad)...))
		}
	}
	if n := out.addDir(t, "summary", files.Dir); n < 3 {
		t.Errorf("expected the control files and the job summary, found %d files", n)
	}
	if _, err := os.Stat(summary); err != nil {
		t.Errorf("no job summary written: %v", err)
	}
	assertSent(t, fake)
	out.assertClean(t, 10_000)
}

// TestCheckRowsNeverPrintToken: an API that echoes the token in data (a
// repository description) fails a control; its offending rows are printed
// by every report format and the job summary, with the token scrubbed.
func TestCheckRowsNeverPrintToken(t *testing.T) {
	t.Parallel()
	fake := newFake(t)
	body := `[{"id": 7, "name": "leaky-repo", "full_name": "leaky/leaky-repo", "description": "deploy with ` + token + ` please"}]`
	fake.Inject(fakegithub.Fault{Path: "^/orgs/leaky/repos$", Kind: fakegithub.KindBody, Body: body})
	files := writeControls(t, "controls:\n  - id: leaky\n    sql: SELECT name, description AS d FROM github.repos.repos WHERE org = 'leaky'\n")
	var out outputs
	e := env(t, fake, "GITHUB_STEP_SUMMARY="+files.Summary)
	for _, format := range []string{"text", "json", "junit", "github"} {
		r := out.run("check "+format, testutil.Run(t, e, "", "check", "-o", format, files.Controls))
		if r.Code != 1 {
			t.Errorf("check -o %s: exit %d, want 1 (the control fails)\n%s", format, r.Code, r.Stderr)
		}
		testutil.Contains(t, "check "+format, r.Stdout, "leaky-repo", "deploy with [REDACTED] please")
	}
	out.addDir(t, "summary", files.Dir)
	testutil.Contains(t, "summary", out.items["summary "+files.Summary], "leaky-repo")
	assertSent(t, fake)
	out.assertClean(t, 2_000)
}
