package mcpsurface_test

import (
	"strings"
	"testing"
)

func TestDiscoveryTools(t *testing.T) {
	e := newEnv(t, envOpts{})
	call := func(tool string, args map[string]any) string {
		t.Helper()
		r := e.c.Call(t, e.ctx, tool, args)
		if r.IsError {
			t.Fatalf("%s %v: %+v", tool, args, r.Error)
		}
		return r.Text
	}
	if s := call("list_providers", nil); !strings.HasPrefix(s, "name\tversion\tservices\tresources\ngithub\t") {
		t.Fatalf("list_providers: %q", s)
	}
	if s := call("list_services", map[string]any{"provider": "github"}); !strings.Contains(s, "\nrepos\t") {
		t.Fatalf("list_services: %q", s)
	}
	compact := call("list_resources", map[string]any{"provider": "github"})
	if !strings.Contains(compact, "\ngithub.repos: ") || !strings.Contains(compact, "pass service= or filter=") {
		t.Fatalf("list_resources (all) is not compact: %q", compact)
	}
	if n := strings.Count(compact, "\n"); n > 80 {
		t.Fatalf("compact listing has %d lines", n)
	}
	full := call("list_resources", map[string]any{"provider": "github", "service": "repos"})
	if !strings.Contains(full, "github.repos.repos\t") || !strings.HasPrefix(full, "table\tmethods\tsummary\n") {
		t.Fatalf("list_resources repos: %q", full)
	}
	if s := call("list_resources", map[string]any{"filter": "branch"}); !strings.Contains(s, "github.branches.branches") || strings.Contains(s, "github.repos.repos") {
		t.Fatalf("filter: %q", s)
	}
	d := call("describe_resource", map[string]any{"resource": "github.repos.repos"})
	for _, want := range []string{"list_for_org\torg\t", "\nname\tTEXT", "\nprivate\tBOOLEAN", "only some methods"} {
		if !strings.Contains(d, want) {
			t.Fatalf("describe lacks %q:\n%s", want, d)
		}
	}
	c := call("describe_resource", map[string]any{"resource": "github.repos.repos", "compact": true})
	if len(c) >= len(d) || !strings.Contains(c, "# columns: ") || strings.Contains(c, "TEXT") {
		t.Fatalf("compact describe: %q", c)
	}
	for tool, args := range map[string]map[string]any{
		"describe_resource": {"resource": "github.repos.nope"},
		"list_services":     {"provider": "nope"},
		"list_resources":    {"provider": "github", "service": "nope"},
	} {
		r := e.c.Call(t, e.ctx, tool, args)
		if !r.IsError || r.Error.Kind != "plan" {
			t.Fatalf("%s %v: %+v", tool, args, r)
		}
	}
	if e.apiRequests() != 0 {
		t.Fatal("discovery called the API")
	}
}

func TestToolsDeclared(t *testing.T) {
	e := newEnv(t, envOpts{})
	lt, err := e.c.S.ListTools(e.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range lt.Tools {
		names[tool.Name] = true
		a := tool.Annotations
		if a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || *a.DestructiveHint {
			t.Fatalf("%s: annotations %+v", tool.Name, a)
		}
		if *a.OpenWorldHint != (tool.Name == "run_select_query") {
			t.Fatalf("%s: openWorldHint %t", tool.Name, *a.OpenWorldHint)
		}
		limit := 220
		if tool.Name == "run_select_query" {
			limit = 700 // it carries the naming and WHERE rules and an example (test/mcp TestToolDescriptionsSelfSufficient)
		}
		if len(tool.Description) > limit {
			t.Fatalf("%s: description of %d chars", tool.Name, len(tool.Description))
		}
	}
	for _, n := range []string{"run_select_query", "fetch_result_page", "list_providers", "list_services", "list_resources", "describe_resource"} {
		if !names[n] {
			t.Fatalf("tool %s missing", n)
		}
	}
	ins := e.c.S.InitializeResult().Instructions
	if !strings.Contains(ins, "Push aggregation, filtering and joins into SQL") || len(ins) > 400 {
		t.Fatalf("instructions: %q", ins)
	}
}

func TestTokenLog(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.ok(t, acmeNames+" LIMIT 3")
	if l := e.log.String(); !strings.Contains(l, "tool=run_select_query status=ok bytes=") || !strings.Contains(l, "tokens=") {
		t.Fatalf("log: %q", l)
	}
}
