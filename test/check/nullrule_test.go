package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// nullControls are controls over settings a member who is not an owner
// cannot see (the fake's comply-member org leaves them out, as GitHub
// does): two read them without saying what NULL means (the issue's
// examples, a bare boolean and a status compared with <>), one reads the
// bare boolean through a view, two decide what unknown means (coalesce,
// IS NULL).
const nullControls = `vars:
  org:
views:
  org_settings: SELECT * FROM github.orgs.orgs
controls:
  - id: via-view
    sql: SELECT login FROM org_settings WHERE org = {{org}} AND NOT members_can_delete_issues
  - id: bare-bool
    sql: SELECT login FROM github.orgs.orgs WHERE org = {{org}} AND members_can_delete_issues
  - id: status-not-enabled
    sql: |
      SELECT name FROM github.repos.repos r
      WHERE r.org = {{org}} AND r.security_and_analysis ->> '$.secret_scanning.status' <> 'enabled'
  - id: coalesced
    sql: SELECT login FROM github.orgs.orgs WHERE org = {{org}} AND coalesce(members_can_delete_issues, 1) = 1
  - id: is-null
    sql: |
      SELECT login FROM github.orgs.orgs
      WHERE org = {{org}} AND (members_can_delete_issues IS NULL OR members_can_delete_issues)
`

// A control whose WHERE reads a setting the token cannot see, without
// coalesce or IS NULL, is an error (kind incomplete, not retryable, exit
// 2) that names the column, the likely cause and the two forms, never a
// pass; the controls that say what unknown means are judged as written
// (they fail); and on the org whose settings the token sees, the same
// file fails on the settings as usual, without an error.
func TestNullRuleControlIsAnError(t *testing.T) {
	_, env := serverEnv(t)
	file, r := checkControls(t, env, "nulls.yaml", nullControls, 2, "--var", "org="+fakegithub.ComplianceMemberOrg, "-o", "json")
	rep := parseJSON(t, r)
	got := statuses(rep)
	for id, want := range map[string]string{"bare-bool": "error", "via-view": "error", "status-not-enabled": "error", "coalesced": "fail", "is-null": "fail"} {
		if got[id] != want {
			t.Errorf("control %s: %q, want %q", id, got[id], want)
		}
	}
	for _, c := range rep.Controls {
		if c.Status != "error" {
			continue
		}
		e := c.Error
		var col, form string
		switch c.ID {
		case "bare-bool", "via-view":
			col, form = "github.orgs.orgs.members_can_delete_issues is NULL in every row read (1 row), and WHERE reads it without saying what NULL means",
				"coalesce(members_can_delete_issues, <failing value>) counts it as failing, members_can_delete_issues IS NULL selects the rows where it is unknown"
		case "status-not-enabled":
			col, form = "github.repos.repos.security_and_analysis ->> '$.secret_scanning.status' is NULL in every row read (2 rows)",
				"coalesce(r.security_and_analysis ->> '$.secret_scanning.status', <failing value>) counts it as failing"
		}
		if e == nil || e.Kind != "incomplete" || e.Retryable || e.HTTPStatus != 0 {
			t.Errorf("control %s: error %+v, want kind incomplete, not retryable", c.ID, e)
			continue
		}
		for _, part := range []string{col, form, "the credentials cannot see it", "without the owner role"} {
			if !strings.Contains(e.Message, part) {
				t.Errorf("control %s: message %q lacks %q", c.ID, e.Message, part)
			}
		}
	}

	// Where the token sees the settings, nothing is NULL: the controls
	// are judged as written (every one fails on comply-fail's settings
	// but via-view, which asks NOT members_can_delete_issues: true there).
	r = runCheck(t, env, file, "--var", "org="+fakegithub.ComplianceFailOrg, "-o", "json")
	if r.Code != 1 {
		t.Fatalf("comply-fail: exit %d, want 1\nstdout:\n%s", r.Code, r.Stdout)
	}
	for id, s := range statuses(parseJSON(t, r)) {
		if want := map[bool]string{true: "pass", false: "fail"}[id == "via-view"]; s != want {
			t.Errorf("comply-fail: control %s: %q, want %s", id, s, want)
		}
	}

	// A key the answer leaves out of a JSON column that has values is
	// NULL too: comply-fail's repositories have security_and_analysis
	// without advanced_security (no GitHub Advanced Security).
	ghas := testutil.TempFile(t, "ghas.yaml", `controls:
  - id: ghas-enabled
    sql: |
      SELECT name FROM github.repos.repos r
      WHERE r.org = 'comply-fail' AND r.security_and_analysis ->> '$.advanced_security.status' <> 'enabled'
`)
	r = runCheck(t, env, ghas, "-o", "json")
	if rep := parseJSON(t, r); r.Code != 2 || len(rep.Controls) != 1 || rep.Controls[0].Error == nil ||
		!strings.Contains(rep.Controls[0].Error.Message, "github.repos.repos.security_and_analysis ->> '$.advanced_security.status' is NULL in every row read (2 rows)") {
		t.Errorf("a path absent from every row: exit %d\n%s", r.Code, r.Stdout)
	}

	// The text report says the same on the errored control's line.
	r = runCheck(t, env, file, "--var", "org="+fakegithub.ComplianceMemberOrg, "--only", "bare-bool")
	if r.Code != 2 || !strings.Contains(r.Stdout, "ERROR bare-bool") || !strings.Contains(r.Stdout, "members_can_delete_issues is NULL in every row read") {
		t.Errorf("text report: exit %d\n%s", r.Code, r.Stdout)
	}
}

// Every control of the github pack says what unknown means (coalesce to
// the failing value), so over an org whose settings the token cannot see
// (comply-member: no owner settings, no security_and_analysis) each is
// judged as written and fails, none passes and none errors; on
// comply-denied (403 everywhere) each is an error.
func TestPackOnHiddenSettingsFails(t *testing.T) {
	_, env := serverEnv(t)
	ids := packIDs(t, env)
	r := runCheck(t, env, "--pack", "github", "--var", "org="+fakegithub.ComplianceMemberOrg, "-o", "json")
	if r.Code != 1 {
		t.Errorf("exit %d, want 1\nstderr:\n%s", r.Code, r.Stderr)
	}
	got := statuses(parseJSON(t, r))
	for _, id := range ids {
		if got[id] != "fail" {
			t.Errorf("control %s: %q, want fail", id, got[id])
		}
	}
	r = runCheck(t, env, "--pack", "github", "--var", "org="+fakegithub.ComplianceDeniedOrg, "-o", "json")
	rep := parseJSON(t, r)
	if r.Code != 2 || rep.Totals.Error != len(ids) {
		t.Errorf("comply-denied: exit %d, totals %+v, want every control in error", r.Code, rep.Totals)
	}
}
