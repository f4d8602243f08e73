package mcp_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// Bad tool arguments are kind usage (docs/reliability.md, "Error kinds of bad arguments"): an unknown or expired
// result_id, a negative offset, a resource name that is not
// provider.service.resource. A name that matches no provider, service or
// table stays kind plan, as the same name in SQL is. No request is made.
func TestArgumentErrorsAreUsage(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
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
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
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
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
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
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
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
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
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
