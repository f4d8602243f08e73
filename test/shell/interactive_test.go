package shell

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// fake starts a fake server and returns it with the binary's environment
// pointed at it, anonymously, with testutil.FastRetry so that injected
// faults surface at once.
func fake(t *testing.T, extra ...string) (*fakegithub.Server, []string) {
	t.Helper()
	gh := fakegithub.ForTest(t)
	return gh, testutil.FakeEnv(t, gh.URL(), extra...)
}

// fakeShell starts a fake server and a shell against it, at its prompt.
func fakeShell(t *testing.T, extra ...string) (*fakegithub.Server, *session) {
	t.Helper()
	gh, env := fake(t, extra...)
	sh := startShell(t, env)
	sh.expect(ready, wait)
	return gh, sh
}

func TestMultiLineQueryShowsTableAndFooter(t *testing.T) {
	gh, sh := fakeShell(t)
	sh.send("SELECT name, private, language\r")
	sh.expect(continuation, wait)
	sh.send("FROM github.repos.repos\r")
	sh.expect(continuation, wait)
	sh.send("WHERE org = 'tiny' ORDER BY name;\r")
	out := sh.expect("3 rows (1 HTTP request, 1 page, ", wait)
	testutil.Contains(t, "table", out,
		"| name  | private | language   |",
		"| alpha | false   | Go         |",
		"| beta  | true    | Python     |",
		"| gamma | true    | TypeScript |",
	)
	sh.expect(" s)", wait)
	sh.expect(ready, wait)
	if n := len(gh.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
	sh.send(ctrlD)
	if code := sh.waitExit(wait); code != 0 {
		t.Errorf("exit code after Ctrl-D = %d, want 0", code)
	}
}

func TestTabCompletesTableAndColumns(t *testing.T) {
	_, sh := fakeShell(t)
	sh.send("SELECT name FROM github.repos.repo\t")
	sh.expect("github.repos.repos", wait)
	// a column of the table named on the line: "visib" -> "visibility"
	sh.send(" WHERE org = 'tiny' AND visib\t")
	sh.expect("visibility", wait)
	sh.send(" = 'public';\r")
	out := sh.expect("1 row (", wait)
	if !strings.Contains(out, "| alpha |") {
		t.Errorf("completed statement did not run as typed:\n%s", out)
	}
	sh.expect(ready, wait)
	sh.send(".quit\r")
	if code := sh.waitExit(wait); code != 0 {
		t.Errorf("exit code after .quit = %d", code)
	}
}

func TestCtrlCClearsLineAtPrompt(t *testing.T) {
	_, sh := fakeShell(t)
	sh.send("SELECT name FROM github.repos.repos\r")
	sh.expect(continuation, wait)
	sh.send("WHERE org = ")
	sh.send(ctrlC)
	sh.expect("^C", wait)
	sh.expect(ready, wait) // back to the main prompt: the pending statement is gone
	sh.send("SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny';\r")
	out := sh.expect("1 row (", wait)
	if !strings.Contains(out, "| 3 |") {
		t.Errorf("query after Ctrl-C:\n%s", out)
	}
}

func TestCtrlCCancelsSlowQuery(t *testing.T) {
	gh := fakegithub.NewUnstarted()
	arrived := make(chan struct{}, 8)
	finished := make(chan time.Time, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/orgs/acme/repos" {
			arrived <- struct{}{}
			defer func() { finished <- time.Now() }()
		}
		gh.Handler().ServeHTTP(w, r)
	}))
	defer srv.Close()
	gh.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindSlow, Delay: time.Minute, Times: 1})

	sh := startShell(t, testutil.FakeEnv(t, srv.URL))
	sh.expect(ready, wait)
	sh.send("SELECT name FROM github.repos.repos WHERE org = 'acme';\r")
	select {
	case <-arrived:
	case <-time.After(wait):
		t.Fatal("the query's request never reached the server")
	}
	pressed := time.Now()
	sh.send(ctrlC)
	sh.expect("query cancelled", wait)
	sh.expect(ready, wait)
	back := time.Since(pressed)
	select {
	case end := <-finished:
		if d := end.Sub(pressed); d > 5*time.Second {
			t.Errorf("the slow request went on for %v after Ctrl-C", d)
		}
	case <-time.After(wait):
		t.Fatal("the slow request was not abandoned after Ctrl-C")
	}
	if back > 5*time.Second {
		t.Errorf("prompt came back %v after Ctrl-C", back)
	}
	t.Logf("prompt back %v after Ctrl-C", back)
	// the fault was used up: the next query works
	sh.send("SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme';\r")
	out := sh.expect("1 row (", wait)
	if !strings.Contains(out, "| 250 |") {
		t.Errorf("query after cancel:\n%s", out)
	}
	// progress went to the terminal and was erased before the table
	raw := sh.rawText()
	if !regexp.MustCompile(`fetched [1-3] pages?… \(Ctrl-C cancels\)\r\x1b\[K\+-----\+`).MatchString(raw) {
		t.Errorf("progress not shown and cleared before the result:\n%q", raw[max(0, len(raw)-400):])
	}
}

func TestRateLimitExplainedAndShellKeepsRunning(t *testing.T) {
	gh, sh := fakeShell(t)
	gh.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindRateLimit, RetryAfter: 1800})
	before := time.Now()
	sh.send("SELECT name FROM github.repos.repos WHERE org = 'acme';\r")
	out := sh.expect(ready, wait)
	after := time.Now()
	testutil.Contains(t, "error text", out, "error (provider):", "403", "provider github answered HTTP 403 (rate limit)", "retryable: rate limit: retry after ", "or set GITHUB_TOKEN")
	at1 := before.Add(1800 * time.Second).UTC().Format("15:04")
	at2 := after.Add(1800 * time.Second).UTC().Format("15:04")
	if !strings.Contains(out, "retry after "+at1+" UTC") && !strings.Contains(out, "retry after "+at2+" UTC") {
		t.Errorf("want retry after %s UTC:\n%s", at1, out)
	}
	gh.ClearFaults()
	sh.send("SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme';\r")
	out = sh.expect("1 row (", wait)
	if !strings.Contains(out, "| 250 |") {
		t.Errorf("query after the rate limit:\n%s", out)
	}
}

func TestRateLimitWithTokenDoesNotSuggestToken(t *testing.T) {
	const token = "ghp_secretvalue123456"
	gh, sh := fakeShell(t, "GITHUB_TOKEN="+token)
	gh.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindRateLimit, RetryAfter: 600})
	sh.send("SELECT name FROM github.repos.repos WHERE org = 'acme';\r")
	out := sh.expect(ready, wait)
	if !strings.Contains(out, "retry after ") || strings.Contains(out, "or set GITHUB_TOKEN") {
		t.Errorf("with a token the advice should not ask for one:\n%s", out)
	}
	if strings.Contains(sh.text(), token) {
		t.Error("the token appeared on the terminal")
	}
}

func TestHistorySurvivesRestart(t *testing.T) {
	gh, env := fake(t)
	var state string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			state = v
		}
	}
	const stmt = "SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name LIKE 'g%';"

	first := startShell(t, env)
	first.expect(ready, wait)
	first.send("SELECT name FROM github.repos.repos\r")
	first.expect(continuation, wait)
	first.send("WHERE org = 'tiny' AND name LIKE 'g%';\r")
	first.expect("1 row (", wait)
	first.expect(ready, wait)
	first.send(ctrlD)
	first.waitExit(wait)

	b := readPrivate(t, filepath.Join(state, "engine", "history"))
	if !strings.Contains(string(b), stmt+"\n") {
		t.Errorf("history file lacks the statement (joined on one line):\n%s", b)
	}

	gh.ResetRequests()
	second := startShell(t, env)
	second.expect(ready, wait)
	second.send(up)
	second.expect(stmt, wait)
	second.send("\r")
	out := second.expect("1 row (", wait)
	if !strings.Contains(out, "| gamma |") {
		t.Errorf("recalled statement:\n%s", out)
	}
}

func TestMetaCommandsInteractive(t *testing.T) {
	_, sh := fakeShell(t)
	sh.send(".help\r")
	sh.expect(".read FILE.sql", wait)
	sh.send(`\x` + "\r")
	sh.expect("Expanded display is on.", wait)
	sh.send("SELECT name, private FROM github.repos.repos WHERE org = 'tiny' AND name = 'beta';\r")
	out := sh.expect("1 row (", wait)
	if !strings.Contains(out, "   name = beta") || !strings.Contains(out, "private = true") {
		t.Errorf("expanded display:\n%s", out)
	}
	sh.send(`\x` + "\r")
	sh.expect("Expanded display is off.", wait)
	sh.send(".timer off\r")
	sh.expect(ready, wait)
	dir := t.TempDir()
	file := filepath.Join(dir, "out.csv")
	sh.send(".mode csv\r")
	sh.expect(ready, wait)
	sh.send(".output " + file + "\r")
	sh.expect(ready, wait)
	sh.send("SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name;\r")
	sh.expect("3 rows (1 HTTP request, 1 page)\n", wait)
	sh.send(".output\r")
	sh.expect(ready, wait)
	if b, _ := os.ReadFile(file); string(b) != "name\nalpha\nbeta\ngamma\n" {
		t.Errorf(".output file = %q", b)
	}
	sh.send(".mode nonsense\r")
	sh.expect("use one of table, json, csv, tsv, line", wait)
	sh.send("SHOW SERVICES IN github LIKE 'rep%';\r")
	sh.expect("repos", wait)
	sh.expect("(0 HTTP requests)", wait)
	sh.send("exit\r")
	if code := sh.waitExit(wait); code != 0 {
		t.Errorf("exit code = %d", code)
	}
}

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
	testutil.WantRun(t, "the printed command against the demo's fake", r, 0, "alpha", "")
	sh.send(ctrlD)
	if code := sh.waitExit(wait); code != 0 {
		t.Fatalf("demo exit %d", code)
	}
	if !stopped(addr) {
		t.Fatalf("the fake still listens on %s after the demo ended", addr)
	}
}
