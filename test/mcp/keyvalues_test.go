package mcp_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// describe_resource lists the values each key takes and its default,
// from the description (per method where they differ), and a value
// outside them is a plan error naming them, before any request.
func TestDescribeShowsKeyValues(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	d := toolText(t, c.S, "describe_resource", map[string]any{"resource": "github.orgs.members"})
	testutil.Contains(t, "describe_resource github.orgs.members", d,
		"\nkey\tvalues (an unbound key takes its default; a value outside the list is refused)\n",
		"\nrole\tOne of all, admin, member (default all).\n",
		"\nfilter\tOne of 2fa_disabled, 2fa_insecure, all (default all).\n")
	d = toolText(t, c.S, "describe_resource", map[string]any{"resource": "github.repos.repos", "compact": true})
	testutil.Contains(t, "describe_resource github.repos.repos", d,
		"\ntype\tlist_for_org: one of all, public, private, forks, sources, member (default all); list_for_authenticated_user: one of all, owner, public, private, member (default all); list_for_user: one of all, owner, member (default owner).\n")
	d = toolText(t, c.S, "describe_resource", map[string]any{"resource": "github.issues.issues"})
	testutil.Contains(t, "describe_resource github.issues.issues", d, "\nstate\tOne of open, closed, all (default open).\n")

	fake.ResetRequests()
	r := c.Query(t, `SELECT login FROM github.orgs.members WHERE org = 'acme' AND role = 'owner'`)
	if !r.IsError || r.Error == nil || r.Error.Kind != "plan" || !strings.Contains(r.Error.Message, "role = 'owner': role takes one of all, admin, member") {
		t.Errorf("role = 'owner': %+v", r.Error)
	}
	if n := apiRequests(fake); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
	// An unbound key whose default filters the rows read: the notice says so.
	r = c.Query(t, `SELECT state, count(*) AS n FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-007' GROUP BY state`)
	if r.IsError || !strings.Contains(r.Notice, "state is not bound: the API answers with its default, state = 'open', so only those rows are read; bind state = 'all' (or IN (...)) for the others") ||
		!strings.Contains(r.Text, "state is not bound") {
		t.Errorf("unbound state: notice %q, text %q", r.Notice, r.Text)
	}
}
