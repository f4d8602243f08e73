package mcp_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

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
