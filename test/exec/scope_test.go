package exec_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// scopeNotice is what exec says when github.repos.repos is read without a
// key: the rows are the token's user's (GET /user/repos), not an org's.
const scopeNotice = "notice: github.repos.repos read with list_for_authenticated_user (GET /user/repos), which needs no key: " +
	"the rows are the credentials' user's; bind org (list_for_org) or username (list_for_user) for another owner's, " +
	"or name the method (FROM github.repos.repos.list_for_authenticated_user) to mean it"

// Leaving out the key of a table whose other methods need one reads
// another scope (the token's user's repositories, not an org's): the rows
// come with a notice on stderr that says so and what to bind. A key bound,
// or the method named with a four-part name, gives no notice; nor does a
// table that has no keyed method.
func TestUnkeyedMethodNotice(t *testing.T) {
	r := run(t, "-o", "csv", `SELECT name FROM github.repos.repos WHERE license IS NULL`)
	if r.Code != 0 || strings.TrimSpace(r.Stderr) != scopeNotice {
		t.Fatalf("exit %d\nstderr:\n%s\nwant:\n%s", r.Code, r.Stderr, scopeNotice)
	}
	if !strings.Contains(r.Stdout, "blog") {
		t.Fatalf("rows of GET /user/repos expected:\n%s", r.Stdout)
	}
	r = run(t, "-o", "csv", `SELECT login FROM github.users.users`)
	testutil.WantRun(t, "exec", r, 0, "", "notice: github.users.users read with get_authenticated (GET /user), which needs no key: the rows are the credentials' user's; bind account_id (get_by_id) or username (get_by_username)")
	for _, q := range []string{
		`SELECT name FROM github.repos.repos WHERE org = 'acme'`,
		`SELECT name FROM github.repos.repos.list_for_authenticated_user`,
		`SELECT r.name FROM github.repos.repos.list_for_authenticated_user AS r`,
		`SELECT count(*) FROM github.rate_limit.rate_limit`,
	} {
		r := run(t, "-o", "csv", q)
		if r.Code != 0 || strings.Contains(r.Stderr, "notice") {
			t.Errorf("%s: exit %d, stderr:\n%s", q, r.Code, r.Stderr)
		}
	}
}
