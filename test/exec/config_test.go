package exec_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestConfigFile: settings come from the config file unless the
// environment or the command line gives them (flag > env > file).
func TestConfigFile(t *testing.T) {
	cfg := testutil.TempFile(t, "config.yaml", "max-requests: 5\nmcp_max_rows: 3\n")
	q := `EXPLAIN SELECT name FROM github.repos.repos WHERE org IN ('a','b','c','d','e','f')`

	r := testutil.Run(t, execEnv(t, "ENGINE_CONFIG="+cfg), "", "exec", q)
	if r.Code != 1 || !strings.Contains(r.Stderr, "limit of 5") {
		t.Fatalf("config file not applied: %d %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t, "ENGINE_CONFIG="+cfg, "ENGINE_MAX_REQUESTS=10"), "", "exec", q)
	if r.Code != 0 {
		t.Fatalf("environment should win over the config file: %d %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t, "ENGINE_CONFIG="+cfg), "", "exec", "--max-requests", "10", q)
	if r.Code != 0 {
		t.Fatalf("the flag should win over the config file: %d %s", r.Code, r.Stderr)
	}
	bad := testutil.TempFile(t, "bad.yaml", "max-reqests: 5\n")
	r = testutil.Run(t, execEnv(t), "", "--config", bad, "exec", q)
	if r.Code != 1 || !strings.Contains(r.Stderr, "unknown settings max-reqests") {
		t.Fatalf("a misspelt setting must be an error: %d %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t), "", "--config", filepath.Join(t.TempDir(), "missing.yaml"), "exec", q)
	if r.Code != 1 || !strings.Contains(r.Stderr, "missing.yaml") {
		t.Fatalf("a named config file that is missing must be an error: %d %s", r.Code, r.Stderr)
	}
	// an MCP cap's name sets engine mcp's cap only: check's --max-rows
	// (rows shown per failed control) keeps its own (before: -1 stopped
	// every check run, 3 cut its report)
	ctl := testutil.TempFile(t, "c.yaml", "controls:\n  - id: many\n    sql: SELECT name FROM github.repos.repos WHERE org = 'acme'\n")
	for _, cap := range []string{"-1", "3"} {
		mcpCfg := testutil.TempFile(t, "mcp.yaml", "mcp_max_rows: "+cap+"\n")
		r = testutil.Run(t, execEnv(t), "", "--config", mcpCfg, "check", ctl, "-o", "json")
		var rep struct {
			Controls []struct{ Rows []any } `json:"controls"`
		}
		testutil.StdoutJSON(t, r, &rep)
		if r.Code != 1 || len(rep.Controls) != 1 || len(rep.Controls[0].Rows) != 20 {
			t.Errorf("check with mcp_max_rows: %s: exit %d, want 1 and the default 20 rows shown\n%.500s%s", cap, r.Code, r.Stdout, r.Stderr)
		}
	}
	// two keys for one flag of the command: an error, not a coin toss
	both := testutil.TempFile(t, "both.yaml", "mcp_max_rows: 2\nmax-rows: 3\n")
	r = testutil.Run(t, execEnv(t), "", "--config", both, "mcp")
	if r.Code != 1 || !strings.Contains(r.Stderr, "max-rows and mcp_max_rows both set --max-rows of engine mcp") {
		t.Errorf("mcp with two keys for --max-rows: exit %d\n%s", r.Code, r.Stderr)
	}
}

// TestConfigAuthMapping: in the config file, auth may be a YAML mapping
// of the --auth JSON's shape (the natural way to write it in YAML), with
// the same meaning as the JSON string, which still works. An error in a
// value from the file names the file and the key, never the flag the
// user did not write (README, "Configuration").
func TestConfigAuthMapping(t *testing.T) {
	s := fakegithub.ForTest(t)
	write := func(name, body string) string { return testutil.TempFile(t, name, body) }
	q := "SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name"
	env := testutil.FakeEnv(t, s.URL(), "MY_TOKEN=config-file-token")
	for _, cfg := range []string{
		"auth:\n  github:\n    type: bearer\n    credentialsenvvar: MY_TOKEN\n",
		"auth: {github: {type: bearer, credentialsenvvar: MY_TOKEN}}\n",
		`auth: '{"github":{"type":"bearer","credentialsenvvar":"MY_TOKEN"}}'` + "\n",
	} {
		s.ResetRequests()
		r := testutil.Run(t, env, "", "--config", write("auth.yaml", cfg), "exec", "-o", "csv", q)
		if r.Code != 0 || r.Stdout != "name\nalpha\nbeta\ngamma\n" {
			t.Fatalf("config %q: exit %d\n%s%s", cfg, r.Code, r.Stdout, r.Stderr)
		}
		reqs := s.Requests()
		if len(reqs) == 0 || reqs[len(reqs)-1].AuthHeader != "Bearer config-file-token" {
			t.Fatalf("config %q: the config's credentials were not sent: %+v", cfg, reqs)
		}
	}

	for _, c := range []struct{ name, cfg, want string }{
		{"bearer without variable", "auth:\n  github:\n    type: bearer\n", `auth github: type "bearer" needs credentialsenvvar`},
		{"unknown field", "auth:\n  github:\n    tpye: bearer\n", `auth: json: unknown field "tpye"`},
		{"a list", "auth: [github]\n", "auth: a list; write a mapping keyed by provider name"},
		{"bad JSON string", "auth: '{github'\n", "auth: invalid character"},
		{"bad base-url", "base-url: [nope]\n", `base-url "nope": expected NAME=URL`},
		{"bad provider", "provider: [nope]\n", `provider: "nope": expected NAME=PATH`},
		{"bad number", "max-requests: lots\n", `max-requests: "lots" is not valid`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := write("bad.yaml", c.cfg)
			r := testutil.Run(t, env, "", "--config", p, "exec", q)
			if r.Code != 1 || !strings.Contains(r.Stderr, "config "+p+": "+c.want) {
				t.Fatalf("exit %d, want 1 and %q:\n%s", r.Code, "config "+p+": "+c.want, r.Stderr)
			}
			if strings.Contains(r.Stderr, "--auth") || strings.Contains(r.Stderr, "--provider \"") || strings.Contains(r.Stderr, "--max-requests") ||
				strings.Contains(r.Stderr, "--base-url \"") || strings.Contains(r.Stderr, "flag") {
				t.Fatalf("the error blames a flag the user did not give:\n%s", r.Stderr)
			}
		})
	}

	// On the command line the flag is named, as before.
	r := testutil.Run(t, env, "", "exec", "--auth", `{"github":{"type":"bearer"}}`, q)
	testutil.WantRun(t, "exec", r, 1, "", `--auth github: type "bearer" needs credentialsenvvar`)
}
