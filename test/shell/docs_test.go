package shell

import (
	"flag"
	"regexp"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the README's engine shell transcript from this run")

// demoAddr is `make demo`'s address of the fake server (the Makefile's
// ADDR), which the README's transcript shows.
const demoAddr = "127.0.0.1:8099"

// readmeTranscript is the README's engine shell session: the first code
// block of its "## engine shell" section.
var readmeTranscript = regexp.MustCompile("(?s)(## engine shell\n.*?```\n)(.*?)(```\n)")

// variable are the parts of a transcript that differ between runs
// (durations, reset times), compared as patterns.
var variable = regexp.MustCompile(`\d+\.\d\d s\b|\d\d:\d\d(:\d\d)? UTC|in \d+ min`)

// progress is the shell's progress line, which the terminal erases
// before the result is printed.
var progress = regexp.MustCompile(`fetched \d+ pages?… \(Ctrl-C cancels\)`)

// TestReadmeShellTranscript: the README's engine shell session is what the
// shell prints for the statements it shows, typed on a terminal against
// the fake server as `make demo` starts it (no credentials, the
// governor and a fresh response cache as by default), durations and
// clock times aside. go test ./test/shell -run TestReadmeShellTranscript
// -update-readme rewrites the session from a run.
func TestReadmeShellTranscript(t *testing.T) {
	readme := testutil.RepoFile(t, "README.md")
	m := readmeTranscript.FindSubmatchIndex(readme)
	if m == nil {
		t.Fatal("README.md: no transcript in the \"## engine shell\" section")
	}
	doc := string(readme[m[4]:m[5]])

	// The statements typed: each "engine> " line and its "   ...> " lines.
	var statements [][]string
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, prompt):
			statements = append(statements, []string{strings.TrimPrefix(line, prompt)})
		case strings.HasPrefix(line, continuation):
			statements[len(statements)-1] = append(statements[len(statements)-1], strings.TrimPrefix(line, continuation))
		}
	}
	if len(statements) < 2 || statements[len(statements)-1][0] != ".quit" {
		t.Fatalf("README transcript: want statements ending with .quit, got %q", statements)
	}

	gh, env := fake(t, "ENGINE_GOVERNOR=on", "ENGINE_NO_CACHE=")
	sh := startShell(t, append(env, "ENGINE_CACHE_DIR="+t.TempDir()), "--auth", `{"github":{"type":"null_auth"}}`)
	var got strings.Builder
	got.WriteString(strings.TrimSuffix(sh.expect(ready, wait), ready) + "\n")
	for _, st := range statements {
		for i, line := range st {
			if i == 0 {
				got.WriteString(prompt + line + "\n")
			} else {
				got.WriteString(continuation + line + "\n")
			}
			sh.send(line + "\r")
			if i < len(st)-1 {
				sh.expect("\n"+continuation, wait) // a fresh prompt, not a repaint
			}
		}
		if st[0] == ".quit" {
			if code := sh.waitExit(wait); code != 0 {
				t.Fatalf(".quit: exit %d", code)
			}
			break
		}
		seg := sh.expect(ready, wait)
		// The segment is the typed line's echo, the line end, the output
		// and the next prompt.
		_, out, ok := strings.Cut(seg, "\n")
		if !ok {
			t.Fatalf("no line end after %q: %q", st, seg)
		}
		got.WriteString(progress.ReplaceAllString(strings.TrimSuffix(out, ready), "") + "\n")
	}
	run := strings.ReplaceAll(got.String(), strings.TrimPrefix(gh.URL(), "http://"), demoAddr)

	if *updateReadme {
		out := append(append(append([]byte{}, readme[:m[4]]...), run...), readme[m[5]:]...)
		testutil.WriteRepoFile(t, "README.md", out)
		return
	}
	if variable.ReplaceAllString(run, "…") != variable.ReplaceAllString(doc, "…") {
		t.Fatalf("the README's shell transcript is not what the shell prints (go test ./test/shell -run TestReadmeShellTranscript -update-readme rewrites it); a run printed:\n%s", run)
	}
}

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
	files := testutil.RepoDocs(t)
	_, env := fake(t)
	n := 0
	for _, f := range files {
		if f == "docs/orgscale.md" {
			continue
		}
		b := testutil.RepoFile(t, f)
		for i, m := range sqlBlock.FindAllSubmatch(b, -1) {
			block := string(m[1])
			n++
			r := testutil.Run(t, env, block, "shell", "-o", "csv", "--auth", `{"github":{"type":"null_auth"}}`)
			if r.Code != 0 || strings.Contains(r.Stderr, "error") {
				t.Errorf("%s, SQL block %d: exit %d\n%s\nstderr:\n%s", f, i+1, r.Code, block, r.Stderr)
			}
		}
	}
	if n == 0 {
		t.Fatal("no SQL example blocks found")
	}
}
