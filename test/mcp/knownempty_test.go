package mcp_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
)

// An agent's statement whose answer is known to be empty sends nothing:
// LIMIT 0 gives the columns and no row; WHERE predicates on one key that
// admit no value give no row and say why in notice and in the text's
// summary line (README, "Answers known to be empty").
func TestKnownEmptyOverMCP(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	fake.ResetRequests()
	r := c.Query(t, "SELECT name, id FROM github.repos.repos WHERE org = 'acme' LIMIT 0")
	if r.IsError || r.RowCount != 0 || len(r.Columns) != 2 || r.Stats.HTTPRequests != 0 {
		t.Fatalf("LIMIT 0: %+v", r)
	}
	r = c.Query(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' AND org = 'tiny'")
	const why = "no request for github.repos.repos: its WHERE predicates on org (org = 'acme' AND org = 'tiny') admit no value, so it has no rows"
	if r.IsError || r.RowCount != 0 || !strings.Contains(r.Notice, why) || !strings.Contains(r.Text, why) {
		t.Fatalf("contradiction: notice %q, text %q, %+v", r.Notice, r.Text, r.Error)
	}
	if n := apiRequests(fake); n != 0 {
		t.Fatalf("%d API requests", n)
	}
}
