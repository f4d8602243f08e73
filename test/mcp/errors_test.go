package mcp_test

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// Bad tool arguments are kind usage (docs/reliability.md, "Error kinds of bad arguments"): an unknown or expired
// result_id, a negative offset, a resource name that is not
// provider.service.resource. A name that matches no provider, service or
// table stays kind plan, as the same name in SQL is. No request is made.
func TestArgumentErrorsAreUsage(t *testing.T) {
	fake, c := fakeClient(t)
	ctx := context.Background()
	fake.ResetRequests()
	for _, tc := range []struct {
		tool string
		args map[string]any
		kind engine.Kind
	}{
		{"fetch_result_page", map[string]any{"result_id": "nope"}, engine.KindUsage},
		{"fetch_result_page", map[string]any{"result_id": "nope", "offset": -1}, engine.KindUsage},
		{"describe_resource", map[string]any{"resource": "repos"}, engine.KindUsage},
		{"describe_resource", map[string]any{"resource": "github.repos.nope"}, engine.KindPlan},
		{"list_services", map[string]any{"provider": "nope"}, engine.KindPlan},
		{"run_select_query", map[string]any{"sql": "SELEC 1"}, engine.KindSQL},
	} {
		r := c.Call(t, ctx, tc.tool, tc.args)
		if !r.IsError || r.Error == nil || r.Error.Kind != tc.kind || r.Error.Retryable {
			t.Errorf("%s %v: want a %s error, got %+v", tc.tool, tc.args, tc.kind, r.Error)
		}
		// MCP refuses CREATE VIEW and DROP VIEW: its refusals do not offer them
		if r.Error != nil && strings.Contains(r.Error.Message, "CREATE VIEW") {
			t.Errorf("%s %v: the error offers CREATE VIEW, which this surface refuses: %s", tc.tool, tc.args, r.Error.Message)
		}
	}
	if n := apiRequests(fake); n != 0 {
		t.Fatalf("%d API requests for argument errors", n)
	}
}

// An MCP agent has no flags: the request-limit refusal says which limit
// (kind plan, the figures) but names no CLI flag (docs/architecture.md, "Errors"). exec adds
// the flag in its advice (test/exec TestDependentFanOutAboveLimitIsRefusedBeforeRequests).
func TestLimitErrorsNameNoFlag(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil, "--max-requests", "2")
	r := c.QueryBounded(t, "SELECT * FROM github.issues.issues WHERE owner = 'tiny' AND repo IN ('a', 'b', 'c')")
	if !r.IsError || r.Error == nil || r.Error.Kind != engine.KindPlan || !strings.Contains(r.Error.Message, "more than the limit of 2") {
		t.Fatalf("want a plan refusal of the request limit, got %+v", r.Error)
	}
	if strings.Contains(r.Error.Message, "--") {
		t.Fatalf("the MCP error names a CLI flag: %q", r.Error.Message)
	}
}

// The output schemas' kind enum is the engine's list of kinds (declared
// once, derived for the schema), usage included.
func TestOutputSchemaKindsAreTheEngines(t *testing.T) {
	_, c := fakeClient(t)
	want := engine.Kinds()
	n := 0
	for _, tool := range c.ListTools(t).Tools {
		if tool.OutputSchema == nil {
			continue
		}
		n++
		b, _ := json.Marshal(tool.OutputSchema)
		var s struct {
			Properties struct {
				Error struct {
					Properties struct {
						Kind struct{ Enum []engine.Kind }
					}
				}
			}
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if got := s.Properties.Error.Properties.Kind.Enum; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: kind enum %v, want %v", tool.Name, got, want)
		}
	}
	if n != 2 {
		t.Fatalf("%d tools with an output schema, want 2 (run_select_query, fetch_result_page)", n)
	}
}

// A search matching more than the 1,000 results GitHub serves (the fake's
// org "sprawl": 2,500) answers every row through run_select_query, split
// by created: ranges; code search, which cannot be split, is an error
// result of kind incomplete, never 1,000 rows.
func TestSearchOverCap(t *testing.T) {
	_, c := fakeClient(t)
	r := c.QueryBounded(t, "SELECT count(*) AS n, count(DISTINCT id) AS d FROM github.search.repos WHERE q = 'org:sprawl'")
	if r.IsError || len(r.Rows) != 1 || r.Rows[0][0] != float64(fakegithub.SprawlRepos) || r.Rows[0][1] != float64(fakegithub.SprawlRepos) {
		t.Fatalf("split search: error %+v rows %v", r.Error, r.Rows)
	}
	stats, _ := r.Raw["stats"].(map[string]any)
	if parts, _ := stats["parts"].(float64); parts < 2 {
		t.Errorf("stats %v: want the split's parts", stats)
	}
	r = c.QueryBounded(t, "SELECT count(*) AS n FROM github.search.code WHERE q = 'org:sprawl'")
	if !r.IsError || r.Error == nil || r.Error.Kind != engine.KindIncomplete || r.Error.Retryable ||
		!strings.Contains(r.Error.Message, "2500") || !strings.Contains(r.Error.Message, "first 1000") || len(r.Rows) != 0 {
		t.Fatalf("code search: want an incomplete error result, got %+v rows %v", r.Error, r.Rows)
	}
	if strings.Contains(r.Error.Message, "--") {
		t.Errorf("the MCP error names a CLI flag: %q", r.Error.Message)
	}
}

// An unknown table gets the closest names in every tool's error: the
// SELECT's error result and describe_resource's, with the tool that
// lists the names; list_resources of a mistyped service names the
// closest service.
func TestUnknownNamesSuggestNearest(t *testing.T) {
	_, c := fakeClient(t)
	ctx := mcptest.Context(t)
	r := c.Query(t, "SELECT * FROM github.repos.list_for_orgs")
	if !r.IsError || r.Error.Kind != "plan" || !strings.Contains(r.Error.Message, "did you mean github.repos.repos (method list_for_org)?") {
		t.Fatalf("run_select_query: %+v", r.Error)
	}
	// An unknown provider and a table name of two parts read as the CLI
	// reads them.
	for sql, want := range map[string]string{
		"SELECT * FROM gitlab.repos.repos": `unknown provider "gitlab"; SHOW PROVIDERS lists them`,
		"SELECT * FROM github.repos":       "no table github.repos: tables are named provider.service.resource; did you mean github.repos.repos",
	} {
		r = c.Query(t, sql)
		if !r.IsError || r.Error.Kind != "plan" || !strings.Contains(r.Error.Message, want) {
			t.Fatalf("run_select_query %s: %+v", sql, r.Error)
		}
	}
	for _, name := range []string{"github.repo.get", "repo.get"} {
		r = c.Call(t, ctx, "describe_resource", map[string]any{"resource": name})
		if !r.IsError || r.Error.Kind != "plan" || !strings.Contains(r.Error.Message, "did you mean github.repos.repos (method get)?") ||
			!strings.Contains(r.Error.Message, `list_services(provider="github")`) {
			t.Fatalf("describe_resource %s: %+v", name, r.Error)
		}
	}
	r = c.Call(t, ctx, "list_resources", map[string]any{"service": "repo"})
	if !r.IsError || !strings.Contains(r.Error.Message, "did you mean github.repos?") {
		t.Fatalf("list_resources repo: %+v", r.Error)
	}
}

// The discovery tools take a provider-qualified name where it is
// unambiguous, the form list_resources itself prints (github.repos) and
// SQL reads (github.repos.repos, or with its method), and otherwise say
// the exact arguments to pass.
func TestDiscoveryTakesQualifiedNames(t *testing.T) {
	_, c := fakeClient(t)
	ctx := mcptest.Context(t)
	plain := c.Call(t, ctx, "list_resources", map[string]any{"provider": "github", "service": "repos"})
	if plain.IsError || !strings.Contains(plain.Text, "github.repos.repos") {
		t.Fatalf("list_resources repos: %+v", plain)
	}
	for _, args := range []map[string]any{
		{"service": "github.repos"},
		{"provider": "github", "service": "github.repos"},
		{"provider": "github.repos"},
		{"provider": "GitHub", "service": " Github.Repos "},
	} {
		r := c.Call(t, ctx, "list_resources", args)
		if r.IsError || r.Text != plain.Text {
			t.Errorf("list_resources %v: %+v; want the list of github.repos", args, r)
		}
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"service": "github.repos.repos"}, `describe_resource(resource="github.repos.repos")`},
		{map[string]any{"service": "repos.repos"}, `describe_resource(resource="github.repos.repos")`},
		{map[string]any{"provider": "nosuch", "service": "github.repos"}, `list_resources(provider="github", service="repos")`},
	} {
		r := c.Call(t, ctx, "list_resources", tc.args)
		if !r.IsError || r.Error.Kind != "usage" || !strings.Contains(r.Error.Message, tc.want) {
			t.Errorf("list_resources %v: %+v; want a usage error naming %s", tc.args, r.Error, tc.want)
		}
	}
	r := c.Call(t, ctx, "list_services", map[string]any{"provider": "github.repos"})
	if !r.IsError || !strings.Contains(r.Error.Message, `list_resources(provider="github", service="repos")`) {
		t.Errorf("list_services github.repos: %+v", r.Error)
	}
	want := c.Call(t, ctx, "describe_resource", map[string]any{"resource": "github.repos.repos"})
	for _, name := range []string{"repos.repos", "github.repos.repos.list_for_org"} {
		r := c.Call(t, ctx, "describe_resource", map[string]any{"resource": name})
		if r.IsError || want.IsError || r.Text != want.Text {
			t.Errorf("describe_resource %s: %+v", name, r)
		}
	}
}

// list_resources' filter is what its description says: a substring of
// the resource name (the last part), not of service.resource, so that
// filter=repos within service repos is the tables named *repos*, not the
// whole service; a filter with a dot matches the whole name.
func TestListResourcesFilterIsTheResourceName(t *testing.T) {
	_, c := fakeClient(t)
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
	_, c := fakeClient(t)
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
	fake, c := fakeClient(t)
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

// An agent's usual slips come back as plan errors that say what to
// write, before any request, the same words the CLI prints.
func TestHintsForAgentSlips(t *testing.T) {
	fake, c := fakeClient(t)
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

// describe_resource lists the values each key takes and its default,
// from the description (per method where they differ), and a value
// outside them is a plan error naming them, before any request.
func TestDescribeShowsKeyValues(t *testing.T) {
	fake, c := fakeClient(t)
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

// An agent that leaves out org reads the token's user's repositories (GET
// /user/repos): the result says so in notice and in the text's summary,
// with the keys to bind; a named method or a bound key says nothing.
func TestUnkeyedScopeNoticeOverMCP(t *testing.T) {
	_, c := fakeClient(t)
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
