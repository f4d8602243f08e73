package mcp_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
)

// An agent's statement whose WHERE reads a setting the token cannot see
// (comply-member leaves the owner-only settings out), without coalesce
// or IS NULL, is a result, not an error, whose notice (and the text's
// summary line) names the column and the forms that decide what unknown
// means; a statement that decides it has no such notice.
func TestNullColumnNoticeOverMCP(t *testing.T) {
	_, c := fakeClient(t)
	const why = "github.orgs.orgs.members_can_delete_issues is NULL in every row read (1 row), and WHERE reads it without saying what NULL means"
	r := c.Query(t, "SELECT login FROM github.orgs.orgs WHERE org = '"+fakegithub.ComplianceMemberOrg+"' AND members_can_delete_issues")
	if r.IsError || r.RowCount != 0 || !strings.Contains(r.Notice, why) || !strings.Contains(r.Notice, "coalesce(members_can_delete_issues, <failing value>)") || !strings.Contains(r.Text, why) {
		t.Fatalf("notice %q, text %q, error %+v", r.Notice, r.Text, r.Error)
	}
	r = c.Query(t, "SELECT login FROM github.orgs.orgs WHERE org = '"+fakegithub.ComplianceMemberOrg+"' AND coalesce(members_can_delete_issues, 1) = 1")
	if r.IsError || r.RowCount != 1 || strings.Contains(r.Notice, "NULL in every row") {
		t.Fatalf("coalesce: rows %d, notice %q, error %+v", r.RowCount, r.Notice, r.Error)
	}
}
