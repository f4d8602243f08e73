package exec_test

import (
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestMarkdownOutput: -o markdown is a GitHub-flavoured table (the format
// registry's worked example: one file in engine/result); | in a value is
// escaped, a newline shows as \n, numbers align right.
func TestMarkdownOutput(t *testing.T) {
	r := run(t, "-o", "markdown", `SELECT name, stargazers_count AS stars, 'a|b' || char(10) || 'c' AS note FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 2`)
	want := "| name | stars | note |\n| --- | ---: | --- |\n| alpha | 0 | a\\|b\\nc |\n| beta | 37 | a\\|b\\nc |\n"
	if r.Code != 0 || r.Stdout != want {
		t.Fatalf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr: %s", r.Code, r.Stdout, want, r.Stderr)
	}
}

// TestMalformedEnvironmentIsAUsageError: a variable of the flag table
// whose value does not parse stops the command with exit 1 and names the
// variable (it used to be ignored silently, leaving the default).
func TestMalformedEnvironmentIsAUsageError(t *testing.T) {
	for _, kv := range []string{"ENGINE_MAX_PAGES=many", "ENGINE_REQUEST_TIMEOUT=soon", "ENGINE_GOVERNOR=perhaps", "ENGINE_MCP_MAX_ROWS=lots"} {
		name, _, _ := strings.Cut(kv, "=")
		args := []string{"exec", "SELECT 1"}
		if strings.HasPrefix(name, "ENGINE_MCP_") {
			args = []string{"mcp"}
		}
		r := testutil.Run(t, execEnv(t, kv), "", args...)
		if r.Code != 1 || !strings.Contains(r.Stderr, name) || !strings.Contains(r.Stderr, "fix or unset it") && !strings.Contains(r.Stderr, "on/off or yes/no (or unset it)") {
			t.Fatalf("%s: exit %d\nstdout %s\nstderr %s", kv, r.Code, r.Stdout, r.Stderr)
		}
	}
}

// TestHelpNamesTheEnvironment: every flag with an environment variable
// says which, and the output formats are listed from the registry.
func TestHelpNamesTheEnvironment(t *testing.T) {
	r := testutil.Run(t, execEnv(t), "", "exec", "--help")
	for _, want := range []string{"(env ENGINE_MAX_PAGES)", "(env ENGINE_CONCURRENCY)", "(env ENGINE_NO_CACHE)", "(env ENGINE_CONFIG)",
		"table|json|csv|tsv|line|markdown", "markdown (a GitHub-flavoured Markdown table)"} {
		if r.Code != 0 || !strings.Contains(r.Stdout, want) {
			t.Fatalf("exec --help lacks %q: exit %d\n%s", want, r.Code, r.Stdout)
		}
	}
	r = testutil.Run(t, execEnv(t), "", "check", "--help")
	testutil.WantRun(t, "check --help", r, 0, "(env ENGINE_ALLOW_FILE_CREDENTIALS)", "")
}

// TestStopSignals: SIGTERM (what CI runners and container stops send)
// cancels a running statement as SIGINT does: "query cancelled" on
// stderr, exit 2 (docs/architecture.md, "Exit codes").
func TestStopSignals(t *testing.T) {
	for _, sig := range testutil.StopSignals {
		t.Run(sig.String(), func(t *testing.T) {
			s := fakegithub.ForTest(t)
			s.Inject(fakegithub.Fault{Path: "/orgs/tiny/repos", Kind: fakegithub.KindSlow, Delay: time.Minute})
			// Stopped while the request is in flight.
			r := testutil.SignalInFlight(t, sig, execEnvOn(t, s), func() bool { return s.Arrived() > 0 }, "exec", "SELECT name FROM github.repos.repos WHERE org = 'tiny'")
			if r.Code != 2 || strings.TrimSpace(r.Stderr) != "query cancelled" || r.Stdout != "" {
				t.Fatalf("%s: exit %d\nstdout %q\nstderr %q", sig, r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}
