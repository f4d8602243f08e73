package exec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestBooleanVariables: every boolean variable and config key takes
// true/false, 1/0, on/off, yes/no in any case, and refuses anything else
// naming the setting and the accepted values (README, "Configuration").
// ENGINE_DEBUG=false must not turn debug output on.
func TestBooleanVariables(t *testing.T) {
	q := "SELECT name FROM github.repos.repos WHERE org = 'tiny'"
	for _, v := range []string{"false", "FALSE", "0", "off", "No"} {
		r := testutil.Run(t, execEnv(t, "ENGINE_DEBUG="+v), "", "exec", q)
		if r.Code != 0 || strings.Contains(r.Stderr, "debug:") {
			t.Errorf("ENGINE_DEBUG=%s: exit %d, debug output on:\n%s", v, r.Code, r.Stderr)
		}
	}
	for _, v := range []string{"true", "1", "ON", "yes"} {
		r := testutil.Run(t, execEnv(t, "ENGINE_DEBUG="+v), "", "exec", q)
		if r.Code != 0 || !strings.Contains(r.Stderr, "debug:") {
			t.Errorf("ENGINE_DEBUG=%s: exit %d, no debug output:\n%s", v, r.Code, r.Stderr)
		}
	}
	for _, name := range []string{"ENGINE_DEBUG", "ENGINE_NO_CACHE", "ENGINE_GOVERNOR"} {
		r := testutil.Run(t, execEnv(t, name+"=maybe"), "", "exec", q)
		testutil.Contains(t, name+"=maybe", r.Stderr, name+`="maybe"`, "true/false, 1/0, on/off or yes/no")
		if r.Code != 1 {
			t.Errorf("%s=maybe: exit %d, want 1", name, r.Code)
		}
	}
	cfg := testutil.TempFile(t, "config.yaml", "debug: Off\n")
	if r := testutil.Run(t, execEnv(t), "", "--config", cfg, "exec", q); r.Code != 0 || strings.Contains(r.Stderr, "debug:") {
		t.Errorf("config debug: Off: exit %d\n%s", r.Code, r.Stderr)
	}
	cfg = testutil.TempFile(t, "config.yaml", "debug: maybe\n")
	r := testutil.Run(t, execEnv(t), "", "--config", cfg, "exec", q)
	testutil.Contains(t, "config debug: maybe", r.Stderr, "debug", `"maybe" is not a boolean`, "true/false, 1/0, on/off or yes/no")
	if r.Code != 1 {
		t.Errorf("config debug: maybe: exit %d, want 1", r.Code)
	}
}

// TestBoundsOneRule: every numeric bound follows one rule, from a flag,
// its variable or the config file alike: a positive number, -1 for no
// bound where the help says so, 0 and other negatives refused before any
// request, naming the setting (README, "Configuration").
func TestBoundsOneRule(t *testing.T) {
	q := "SELECT name FROM github.repos.repos WHERE org = 'tiny'"
	for _, c := range []struct {
		env  []string
		args []string
		want []string
	}{
		{nil, []string{"--max-requests", "0"}, []string{"--max-requests 0: give a positive number or -1 (no bound)"}},
		{nil, []string{"--max-concurrency", "0"}, []string{"--max-concurrency 0: give a positive number or -1 (no bound)"}},
		{nil, []string{"--max-requests", "-5"}, []string{"--max-requests -5: give a positive number or -1 (no bound)"}},
		{nil, []string{"--max-pages", "0"}, []string{"--max-pages 0: give a positive number or -1 (no bound)"}},
		{[]string{"ENGINE_MAX_PAGES=-2"}, nil, []string{"ENGINE_MAX_PAGES=-2: give a positive number or -1 (no bound)"}},
		{nil, []string{"--concurrency", "-3"}, []string{"--concurrency -3: give a positive number or 0 (as many as --max-concurrency)"}},
		{[]string{"ENGINE_RETRY_MAX=-1"}, nil, []string{"ENGINE_RETRY_MAX=-1: give a positive number or 0 (no retry)"}},
		{nil, []string{"--max-body-bytes", "0"}, []string{"--max-body-bytes 0: give a positive number"}},
		{nil, []string{"--query-timeout", "-1s"}, []string{"--query-timeout -1s: a duration is 0 or more"}},
		{[]string{"ENGINE_REQUEST_TIMEOUT=0"}, nil, []string{"ENGINE_REQUEST_TIMEOUT=0s: give a positive duration"}},
	} {
		r := testutil.Run(t, execEnv(t, c.env...), "", append(append([]string{"exec"}, c.args...), q)...)
		testutil.Contains(t, strings.Join(append(c.env, c.args...), " "), r.Stderr, c.want...)
		if r.Code != 1 || r.Stdout != "" {
			t.Errorf("%v %v: exit %d, stdout %q", c.env, c.args, r.Code, r.Stdout)
		}
	}
	cfg := testutil.TempFile(t, "config.yaml", "max-requests: 0\n")
	r := testutil.Run(t, execEnv(t), "", "--config", cfg, "exec", q)
	testutil.Contains(t, "config max-requests: 0", r.Stderr, "max-requests: 0: give a positive number or -1 (no bound)")
	if r.Code != 1 {
		t.Errorf("config max-requests: 0: exit %d", r.Code)
	}

	// -1 lifts each liftable bound; 0 is a choice where the help says so.
	fake.ResetRequests()
	r = testutil.Run(t, execEnv(t), "", "exec", "-o", "csv", "--max-requests", "-1", "--max-pages", "-1", "--max-concurrency", "-1", "--concurrency", "0", "--retry-max", "0", q)
	testutil.WantRun(t, "-1 bounds", r, 0, "name\n", "")

	// check's --max-rows: the same rule.
	controls := testutil.TempFile(t, "c.yaml", "controls:\n  - id: c1\n    title: t\n    sql: SELECT name FROM github.repos.repos WHERE org = 'tiny'\n")
	for _, v := range []string{"0", "-1"} {
		r = testutil.Run(t, execEnv(t), "", "check", "--max-rows", v, controls)
		testutil.Contains(t, "check --max-rows "+v, r.Stderr, "--max-rows "+v+": give a positive number")
		if r.Code == 0 {
			t.Errorf("check --max-rows %s: exit 0", v)
		}
	}
}

// TestConfigUnknownKeyNearest: an unknown config key names the nearest
// setting, written as the key was (underscores or dashes).
func TestConfigUnknownKeyNearest(t *testing.T) {
	cfg := testutil.TempFile(t, "config.yaml", "mcp_max_rowz: 3\nmax-reqests: 5\nzzzzzzzz: 1\n")
	r := testutil.Run(t, execEnv(t), "", "--config", cfg, "exec", "SELECT 1")
	testutil.Contains(t, "unknown keys", r.Stderr, "mcp_max_rowz (did you mean mcp_max_rows?)", "max-reqests (did you mean max-requests?)", "zzzzzzzz;")
	if r.Code != 1 {
		t.Errorf("exit %d", r.Code)
	}
}

// TestJSONUsageErrors: with -o json every error of exec is the error
// object on stderr (README, "Output"), usage mistakes and bad settings
// included; without it they stay plain words.
func TestJSONUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"exec", "-o", "json", "SELECT 1", "extra"},
		{"exec", "-o", "json"},
		{"exec", "--output=json", "--bogus", "SELECT 1"},
		{"exec", "-ojson", "--max-requests", "0", "SELECT 1"},
		{"exec", "-o", "json", "-f", "/nonexistent/q.sql"},
	} {
		r := testutil.Run(t, execEnv(t), "", args...)
		var body struct {
			Error struct {
				Message string `json:"message"`
				Kind    string `json:"kind"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(r.Stderr), &body); err != nil || body.Error.Kind != "usage" || body.Error.Message == "" || r.Code != 1 || r.Stdout != "" {
			t.Errorf("%v: exit %d, stderr not a usage error object (%v):\n%s", args, r.Code, err, r.Stderr)
		}
	}
	r := testutil.Run(t, execEnv(t), "", "exec", "SELECT 1", "extra")
	if r.Code != 1 || !strings.HasPrefix(r.Stderr, "error: expected one statement") {
		t.Errorf("plain usage error: exit %d %q", r.Code, r.Stderr)
	}
}

// TestExplicitFilesCheckedAtStart: a provider document or profile, or a
// GitHub App key file, given explicitly but missing, is said at start,
// even by a statement that never reaches the provider (exit 1, naming
// the setting), not by the first statement that does.
func TestExplicitFilesCheckedAtStart(t *testing.T) {
	dir := t.TempDir()
	missing := dir + "/missing.json"
	for _, c := range []struct {
		env  []string
		args []string
		want []string
	}{
		{nil, []string{"--provider", "foo=" + missing}, []string{"error (plan): provider foo: the document " + missing + " cannot be read: no such file or directory", "--provider foo=PATH[,profile=FILE]"}},
		{nil, []string{"--provider", "foo=" + dir}, []string{"is a directory"}},
		{nil, []string{"--auth", `{"github":{"type":"app","app_id":1,"installation_id":2,"private_key_path":"` + dir + `/app.pem"}}`}, []string{"--auth github", "GitHub App private key", "app.pem: no such file or directory"}},
		{[]string{"GITHUB_APP_ID=1", "GITHUB_APP_INSTALLATION_ID=2", "GITHUB_APP_PRIVATE_KEY_PATH=" + dir + "/app.pem"}, nil, []string{"provider github (from GITHUB_APP_ID, GITHUB_APP_INSTALLATION_ID, GITHUB_APP_PRIVATE_KEY_PATH)", "app.pem: no such file or directory"}},
	} {
		r := testutil.Run(t, execEnv(t, c.env...), "", append(c.args, "exec", "SELECT 1")...)
		testutil.Contains(t, strings.Join(append(c.env, c.args...), " "), r.Stderr, c.want...)
		if r.Code != 1 || r.Stdout != "" {
			t.Errorf("%v %v: exit %d, stdout %q", c.env, c.args, r.Code, r.Stdout)
		}
	}
	fake.ResetRequests()
	if r := testutil.Run(t, execEnv(t), "", "--provider", "foo="+missing, "exec", "SELECT name FROM github.repos.repos WHERE org = 'tiny'"); r.Code != 1 || len(fake.Requests()) != 0 {
		t.Errorf("a statement ran with a missing --provider document: exit %d, %d requests", r.Code, len(fake.Requests()))
	}
}
