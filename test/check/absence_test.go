package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// The control of docs/check.md: every repository's default branch is protected.
// GitHub answers an unprotected branch with 404 "Branch not protected";
// only that answer is "no protection rows".
const protectedControl = `controls:
  - id: default-branch-protected
    title: Every repo's default branch is protected
    expect: empty
    sql: >
      SELECT r.name FROM github.repos.repos r
      LEFT JOIN github.branches.branch_protection bp
        ON bp.owner = json_extract(r.owner, '$.login') AND bp.repo = r.name AND bp.branch = r.default_branch
      WHERE r.org = 'acme' AND bp.url IS NULL
`

// A generic 404 {"message":"Not Found"} for one repository's branch
// protection (a repository or branch the token cannot see) is an error,
// never "unprotected" (FAIL) and never a pass. Before the absence rule
// carried the message, this 404 read as "no rows".
func TestBranchProtectionGeneric404IsError(t *testing.T) {
	s := fakegithub.ForTest(t, fakegithub.WithRepos("acme", 8))
	// repo-004 is protected (i%4 == 0): a generic 404 for it must not turn
	// it into "unprotected".
	s.Inject(fakegithub.Fault{Path: "^/repos/acme/repo-004/branches/main/protection$", Kind: fakegithub.KindStatus, Status: 404})
	env := testutil.FakeEnv(t, s.URL())
	file, r := checkControls(t, env, "c.yaml", protectedControl, 2, "-o", "json")
	c := parseJSON(t, r).Controls[0]
	if c.Status != "error" || c.Error == nil || c.Error.HTTPStatus != 404 || c.Error.Retryable || !strings.Contains(c.Error.Message, "Not Found") {
		t.Fatalf("control = %s %+v, want error with the 404", c.Status, c.Error)
	}
	// Text output says ERROR too, never PASS or FAIL.
	r = runCheck(t, env, file)
	if r.Code != 2 || strings.Contains(r.Stdout, "PASS") || strings.Contains(r.Stdout, "FAIL ") {
		t.Fatalf("text: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// "Branch not protected" (the fake's answer for repositories whose index
// is not a multiple of 4) counts that repository as unprotected: FAIL,
// exit 1, with exactly those repositories as rows.
func TestBranchNotProtectedIsFail(t *testing.T) {
	_, env := serverEnv(t, fakegithub.WithRepos("acme", 8))
	_, r := checkControls(t, env, "c.yaml", protectedControl, 1, "-o", "json")
	c := parseJSON(t, r).Controls[0]
	if c.Status != "fail" || c.RowCount == nil || *c.RowCount != 6 {
		t.Fatalf("control = %s rows %v, want fail with 6 unprotected repos (1,2,3,5,6,7)", c.Status, c.RowCount)
	}
}

// GitHub answers the membership check of a caller who is not an org member
// with a 302 to the public-membership check, whose 404 says nothing about
// membership. The control "departed admin is not a member" must be an
// error, not PASS (before: the redirect was followed and its 404 read as
// "not a member").
func TestMembershipRedirectIsError(t *testing.T) {
	s := fakegithub.ForTest(t)
	ctl := testutil.TempFile(t, "c.yaml", `controls:
  - id: departed-admin-gone
    title: The departed admin is not a member
    expect: empty
    sql: SELECT 1 FROM github.orgs.check_membership_for_user WHERE org = 'acme' AND username = 'acme-dev-02'
`)
	env := testutil.FakeEnv(t, s.URL(), "GITHUB_TOKEN="+fakegithub.NonMemberToken)
	r := runCheck(t, env, ctl, "-o", "json")
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	c := parseJSON(t, r).Controls[0]
	if c.Status != "error" || c.Error == nil || c.Error.HTTPStatus != 302 || c.Error.Retryable ||
		!strings.Contains(c.Error.Message, "use a token of an org member") || !strings.Contains(c.Error.Message, "/orgs/acme/public_members/acme-dev-02") {
		t.Fatalf("control = %s %+v", c.Status, c.Error)
	}
	for _, req := range s.Requests() {
		if strings.Contains(req.Path, "public_members") {
			t.Errorf("the redirect was followed: %s", req.Path)
		}
	}
	if strings.Contains(r.Stdout+r.Stderr, fakegithub.NonMemberToken) {
		t.Fatal("token in output")
	}

	// With an org member's token the same control reads the real answer:
	// acme-dev-02 is a member (204), so the control fails.
	env = testutil.FakeEnv(t, s.URL(), "GITHUB_TOKEN=ghp_member")
	if r := runCheck(t, env, ctl, "-o", "json"); r.Code != 1 || parseJSON(t, r).Controls[0].Status != "fail" {
		t.Fatalf("member token: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
