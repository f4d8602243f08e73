package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/test/fakegithub"
)

// These tests run whole command lines in-process (run with bufferIO),
// against the fake GitHub server on loopback; the end-to-end suites in
// test/ run the built binary.

var fake *fakegithub.Server

func TestMain(m *testing.M) {
	fake = fakegithub.New()
	code := m.Run()
	fake.Close()
	os.Exit(code)
}

const token = "ghp_INPROCESSTOKEN1234567890secret"

type ran struct {
	out, err string
	code     int
}

// engineRun runs args with stdin and the environment of the fake server
// plus extra (NAME=VALUE; later entries win).
func engineRun(t *testing.T, stdin string, extra []string, args ...string) ran {
	t.Helper()
	env := append([]string{
		"ENGINE_BASE_URL_GITHUB=" + fake.URL(),
		"GITHUB_TOKEN=" + token,
		"ENGINE_NO_CACHE=1",
		"ENGINE_GOVERNOR=off",
		"ENGINE_RETRY_MAX=0",
	}, extra...)
	x, out, errb := bufferIO(stdin, env...)
	code := run(x, args)
	r := ran{out: out.String(), err: errb.String(), code: code}
	if strings.Contains(r.out+r.err, token) {
		t.Fatalf("token leaked in the output of %v", args)
	}
	return r
}

func TestExecRowsInEveryFormat(t *testing.T) {
	q := `SELECT name, private FROM github.repos.repos WHERE org = 'tiny' ORDER BY name`
	r := engineRun(t, "", nil, "exec", "-o", "csv", q)
	if r.code != 0 || r.out != "name,private\nalpha,false\nbeta,true\ngamma,true\n" {
		t.Fatalf("exit %d\nstdout %q\nstderr %s", r.code, r.out, r.err)
	}
	for _, name := range formatNames() {
		r := engineRun(t, "", nil, "exec", "-o", name, q)
		if r.code != 0 || !strings.Contains(r.out, "alpha") || !strings.Contains(r.out, "gamma") {
			t.Fatalf("-o %s: exit %d\nstdout %q\nstderr %s", name, r.code, r.out, r.err)
		}
	}
	// The statement from stdin (-f -).
	r = engineRun(t, "SELECT 1 AS one", nil, "exec", "-o", "tsv", "-f", "-")
	if r.code != 0 || r.out != "one\n1\n" {
		t.Fatalf("-f -: exit %d %q %s", r.code, r.out, r.err)
	}
}

// TestExitCodes: 0 ok, 1 usage/SQL/plan, 2 provider; the JSON error body
// with -o json.
func TestExitCodes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"ok, no rows", []string{"exec", "SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name = 'none'"}, 0, ""},
		{"sql", []string{"exec", "SELEC 1"}, 1, "SQL error"},
		{"plan", []string{"exec", "SELECT title FROM github.pulls.pulls"}, 1, "repo"},
		{"provider", []string{"exec", "SELECT name FROM github.repos.repos WHERE org = 'no-such-org'"}, 2, "404"},
		{"no statement", []string{"exec"}, 1, "no statement"},
		{"two statements", []string{"exec", "SELECT 1", "SELECT 2"}, 1, "quote it"},
		{"bad format", []string{"exec", "-o", "yaml", "SELECT 1"}, 1, "use one of " + result.FormatNames(", ")},
		{"unknown flag", []string{"exec", "--nope", "SELECT 1"}, 1, "unknown flag: --nope"},
		{"unknown command", []string{"frobnicate"}, 1, `unknown command "frobnicate"`},
		{"shell bad mode", []string{"shell", "-o", "yaml"}, 1, "use one of"},
		{"mcp bad transport", []string{"mcp", "--transport", "pigeon"}, 1, `--transport "pigeon": use stdio or http`},
		{"check without a file", []string{"check"}, 2, "engine check takes control files, --pack NAME"},
		{"check unknown flag", []string{"check", "x.yaml", "--bogus"}, 2, "unknown flag: --bogus"},
		{"check bad flag value", []string{"check", "x.yaml", "--parallel", "abc"}, 2, "invalid argument"},
		{"check bad format", []string{"check", "x.yaml", "-o", "yaml"}, 2, "use one of text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := engineRun(t, "", nil, c.args...)
			if r.code != c.code || !strings.Contains(r.err, c.want) {
				t.Fatalf("exit %d, want %d; stderr %q should hold %q", r.code, c.code, r.err, c.want)
			}
		})
	}
	r := engineRun(t, "", nil, "exec", "-o", "json", "SELECT name FROM github.repos.repos WHERE org = 'no-such-org'")
	var body struct {
		Error struct {
			Kind       string `json:"kind"`
			HTTPStatus int    `json:"http_status"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.err), &body); err != nil || r.code != 2 || body.Error.Kind != "provider" || body.Error.HTTPStatus != 404 {
		t.Fatalf("exit %d, stderr %q (%v)", r.code, r.err, err)
	}
}

// TestExitCodeOfEveryKind: the one mapping of kinds to exit codes.
func TestExitCodeOfEveryKind(t *testing.T) {
	want := map[engine.Kind]int{
		engine.KindSQL: 1, engine.KindPlan: 1,
		engine.KindProvider: 2, engine.KindIncomplete: 2, engine.KindTimeout: 2, engine.KindCancelled: 2, engine.KindInternal: 2,
	}
	for k, code := range want {
		if got := exitCode(&engine.Error{Kind: k}); got != code {
			t.Errorf("kind %s: exit %d, want %d", k, got, code)
		}
	}
}

// TestEnvironment: flags come from envTable's variables; a malformed value
// is a usage error naming the variable; the command line wins.
func TestEnvironment(t *testing.T) {
	q := `EXPLAIN SELECT name FROM github.repos.repos WHERE org IN ('a','b','c','d','e','f')`
	if r := engineRun(t, "", []string{"ENGINE_MAX_REQUESTS=5"}, "exec", q); r.code != 1 || !strings.Contains(r.err, "limit of 5") {
		t.Fatalf("ENGINE_MAX_REQUESTS not applied: exit %d %s", r.code, r.err)
	}
	if r := engineRun(t, "", []string{"ENGINE_MAX_REQUESTS=5"}, "exec", "--max-requests", "10", q); r.code != 0 {
		t.Fatalf("the flag should win over the environment: exit %d %s", r.code, r.err)
	}
	for _, env := range []string{"ENGINE_MAX_PAGES=many", "ENGINE_QUERY_TIMEOUT=soon", "ENGINE_GOVERNOR=maybe"} {
		name, _, _ := strings.Cut(env, "=")
		r := engineRun(t, "", []string{env}, "exec", "SELECT 1")
		if r.code != 1 || !strings.Contains(r.err, name) || r.out != "" {
			t.Fatalf("%s: exit %d, stderr %q", env, r.code, r.err)
		}
	}
	// An empty value is unset (ENGINE_NO_CACHE= turns the cache back on).
	if r := engineRun(t, "", []string{"ENGINE_MAX_PAGES=", "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR=" + t.TempDir()}, "exec", "-o", "csv", "SELECT 1 AS x"); r.code != 0 || r.out != "x\n1\n" {
		t.Fatalf("exit %d %q %s", r.code, r.out, r.err)
	}
}

// TestConfigFile: flag > environment > config file > default.
func TestConfigFile(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, []byte("max-requests: 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	q := `EXPLAIN SELECT name FROM github.repos.repos WHERE org IN ('a','b','c','d','e','f')`
	if r := engineRun(t, "", []string{"ENGINE_CONFIG=" + cfg}, "exec", q); r.code != 1 || !strings.Contains(r.err, "limit of 5") {
		t.Fatalf("config not applied: exit %d %s", r.code, r.err)
	}
	if r := engineRun(t, "", []string{"ENGINE_CONFIG=" + cfg, "ENGINE_MAX_REQUESTS=10"}, "exec", q); r.code != 0 {
		t.Fatalf("the environment should win over the config file: exit %d %s", r.code, r.err)
	}
	if r := engineRun(t, "", nil, "--config", filepath.Join(t.TempDir(), "missing.yaml"), "exec", "SELECT 1"); r.code != 1 || !strings.Contains(r.err, "missing.yaml") {
		t.Fatalf("a named config file that is missing: exit %d %s", r.code, r.err)
	}
}

// TestSettingsFlagsExist: every settings entry names a flag of its
// command (documentEnv panics otherwise), help shows the variable, and a
// numeric setting is a flag of a number.
func TestSettingsFlagsExist(t *testing.T) {
	x, _, _ := bufferIO("")
	root := newRootCmd(&globalFlags{io: x})
	for _, v := range settings {
		f := envFlag(root, v)
		if f == nil || (v.env != "" && !strings.HasSuffix(f.Usage, "(env "+v.env+")")) {
			t.Fatalf("%+v: flag %v", v, f)
		}
		if v.numeric && !strings.HasPrefix(f.Value.Type(), "int") {
			t.Fatalf("--%s is numeric in settings but a %s flag", v.flag, f.Value.Type())
		}
		if v.positive && f.Value.Type() != "duration" {
			t.Fatalf("--%s is a positive duration in settings but a %s flag", v.flag, f.Value.Type())
		}
	}
}

// TestHelp: help text lists the registered formats and the environment
// variables, and goes to the IO's stdout.
func TestHelp(t *testing.T) {
	r := engineRun(t, "", nil, "exec", "--help")
	if r.code != 0 || !strings.Contains(r.out, "exec [-o "+result.FormatNames("|")+`] "SQL" | -f FILE`) || !strings.Contains(r.out, "(env ENGINE_MAX_PAGES)") {
		t.Fatalf("exit %d\n%s", r.code, r.out)
	}
	for _, name := range formatNames() {
		f, err := result.LookupFormat(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.out, f.Name+" ("+f.Description+")") {
			t.Fatalf("exec --help does not describe %s:\n%s", f.Name, r.out)
		}
	}
	r = engineRun(t, "", nil, "mcp", "--help")
	if r.code != 0 || !strings.Contains(r.out, "(env ENGINE_MCP_MAX_ROWS)") {
		t.Fatalf("exit %d\n%s", r.code, r.out)
	}
	r = engineRun(t, "", nil, "--help")
	for _, c := range []string{"exec", "shell", "mcp", "check", "registry"} {
		if !strings.Contains(r.out, "\n  "+c+" ") {
			t.Fatalf("engine --help does not list %s:\n%s", c, r.out)
		}
	}
}

// TestSubcommandsAreExplicit: the tree is built from newRootCmd alone,
// once per run, so two runs in one process do not share flags.
func TestSubcommandsAreExplicit(t *testing.T) {
	x, _, _ := bufferIO("")
	names := func(c *cobra.Command) []string {
		var out []string
		for _, s := range c.Commands() {
			out = append(out, s.Name())
		}
		return out
	}
	a := names(newRootCmd(&globalFlags{io: x}))
	b := names(newRootCmd(&globalFlags{io: x}))
	if strings.Join(a, ",") != strings.Join(b, ",") || len(a) < 5 {
		t.Fatalf("%v %v", a, b)
	}
	if r := engineRun(t, "", nil, "exec", "--max-requests", "1", "SELECT 1"); r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.err)
	}
	q := `EXPLAIN SELECT name FROM github.repos.repos WHERE org IN ('a','b')`
	if r := engineRun(t, "", nil, "exec", q); r.code != 0 {
		t.Fatalf("a flag of an earlier run leaked into this one: exit %d %s", r.code, r.err)
	}
}

// TestShellScript: the shell runs stdin's statements and meta commands,
// stops at the first error (exit 1), and .mode takes every format.
func TestShellScript(t *testing.T) {
	r := engineRun(t, ".mode csv\nSELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 1;\n", nil, "shell")
	if r.code != 0 || r.out != "name\nalpha\n" || !strings.Contains(r.err, "1 row") {
		t.Fatalf("exit %d\nstdout %q\nstderr %s", r.code, r.out, r.err)
	}
	for _, name := range formatNames() {
		r := engineRun(t, ".mode "+strings.ToUpper(name)+"\n.mode\n", nil, "shell")
		if r.code != 0 || !strings.Contains(r.err, "mode: "+name) {
			t.Fatalf(".mode %s: exit %d %s", name, r.code, r.err)
		}
	}
	r = engineRun(t, "SELECT 1;\nSELEC 2;\nSELECT 3;\n", nil, "shell", "-o", "tsv")
	if r.code != 1 || r.out != "1\n1\n" || !strings.Contains(r.err, "stopped at stdin line 2") {
		t.Fatalf("exit %d\nstdout %q\nstderr %s", r.code, r.out, r.err)
	}
}

// TestCheck: a control file runs against the fake server; its defaults
// (base_url) are merged into the one engine.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "controls.yaml")
	body := "defaults:\n  base_url:\n    github: " + fake.URL() + "\ncontrols:\n" +
		"  - id: tiny-has-no-repo-named-nope\n    sql: SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name = 'nope'\n" +
		"  - id: tiny-has-no-private-repos\n    sql: SELECT name FROM github.repos.repos WHERE org = 'tiny' AND private\n"
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	r := engineRun(t, "", []string{"ENGINE_BASE_URL_GITHUB="}, "check", file, "-o", "json")
	if r.code != 1 || !strings.Contains(r.out, `"tiny-has-no-private-repos"`) || !strings.Contains(r.out, `"beta"`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.out, r.err)
	}
	r = engineRun(t, "", []string{"ENGINE_BASE_URL_GITHUB="}, "check", file, "--only", "tiny-has-no-repo-named-nope")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.out, r.err)
	}
}

// formatNames lists the registered output formats, as the help text does.
func formatNames() []string { return strings.Split(result.FormatNames("|"), "|") }
