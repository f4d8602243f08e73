package shell

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// hashRefused is the engine's error for a '#' comment.
const hashRefused = "'#' comments are not supported; use -- or /* */"

// TestScriptHashCommentRefused: '#' is no comment in the engine's SQL, so
// a script holding one stops there with the engine's own error (it used
// to swallow the ';' after '#' and fail on the next statement instead).
func TestScriptHashCommentRefused(t *testing.T) {
	for _, script := range []string{"SELECT 1 # hi;\nSELECT 2;\n", "SELECT 1 # it's;\nSELECT 2;\n", "# a note\nSELECT 1;\n"} {
		r := testutil.Run(t, testutil.Env(t), script, "shell", "-o", "csv")
		if r.Code != 1 || r.Stdout != "" || !strings.Contains(r.Stderr, hashRefused) || !strings.Contains(r.Stderr, "stopped at stdin line 1;") {
			t.Errorf("%q: exit %d\nstdout %q\nstderr %s", script, r.Code, r.Stdout, r.Stderr)
		}
	}
	// in quotes, in -- and /* */ comments it is text as ever
	r := testutil.Run(t, testutil.Env(t), "SELECT '#;' AS a; -- # ;\n/* # ; */ SELECT 2 AS b;\n", "shell", "-o", "csv")
	if r.Code != 0 || r.Stdout != "a\n#;\nb\n2\n" {
		t.Errorf("exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestScriptByteOrderMark: a script (stdin or a .read file) that begins
// with a byte-order mark runs as if it had none; a mark further on stops
// the script with an error that names it.
func TestScriptByteOrderMark(t *testing.T) {
	const bom = "\ufeff"
	r := testutil.Run(t, testutil.Env(t), bom+"SELECT 1 AS a;\n", "shell", "-o", "csv")
	if r.Code != 0 || r.Stdout != "a\n1\n" {
		t.Errorf("stdin with a BOM: exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	r = testutil.Run(t, testutil.Env(t), bom+".mode csv\nSELECT 1 AS a;\n", "shell")
	if r.Code != 0 || r.Stdout != "a\n1\n" {
		t.Errorf("stdin with a BOM before a meta command: exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	file := testutil.TempFile(t, "q.sql", bom+"SELECT 2 AS b;\n")
	r = testutil.Run(t, testutil.Env(t), ".read "+file+"\n", "shell", "-o", "csv")
	if r.Code != 0 || r.Stdout != "b\n2\n" {
		t.Errorf(".read of a file with a BOM: exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	// a second file's mark, as `cat a.sql b.sql | engine shell` leaves it
	r = testutil.Run(t, testutil.Env(t), bom+"SELECT 1 AS a;\n"+bom+"SELECT 2 AS b;\n", "shell", "-o", "csv")
	if r.Code != 1 || r.Stdout != "a\n1\n" || !strings.Contains(r.Stderr, "byte-order mark (U+FEFF") || !strings.Contains(r.Stderr, "stopped at stdin line 2;") {
		t.Errorf("a BOM on line 2: exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestScriptExitQuitHelp: exit, quit and help work in a script as they do
// at the prompt: exit and quit end it successfully (exit 0, later
// statements not run), help prints .help's text on stderr.
func TestScriptExitQuitHelp(t *testing.T) {
	for _, word := range []string{"exit", "quit", "QUIT;", "  exit ;"} {
		r := testutil.Run(t, testutil.Env(t), "SELECT 1 AS a;\n"+word+"\nSELECT nope;\n", "shell", "-o", "csv")
		if r.Code != 0 || r.Stdout != "a\n1\n" || strings.Contains(r.Stderr, "error") {
			t.Errorf("%q: exit %d\nstdout %q\nstderr %s", word, r.Code, r.Stdout, r.Stderr)
		}
	}
	r := testutil.Run(t, testutil.Env(t), "help\nSELECT 1 AS a;\n", "shell", "-o", "csv")
	if r.Code != 0 || r.Stdout != "a\n1\n" || !strings.Contains(r.Stderr, "Meta commands") {
		t.Errorf("help: exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	// a word inside a statement is the statement's
	r = testutil.Run(t, testutil.Env(t), "SELECT 1 AS\nquit;\n", "shell", "-o", "csv")
	if r.Code != 0 || r.Stdout != "quit\n1\n" {
		t.Errorf("quit as a column name: exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	// a backslash is itself, as SQLite reads it: 'x\' ends at its quote
	// and the ';' after it ends the statement (it used to open an escape
	// and wait for more input)
	r = testutil.Run(t, testutil.Env(t), "SELECT 'x\\' AS v;\nSELECT regexp_like('v1.2', '^v\\d+[.]\\d+$') AS ok;\n", "shell", "-o", "csv")
	if r.Code != 0 || r.Stdout != "v\nx\\\nok\n1\n" {
		t.Errorf("backslashes: exit %d\nstdout %q\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestScriptLineModeShowsNull: .mode line (and \x) show NULL as NULL, as
// the table does, not as an empty string.
func TestScriptLineModeShowsNull(t *testing.T) {
	r := testutil.Run(t, testutil.Env(t), ".mode line\nSELECT NULL AS n, '' AS e;\n.mode table\n\\x\nSELECT NULL AS n;\n", "shell")
	want := "n = NULL\ne = \nn = NULL\n"
	if r.Code != 0 || r.Stdout != want {
		t.Errorf("exit %d\nstdout %q\nwant   %q\nstderr %s", r.Code, r.Stdout, want, r.Stderr)
	}
}

// TestHashCommentDoesNotHang: at the prompt, a ';' after '#' ends the
// statement, which the engine refuses; the shell is back at its main
// prompt (it used to wait at "...>" for an end that never came).
func TestHashCommentDoesNotHang(t *testing.T) {
	_, sh := fakeShell(t)
	sh.send("SELECT 1 # c;\r")
	sh.expect(hashRefused, wait)
	sh.expect(ready, wait)
	sh.send("SELECT 7 AS n;\r")
	if out := sh.expect("1 row (", wait); !strings.Contains(out, "| 7 |") {
		t.Errorf("the next statement:\n%s", out)
	}
}

// TestWideTableSuggestsExpandedDisplay: a table that cannot be fitted to
// the terminal (every column at its narrowest and still wider) is
// followed by a note naming \x; in expanded display there is none.
func TestWideTableSuggestsExpandedDisplay(t *testing.T) {
	_, sh := fakeShell(t)
	sh.send("SELECT * FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 1;\r")
	out := sh.expect("1 row (", wait)
	testutil.Contains(t, "wide table", out, "note: the table is ", "characters wide, the terminal 120: \\x shows one \"column = value\" line per cell (or .mode line)")
	sh.expect(ready, wait)
	sh.send("SELECT name, private FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 1;\r")
	if out := sh.expect("1 row (", wait); strings.Contains(out, "note:") {
		t.Errorf("a narrow table has a note:\n%s", out)
	}
	sh.expect(ready, wait)
	sh.send("\\x\r")
	sh.expect(ready, wait)
	sh.send("SELECT * FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 1;\r")
	out = sh.expect("1 row (", wait)
	if strings.Contains(out, "note:") || !strings.Contains(out, "name = alpha") {
		t.Errorf("expanded display:\n%s", out)
	}
}

// TestTabCompletionAsDocumented: docs/shell.md's completion examples. A
// resource only one name starts with completes at once; of several, Tab
// lists them all (in order).
func TestTabCompletionAsDocumented(t *testing.T) {
	for _, c := range []struct {
		typed  string
		listed []string // what appears, in order
		absent string   // what does not
	}{
		{"github.repos.rea", []string{"github.repos.readme"}, "github.repos.repos"},
		{"github.repos.re", []string{"github.repos.readme", "github.repos.repos", "github.repos.repository_hash_algorithms", "github.repos.repository_rules"}, ""},
	} {
		_, sh := fakeShell(t)
		sh.send("SELECT * FROM " + c.typed + "\t")
		for _, w := range c.listed {
			sh.expect(w, wait)
		}
		if c.absent != "" {
			sh.send(" LIMIT 0;\r")
			sh.expect(ready, wait)
			if strings.Contains(sh.text(), c.absent) {
				t.Errorf("%s<Tab> offered %s:\n%s", c.typed, c.absent, sh.text())
			}
		}
	}
}

// TestExecWideTableSuggestsLineFormat: engine exec on a terminal notes a
// table it cannot fit, naming -o line; a table that fits has no note.
func TestExecWideTableSuggestsLineFormat(t *testing.T) {
	_, env := fake(t)
	for _, c := range []struct {
		sql  string
		note bool
	}{
		{"SELECT * FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 1", true},
		{"SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 1", false},
	} {
		cmd := exec.Command(testutil.EngineBinary(t), "exec", c.sql)
		cmd.Env = env
		sh := startPTY(t, cmd)
		if code := sh.waitExit(wait); code != 0 {
			t.Fatalf("%s: exit %d\n%s", c.sql, code, sh.text())
		}
		out := sh.text()
		if got := strings.Contains(out, "characters wide, the terminal 120: -o line prints one \"column = value\" line per cell, or name fewer columns"); got != c.note || !strings.Contains(out, "alpha") {
			t.Errorf("%s: note %v, want %v:\n%s", c.sql, got, c.note, out)
		}
	}
}

// TestScriptStopSignals: a script read by the shell stops on SIGTERM (a
// cancelled CI job) as on SIGINT: the statement running is cancelled and
// says so, and the statements after it do not run (before: SIGTERM
// killed the shell with no word, exit 143).
func TestScriptStopSignals(t *testing.T) {
	for _, sig := range testutil.StopSignals {
		t.Run(sig.String(), func(t *testing.T) {
			s, env := fake(t)
			s.Inject(fakegithub.Fault{Path: "/orgs/tiny/repos", Kind: fakegithub.KindSlow, Delay: time.Minute})
			p := testutil.StartWithInput(t, 50*time.Second, env, "SELECT name FROM github.repos.repos WHERE org = 'tiny';\nSELECT 'after' AS next;\n", "shell", "-o", "csv")
			for s.Arrived() == 0 {
				time.Sleep(10 * time.Millisecond) // until the request is in flight
			}
			p.Signal(sig)
			r, hung := p.Wait()
			if hung || r.Code != 1 || !strings.Contains(r.Stderr, "query cancelled") || strings.Contains(r.Stdout, "after") {
				t.Fatalf("%s: exit %d hung %t\nstdout %q\nstderr %q", sig, r.Code, hung, r.Stdout, r.Stderr)
			}
		})
	}
}
