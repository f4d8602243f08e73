package check

import (
	"os"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// --only runs the named controls and requests nothing for the others.
func TestOnly(t *testing.T) {
	s, env := serverEnv(t)
	_, r := checkControls(t, env, "org.yaml", mixedControls, 1, "--only", "members-2fa", "--only", "tiny-hooks-insecure", "-o", "json")
	got := statuses(parseJSON(t, r))
	if len(got) != 2 || got["members-2fa"] != "fail" || got["tiny-hooks-insecure"] != "pass" {
		t.Fatalf("statuses %v", got)
	}
	for _, req := range s.Requests() {
		if req.Path != "/orgs/acme/members" && req.Path != "/orgs/tiny/hooks" {
			t.Errorf("request for a control not selected: %s", req.Path)
		}
	}
}

// In GitHub Actions: workflow commands escaped per GitHub's rules, and a
// markdown summary appended to $GITHUB_STEP_SUMMARY.
func TestGitHubFormatAndStepSummary(t *testing.T) {
	s := fakegithub.ForTest(t)
	summary := testutil.TempFile(t, "summary.md", "previous step\n")
	env := testutil.FakeEnv(t, s.URL(), "GITHUB_STEP_SUMMARY="+summary)
	file := testutil.TempFile(t, "gh.yaml", `controls:
  - id: odd-title
    title: "Webhooks: 100% verified, please"
    severity: low
    remediation: "Fix it: now, 100%"
    sql: |
      SELECT id, json_extract(config, '$.url') AS url, 'a|b' AS pipe
      FROM github.orgs.webhooks
      WHERE org = 'acme' AND json_extract(config, '$.insecure_ssl') = '1'
  - id: fine
    title: Tiny has no insecure hook
    sql: SELECT id FROM github.orgs.webhooks WHERE org = 'tiny' AND json_extract(config, '$.insecure_ssl') = '1'
`)
	r := runCheck(t, env, file, "-o", "github")
	if r.Code != 1 {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	want := "::warning file=" + file + ",line=2,title=FAIL odd-title%3A Webhooks%3A 100%25 verified%2C please::" +
		"2 rows; expected empty%0Aid\turl\tpipe%0A90000012\thttps://hooks.example.com/acme/2\ta|b%0A" +
		"90000014\thttps://hooks.example.com/acme/4\ta|b%0Aremediation: Fix it: now, 100%25\n"
	if !strings.Contains(r.Stdout, want) {
		t.Errorf("annotation:\n got %s\nwant %s", r.Stdout, want)
	}
	if !strings.Contains(r.Stdout, "::error title=engine check::2 controls: 1 passed, 1 failed, 0 errors\n") {
		t.Errorf("totals annotation missing:\n%s", r.Stdout)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	testutil.Contains(t, "summary", md,
		"previous step\n## engine check: ",
		"**2 controls: 1 passed, 1 failed, 0 errors**",
		"| ❌ fail | `odd-title` | Webhooks: 100% verified, please | low | 2 rows; expected empty |",
		"| ✅ pass | `fine` | Tiny has no insecure hook |  | 0 rows |",
		"| 90000012 | https://hooks.example.com/acme/2 | a\\|b |",
	)

	// Problems are annotated at their file and line, and summarised.
	bad := testutil.TempFile(t, "bad.yaml", "controls:\n  - id: x\n    sql: SELECT nope FROM github.repos.nothing\n")
	r = runCheck(t, env, bad, "-o", "github")
	if r.Code != 2 || !strings.Contains(r.Stdout, "::error file="+bad+",line=3,title=engine check%3A control file::control x: sql does not plan") {
		t.Errorf("problem annotation: exit %d\n%s", r.Code, r.Stdout)
	}
	b, _ = os.ReadFile(summary)
	if !strings.Contains(string(b), "**1 problem in the control file; no control was run.**") {
		t.Errorf("problem summary missing:\n%s", b)
	}
	// A pack's control is no file of the repository: its annotation names
	// no file (before: file=pack%3Agithub, which matches nothing)
	r = runCheck(t, env, "--pack", "github", "--var", "org="+fakegithub.ComplianceFailOrg, "--only", "org-2fa-required", "-o", "github")
	if r.Code != 1 || !strings.Contains(r.Stdout, "::error title=FAIL org-2fa-required") || strings.Contains(r.Stdout, "file=pack") {
		t.Errorf("pack annotation: exit %d\n%s", r.Code, r.Stdout)
	}
}

// File defaults sit under the environment and flags: a base URL in the
// file is used when nothing else is given, and --base-url wins over it.
func TestFileDefaultsUnderFlags(t *testing.T) {
	s := fakegithub.ForTest(t)
	file := testutil.TempFile(t, "d.yaml", `defaults:
  base_url:
    github: `+s.URL()+`
  auth:
    github: {type: null_auth}
controls:
  - id: tiny-owner
    title: tiny has one owner
    expect: count = 1
    sql: SELECT login FROM github.orgs.members WHERE org = 'tiny' AND role = 'admin'
`)
	env := testutil.FastEnv(t, "GITHUB_TOKEN=some-test-token")
	r := runCheck(t, env, file)
	if r.Code != 0 {
		t.Fatalf("file defaults: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	reqs := s.Requests()
	if len(reqs) == 0 || reqs[0].HasAuth {
		t.Errorf("null_auth from the file: requests %+v", reqs)
	}
	// A dead base URL on the command line wins, so the control errors.
	r = runCheck(t, env, file, "--base-url", "github=http://127.0.0.1:1")
	if r.Code != 2 || !strings.Contains(r.Stdout, "ERROR tiny-owner") {
		t.Errorf("--base-url must win: exit %d\n%s", r.Code, r.Stdout)
	}
}

// TestConfigMaxRowsIsNotShadowedByMCPVariable: the config file's max-rows
// sets check's --max-rows even when ENGINE_MCP_MAX_ROWS (the variable of
// mcp's --max-rows) is set. The environment of a flag comes from one
// table now; before, config.go guessed ENGINE_X and ENGINE_MCP_X for any
// flag named x, so the MCP variable silently disabled check's setting.
func TestConfigMaxRowsIsNotShadowedByMCPVariable(t *testing.T) {
	s := fakegithub.ForTest(t)
	cfg := testutil.TempFile(t, "config.yaml", "max-rows: 1\n")
	controls := testutil.TempFile(t, "c.yaml", "controls:\n  - id: tiny-repos\n    sql: SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name\n")
	for _, extra := range [][]string{nil, {"ENGINE_MCP_MAX_ROWS=7"}} {
		env := testutil.FakeEnv(t, s.URL(), append([]string{"ENGINE_CONFIG=" + cfg}, extra...)...)
		r := runCheck(t, env, controls, "-o", "json")
		rep := parseJSON(t, r)
		if r.Code != 1 || len(rep.Controls) != 1 || rep.Controls[0].RowCount == nil || *rep.Controls[0].RowCount != 3 || len(rep.Controls[0].Rows) != 1 {
			t.Fatalf("env %v: exit %d\n%s\n%s", extra, r.Code, r.Stdout, r.Stderr)
		}
	}
}
