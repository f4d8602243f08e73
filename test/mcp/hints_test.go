package mcp_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// An agent's usual slips come back as plan errors that say what to
// write, before any request, the same words the CLI prints.
func TestHintsForAgentSlips(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	ctx := mcptest.Context(t)
	for sql, want := range map[string]string{
		"SELECT name FROM github.repos.branches WHERE owner = 'acme' AND repo = 'repo-001'":            "did you mean github.branches.branches",
		"SELECT name FROM github.repositories WHERE org = 'acme'":                                      "did you mean github.repos.repos,",
		"SELECT login FROM github.repos.contributors WHERE repo = 'acme/repo-001'":                     "write owner = 'acme' AND repo = 'repo-001'",
		"SELECT p.user.login FROM github.pulls.pulls p WHERE p.owner = 'acme' AND p.repo = 'repo-001'": "user is a JSON column: write p.user ->> 'login'",
		"SELECT stars FROM github.repos.repos WHERE org = 'acme'":                                      "nearest: stargazers_count",
	} {
		r := c.Query(t, sql)
		if !r.IsError || r.Error.Kind != "plan" || !strings.Contains(r.Error.Message, want) {
			t.Errorf("run_select_query %s: %+v; want a plan error saying %q", sql, r.Error, want)
		}
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	r := c.Call(t, ctx, "describe_resource", map[string]any{"resource": "github.repos.branch_protection"})
	if !r.IsError || !strings.Contains(r.Error.Message, "did you mean github.branches.branch_protection?") {
		t.Errorf("describe_resource: %+v", r.Error)
	}
}
