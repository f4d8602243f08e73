package mcp_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// list_resources' filter is what its description says: a substring of
// the resource name (the last part), not of service.resource, so that
// filter=repos within service repos is the tables named *repos*, not the
// whole service; a filter with a dot matches the whole name.
func TestListResourcesFilterIsTheResourceName(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	ctx := mcptest.Context(t)
	tables := func(args map[string]any) []string {
		t.Helper()
		r := c.Call(t, ctx, "list_resources", args)
		if r.IsError {
			t.Fatalf("list_resources %v: %s", args, r.Text)
		}
		_, rows, _ := mcptest.TSVLines(r.Text)
		var names []string
		for _, row := range rows {
			names = append(names, strings.Split(row, "\t")[0])
		}
		return names
	}
	got := tables(map[string]any{"service": "repos", "filter": "repos"})
	if len(got) == 0 || len(got) > 5 {
		t.Fatalf("service repos, filter repos: %d tables %v; want those whose name holds repos", len(got), got)
	}
	for _, name := range got {
		if parts := strings.Split(name, "."); !strings.Contains(parts[len(parts)-1], "repos") {
			t.Errorf("service repos, filter repos: %s does not have repos in its name", name)
		}
	}
	if got := tables(map[string]any{"service": "repos", "filter": "REPOS.ACT"}); len(got) != 1 || got[0] != "github.repos.activities" {
		t.Errorf("filter repos.act: %v, want github.repos.activities", got)
	}
	if got := tables(map[string]any{"service": "actions", "filter": "run"}); len(got) == 0 || !strings.Contains(strings.Join(got, " "), "github.actions.workflow_runs") {
		t.Errorf("service actions, filter run: %v", got)
	}
	lt := c.ListTools(t)
	for _, tool := range lt.Tools {
		if tool.Name != "list_resources" {
			continue
		}
		desc := toolProperty(t, tool.InputSchema, "filter")
		if !strings.Contains(desc, "resource name") || !strings.Contains(desc, "with a dot") {
			t.Errorf("filter's description does not say the rule: %q", desc)
		}
	}
}

// toolProperty is the description of a tool's input property.
func toolProperty(t *testing.T, schema any, name string) string {
	t.Helper()
	m, _ := schema.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	d, _ := p["description"].(string)
	return d
}

// Every tool argument that names a provider says the default the same
// way, the catalog's one rule (catalog.DefaultProvider).
func TestDefaultProviderWordedOnce(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	const want = "provider name (default: github when the server has it, else the first by name)"
	n := 0
	for _, tool := range c.ListTools(t).Tools {
		m, _ := tool.InputSchema.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		if _, ok := props["provider"]; !ok {
			continue
		}
		n++
		if got := toolProperty(t, tool.InputSchema, "provider"); got != want {
			t.Errorf("%s: provider %q, want %q", tool.Name, got, want)
		}
	}
	if n < 2 {
		t.Fatalf("%d tools take a provider, want list_services and list_resources", n)
	}
}

// A statement stopped by the server's time limit names the limit and
// the way out, and is not retryable: the same statement under the same
// limit runs out again (docs/architecture.md, "Errors").
func TestQueryTimeoutNamesTheLimit(t *testing.T) {
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindSlow, Delay: 20 * time.Second})
	c, _ := stdioClient(t, fake, nil, "--query-timeout", "1s")
	r := c.QueryBounded(t, "SELECT name FROM github.repos.repos WHERE org = 'acme'")
	e := r.Error
	t.Logf("%+v", e)
	if !r.IsError || e == nil || e.Kind != engine.KindTimeout || e.Retryable {
		t.Fatalf("want a timeout error result, not retryable: %+v", e)
	}
	for _, want := range []string{"timed out after 1s", "query-timeout", "narrow the query (WHERE keys, LIMIT, fewer IN values)", "time out again", "the server's setting"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message lacks %q: %s", want, e.Message)
		}
	}
	if strings.Contains(e.Message, "--") || strings.Contains(e.Message, "context deadline") {
		t.Errorf("message: %s", e.Message)
	}
}

// The request and page limits are the server's: over MCP their refusal
// says so and how to narrow, never to raise a limit the agent cannot.
func TestLimitErrorsSayTheServerSetting(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil, "--max-requests", "2", "--max-pages", "2")
	for sql, want := range map[string]string{
		"SELECT * FROM github.issues.issues WHERE owner = 'tiny' AND repo IN ('a', 'b', 'c')": "The request limit (max-requests) is the server's setting",
		"SELECT count(*) FROM github.repos.repos WHERE org = 'acme'":                          "The page limit of a call (max-pages) is the server's setting",
	} {
		r := c.QueryBounded(t, sql)
		t.Logf("%+v", r.Error)
		if !r.IsError || r.Error.Kind != engine.KindPlan || r.Error.Retryable || !strings.Contains(r.Error.Message, want) {
			t.Errorf("%s: %+v", sql, r.Error)
			continue
		}
		if regexp.MustCompile(`(?i)raise`).MatchString(r.Error.Message) || strings.Contains(r.Error.Message, "--") {
			t.Errorf("%s: the message says to raise a limit or names a flag: %s", sql, r.Error.Message)
		}
	}
}

// A provider's refusal that no retry changes carries its next step in
// the message: 404 the spelling or the credentials' sight, 403 a
// permission (or a rate limit, when the provider says so), 401 the
// credentials.
func TestProviderRefusalsSayTheNextStep(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	fake.Inject(fakegithub.Fault{Path: "^/repos/acme/forbidden/contributors$", Kind: fakegithub.KindStatus, Status: 403, Message: "Resource not accessible by integration"})
	fake.Inject(fakegithub.Fault{Path: "^/repos/acme/refused/contributors$", Kind: fakegithub.KindStatus, Status: 401})
	for _, tc := range []struct {
		repo   string
		status int
		want   []string
	}{
		{"nope", 404, []string{"check the spelling of the names in WHERE (owner, repo", "the credentials cannot see it"}},
		{"forbidden", 403, []string{"Resource not accessible by integration", "the credentials lack a permission"}},
		{"refused", 401, []string{"credentials for github were missing or refused"}},
	} {
		r := c.QueryBounded(t, "SELECT login FROM github.repos.contributors WHERE owner = 'acme' AND repo = '"+tc.repo+"'")
		e := r.Error
		t.Logf("%+v", e)
		if !r.IsError || e == nil || e.Kind != engine.KindProvider || e.HTTPStatus != tc.status || e.Retryable {
			t.Errorf("%s: want a %d provider error, got %+v", tc.repo, tc.status, e)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(e.Message, w) {
				t.Errorf("%s: message lacks %q: %s", tc.repo, w, e.Message)
			}
		}
		if !strings.Contains(e.Message, "Next: ") || strings.Contains(e.Message, "--") {
			t.Errorf("%s: message: %s", tc.repo, e.Message)
		}
	}
}
