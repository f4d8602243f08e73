package shell

import (
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/testutil"
)

// demoRun prepares scripts/demo.sh (make demo) for a test: the fake
// GitHub server built once into a temporary directory (FAKEGITHUB), the
// engine binary under test, and a free loopback address.
func demoRun(t *testing.T) (cmd func(stdin string) *exec.Cmd, addr string) {
	t.Helper()
	fake := filepath.Join(t.TempDir(), "fakegithub")
	build := exec.Command("go", "build", "-o", fake, "./test/fakegithub/cmd/fakegithub")
	build.Dir = testutil.RepoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build fakegithub: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = ln.Addr().String()
	ln.Close()
	env := testutil.Env(t, "FAKEGITHUB="+fake)
	return func(stdin string) *exec.Cmd {
		c := exec.Command("bash", filepath.Join("scripts", "demo.sh"), addr, testutil.EngineBinary(t))
		c.Dir = testutil.RepoRoot()
		c.Env = env
		if stdin != "" {
			c.Stdin = strings.NewReader(stdin)
		}
		return c
	}, addr
}

// stopped reports whether nothing listens on addr any more.
func stopped(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		c.Close()
	}
	return err != nil
}

// TestDemoRunsPipedStatements: `echo "SELECT ...;" | make demo` runs the
// statements on stdin against the fake (not the tour) and stops, with
// the shell's exit code (1 at the first error); the fake stops with it.
func TestDemoRunsPipedStatements(t *testing.T) {
	demo, addr := demoRun(t)
	out, err := demo("SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name;\n").Output()
	if err != nil {
		t.Fatalf("demo with piped SQL: %v\n%s", err, out)
	}
	want := "+-------+\n| name  |\n+-------+\n| alpha |\n| beta  |\n| gamma |\n+-------+\n"
	if string(out) != want {
		t.Fatalf("stdout %q, want the piped statement's rows only, %q", out, want)
	}
	if !stopped(addr) {
		t.Fatalf("the fake still listens on %s after the demo ended", addr)
	}
	c := demo("SELECT name FROM github.repos.repos WHERE org = 'acmee';\nSELECT 1;\n")
	out, err = c.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "404 Not Found") {
		t.Fatalf("a failing piped statement: %v\n%s", err, out)
	}
}

// TestDemoPrintsHowToReuseTheFake: on a terminal, make demo runs its tour,
// then prints the variable and the commands that use the same fake from
// another terminal, and opens the shell; the printed commands work while
// the shell is open, and the fake stops when the shell is left.
func TestDemoPrintsHowToReuseTheFake(t *testing.T) {
	demo, addr := demoRun(t)
	sh := startPTY(t, demo(""))
	out := sh.expect("Ctrl-D to quit."+ready, 2*wait) // the shell's banner and prompt, after the tour
	for _, want := range []string{"fake GitHub on http://" + addr, "engine> SHOW SERVICES IN github", "| acme-dev-01 |", "from another terminal",
		"export ENGINE_BASE_URL_GITHUB=http://" + addr} {
		if !strings.Contains(out, want) {
			t.Fatalf("the demo's output lacks %q:\n%s", want, out)
		}
	}
	m := regexp.MustCompile(`(?m)^\s+(\S+) exec --auth '([^']+)' "([^"]+)"$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no exec command to reuse the fake in:\n%s", out)
	}
	// Another terminal: the printed variable and command.
	r := testutil.Run(t, testutil.Env(t, "ENGINE_BASE_URL_GITHUB=http://"+addr), "", "exec", "--auth", m[2], "-o", "csv", m[3])
	if r.Code != 0 || !strings.Contains(r.Stdout, "alpha") {
		t.Fatalf("the printed command against the demo's fake: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	sh.send(ctrlD)
	if code := sh.waitExit(wait); code != 0 {
		t.Fatalf("demo exit %d", code)
	}
	if !stopped(addr) {
		t.Fatalf("the fake still listens on %s after the demo ended", addr)
	}
}
