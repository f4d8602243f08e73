package check

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// The shipped example runs against the fake org with the outcomes its
// dataset implies.
func TestExampleControls(t *testing.T) {
	s, env := serverEnv(t)
	file := filepath.Join(testutil.RepoRoot(), "examples", "controls", "github-org.yaml")

	// Without --var org the file does not run.
	if r := runCheck(t, env, file); r.Code != 2 || len(s.Requests()) != 0 {
		t.Fatalf("without vars: exit %d, %d requests\n%s", r.Code, len(s.Requests()), r.Stderr)
	}

	r := runCheck(t, env, file, "-o", "json", "--var", "org=acme")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	rep := parseJSON(t, r)
	want := map[string]struct {
		status string
		rows   int
	}{
		"org-2fa-required":                   {"fail", 1},
		"members-2fa-disabled":               {"fail", 5},
		"outside-collaborators-2fa-disabled": {"fail", 3},
		"org-owners-limit":                   {"pass", 3},
		"no-public-repos":                    {"fail", 84},
		"archived-repos-not-private":         {"fail", 9},
		"default-branch-protected":           {"fail", 162}, // 225 active repos, 63 protected
		"dependabot-critical-open":           {"fail", 9},
		"secret-scanning-open":               {"fail", 8},
		"webhooks-insecure-ssl":              {"fail", 2},
		"members-cannot-create-public-repos": {"pass", 0},
		"default-permission-read":            {"pass", 0},
	}
	if len(rep.Controls) != len(want) {
		t.Fatalf("%d controls, want %d", len(rep.Controls), len(want))
	}
	for _, c := range rep.Controls {
		w, ok := want[c.ID]
		if !ok {
			t.Errorf("unexpected control %s", c.ID)
			continue
		}
		if c.Status != w.status || c.RowCount == nil || *c.RowCount != w.rows {
			t.Errorf("%s: %s with %v rows, want %s with %d (%+v)", c.ID, c.Status, c.RowCount, w.status, w.rows, c.Error)
		}
	}

	// One branch request per active repository: 3 pages of repos, 225
	// branches (NOT r.archived narrows the join's source rows before the
	// fan-out, docs/architecture.md; 25 of the 250 repositories are archived).
	var branches int
	for _, req := range s.Requests() {
		if strings.HasPrefix(req.Path, "/repos/acme/") && strings.Contains(req.Path, "/branches/") {
			branches++
		}
	}
	if branches != 225 {
		t.Errorf("%d branch requests, want 225", branches)
	}

	// The tiny org: alpha (public) protects its branch, beta and gamma do
	// not; nobody lacks 2FA; its one hook is secure.
	r = runCheck(t, env, file, "-o", "json", "--var", "org=tiny")
	rep = parseJSON(t, r)
	got := statuses(rep)
	if got["default-branch-protected"] != "fail" || got["members-2fa-disabled"] != "pass" || got["webhooks-insecure-ssl"] != "pass" || got["no-public-repos"] != "fail" || got["dependabot-critical-open"] != "fail" {
		t.Errorf("tiny: %v", got)
	}
	for _, c := range rep.Controls {
		if c.ID == "default-branch-protected" && (len(c.Rows) != 2 || c.Rows[0][0] != "beta" || c.Rows[1][0] != "gamma") {
			t.Errorf("tiny unprotected: %v", c.Rows)
		}
	}
}
