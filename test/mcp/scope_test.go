package mcp_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
)

// An agent that leaves out org reads the token's user's repositories (GET
// /user/repos): the result says so in notice and in the text's summary,
// with the keys to bind; a named method or a bound key says nothing.
func TestUnkeyedScopeNoticeOverMCP(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	const why = "github.repos.repos read with list_for_authenticated_user (GET /user/repos), which needs no key: the rows are the credentials' user's; " +
		"bind org (list_for_org) or username (list_for_user) for another owner's, or name the method (FROM github.repos.repos.list_for_authenticated_user) to mean it"
	r := c.Query(t, "SELECT name FROM github.repos.repos WHERE license IS NULL")
	if r.IsError || r.RowCount == 0 || !strings.Contains(r.Notice, why) || !strings.Contains(r.Text, why) {
		t.Fatalf("notice %q, text %q, %+v", r.Notice, r.Text, r.Error)
	}
	for _, q := range []string{
		"SELECT name FROM github.repos.repos WHERE org = 'acme'",
		"SELECT name FROM github.repos.repos.list_for_authenticated_user",
	} {
		if r := c.Query(t, q); r.IsError || strings.Contains(r.Notice, "needs no key") {
			t.Errorf("%s: notice %q, %+v", q, r.Notice, r.Error)
		}
	}
}
