package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

const mixedControls = `controls:
  - id: owners-limit
    title: At most 3 owners
    expect: count <= 3
    sql: SELECT login FROM github.orgs.members WHERE org = 'acme' AND role = 'admin'
  - id: members-2fa
    title: No member without 2FA
    severity: critical
    sql: SELECT login FROM github.orgs.members WHERE org = 'acme' AND filter = '2fa_disabled' ORDER BY login
  - id: hooks-insecure
    title: No insecure webhook
    sql: |
      SELECT id FROM github.orgs.webhooks
      WHERE org = 'acme' AND json_extract(config, '$.insecure_ssl') = '1'
  - id: tiny-hooks-insecure
    title: No insecure webhook in tiny
    sql: SELECT id FROM github.orgs.webhooks WHERE org = 'tiny' AND json_extract(config, '$.insecure_ssl') = '1'
`

// mixedServer is a fake whose acme hooks endpoint answers 403 (not a
// rate limit): the control that reads it is an error, never a pass,
// whatever the format. It returns the engine's environment.
func mixedServer(t *testing.T) []string {
	s, env := serverEnv(t)
	s.Inject(fakegithub.Fault{Path: "^/orgs/acme/hooks$", Kind: fakegithub.KindStatus, Status: 403, Message: "Resource not accessible by integration"})
	return env
}

// runMixed runs check on the mixed controls with the further args and
// fails unless it exits 2 (an error outranks a failure); it returns the
// control file and the run.
func runMixed(t *testing.T, args ...string) (string, testutil.Result) {
	t.Helper()
	return checkControls(t, mixedServer(t), "org.yaml", mixedControls, 2, args...)
}

func TestMixedOutcomesJSON(t *testing.T) {
	_, r := runMixed(t, "-o", "json")
	rep := parseJSON(t, r)
	want := map[string]string{"owners-limit": "pass", "members-2fa": "fail", "hooks-insecure": "error", "tiny-hooks-insecure": "pass"}
	if got := statuses(rep); len(got) != 4 || got["owners-limit"] != want["owners-limit"] || got["members-2fa"] != "fail" || got["hooks-insecure"] != "error" || got["tiny-hooks-insecure"] != "pass" {
		t.Fatalf("statuses %v, want %v", got, want)
	}
	fail := rep.Controls[1]
	if *fail.RowCount != 5 || len(fail.Rows) != 5 || fail.Rows[0][0] != "acme-dev-08" {
		t.Errorf("fail rows: %v %v", *fail.RowCount, fail.Rows)
	}
	e := rep.Controls[2].Error
	if e == nil || e.Kind != "provider" || e.HTTPStatus != 403 || e.Provider != "github" || e.Retryable || !strings.Contains(e.Message, "Resource not accessible") {
		t.Errorf("error object: %+v", e)
	}
	if rep.Controls[2].RowCount != nil {
		t.Errorf("an errored control has no row count")
	}
	if rep.Totals.Controls != 4 || rep.Totals.Pass != 2 || rep.Totals.Fail != 1 || rep.Totals.Error != 1 || rep.ExitCode != 2 {
		t.Errorf("totals %+v exit %d", rep.Totals, rep.ExitCode)
	}
}

func TestMixedOutcomesText(t *testing.T) {
	_, r := runMixed(t)
	testutil.Contains(t, "text report", r.Stdout,
		"PASS  owners-limit: At most 3 owners\n",
		"FAIL  members-2fa [critical]: No member without 2FA\n      5 rows; expected empty\n",
		"| acme-dev-40 |",
		"ERROR hooks-insecure: No insecure webhook\n      provider error, HTTP 403, provider github, not retryable:",
		"PASS  tiny-hooks-insecure:",
		"4 controls: 2 passed, 1 failed, 1 error in",
	)
}

func TestMixedOutcomesJUnit(t *testing.T) {
	_, r := runMixed(t, "-o", "junit")
	s := testutil.JUnitSuiteOf(t, r.Stdout, "org", testutil.JUnitCounts{Tests: 4, Failures: 1, Errors: 1})
	if c := s.Cases[1]; c.Failure == nil || c.Error != nil || !strings.Contains(c.Failure.Text, "acme-dev-16") {
		t.Errorf("members-2fa: %+v", c)
	}
	if c := s.Cases[2]; c.Error == nil || c.Failure != nil || c.Error.Type != "provider" || !strings.Contains(c.Error.Message, "HTTP 403") {
		t.Errorf("hooks-insecure: %+v", c)
	}
	if s.Cases[0].Failure != nil || s.Cases[0].Error != nil || s.Cases[0].Name != "owners-limit: At most 3 owners" {
		t.Errorf("owners-limit: %+v", s.Cases[0])
	}
}

func TestMixedOutcomesGitHub(t *testing.T) {
	file, r := runMixed(t, "-o", "github")
	testutil.Contains(t, "github output", r.Stdout,
		"::error file="+file+",line=6,title=FAIL members-2fa%3A No member without 2FA::5 rows; expected empty%0Alogin%0Aacme-dev-08%0A",
		"::error file="+file+",line=10,title=ERROR hooks-insecure%3A No insecure webhook::provider error, HTTP 403, provider github, not retryable:",
		"::error title=engine check::4 controls: 2 passed, 1 failed, 1 error\n",
	)
	if strings.Contains(r.Stdout, "title=FAIL owners-limit") || strings.Contains(r.Stdout, "title=ERROR tiny") {
		t.Errorf("passing controls must not be annotated:\n%s", r.Stdout)
	}
}

// Exit codes: error outranks fail; fail alone is 1; all pass is 0.
func TestExitCodes(t *testing.T) {
	env, file := mixedServer(t), testutil.TempFile(t, "org.yaml", mixedControls)
	for _, c := range []struct {
		only string
		code int
	}{
		{"owners-limit,members-2fa,hooks-insecure", 2},
		{"owners-limit,members-2fa", 1},
		{"owners-limit,tiny-hooks-insecure", 0},
		{"hooks-insecure", 2},
	} {
		r := runCheck(t, env, file, "--only", c.only)
		if r.Code != c.code {
			t.Errorf("--only %s: exit %d, want %d\n%s%s", c.only, r.Code, c.code, r.Stdout, r.Stderr)
		}
	}
}

// With -o github a failed or errored control is annotated at its line of
// the control file, as the file's problems are, so a pull request shows
// it on the control; a control without a title is titled by its id once.
func TestGitHubAnnotationsAtTheControl(t *testing.T) {
	file, r := checkControls(t, mixedServer(t), "annotated.yaml", `controls:
  - id: fine
    sql: SELECT login FROM github.orgs.members WHERE org = 'tiny' AND filter = '2fa_disabled'
  - id: no-2fa-disabled
    sql: SELECT login FROM github.orgs.members WHERE org = 'acme' AND filter = '2fa_disabled'
  - id: hooks
    title: No insecure webhook
    sql: SELECT id FROM github.orgs.webhooks WHERE org = 'acme'
`, 2, "-o", "github")
	testutil.Contains(t, "github output", r.Stdout,
		"::error file="+file+",line=4,title=FAIL no-2fa-disabled::5 rows; expected empty",
		"::error file="+file+",line=6,title=ERROR hooks%3A No insecure webhook::provider error, HTTP 403",
	)
	if strings.Contains(r.Stdout, "no-2fa-disabled%3A no-2fa-disabled") || strings.Contains(r.Stdout, "title=FAIL fine") {
		t.Errorf("annotations:\n%s", r.Stdout)
	}
}
