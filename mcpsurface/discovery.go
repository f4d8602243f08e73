package mcpsurface

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/providers"
)

// compactOver is the resource count above which list_resources answers
// with one line per service instead of one line per resource.
const compactOver = 40

type providerInput struct {
	Provider string `json:"provider,omitempty" jsonschema:"provider name (default: the only or first provider)"`
}

type resourcesInput struct {
	Provider string `json:"provider,omitempty" jsonschema:"provider name (default: the first provider)"`
	Service  string `json:"service,omitempty" jsonschema:"only this service"`
	Filter   string `json:"filter,omitempty" jsonschema:"case-insensitive substring of the resource name"`
}

type describeInput struct {
	Resource string `json:"resource" jsonschema:"provider.service.resource, e.g. github.repos.repos"`
	Compact  bool   `json:"compact,omitempty" jsonschema:"column names only, no types"`
}

func (s *Server) addDiscoveryTools() {
	text := func(name string, f func(context.Context) (string, *engine.ErrorBody)) (*mcp.CallToolResult, any, error) {
		t, eb := f(context.Background())
		var res *mcp.CallToolResult
		var out any
		if eb != nil {
			res, out = s.errorResult(*eb)
			res.StructuredContent = out
		} else {
			res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t}}}
		}
		s.logResult(name, res, "")
		return res, out, nil
	}
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "list_providers", Description: "List providers (TSV: name, version, services, resources).",
		Annotations: annotations("List providers", false)},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return text("list_providers", func(context.Context) (string, *engine.ErrorBody) { return s.listProviders() })
		})
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "list_services", Description: "List a provider's services with their resource counts (TSV).",
		Annotations: annotations("List services", false)},
		func(ctx context.Context, _ *mcp.CallToolRequest, in providerInput) (*mcp.CallToolResult, any, error) {
			return text("list_services", func(context.Context) (string, *engine.ErrorBody) { return s.listServices(in.Provider) })
		})
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "list_resources", Description: "List a provider's tables (provider.service.resource); compact per-service summary when many.",
		Annotations: annotations("List resources", false)},
		func(ctx context.Context, _ *mcp.CallToolRequest, in resourcesInput) (*mcp.CallToolResult, any, error) {
			return text("list_resources", func(context.Context) (string, *engine.ErrorBody) { return s.listResources(in) })
		})
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "describe_resource", Description: "Describe a table: columns and types, the WHERE keys each method requires, optional pushable keys.",
		Annotations: annotations("Describe a resource", false)},
		func(ctx context.Context, _ *mcp.CallToolRequest, in describeInput) (*mcp.CallToolResult, any, error) {
			return text("describe_resource", func(context.Context) (string, *engine.ErrorBody) { return s.describe(in) })
		})
}

func planErr(format string, args ...any) *engine.ErrorBody {
	b := usageError(engine.KindPlan, fmt.Sprintf(format, args...))
	return &b
}

func (s *Server) provider(name string) (*providers.Provider, *engine.ErrorBody) {
	names := s.eng.ProviderNames()
	if name == "" && len(names) > 0 {
		name = names[0]
		for _, n := range names {
			if n == "github" {
				name = n
			}
		}
	}
	name = strings.ToLower(strings.TrimSpace(name))
	for _, n := range names {
		if n == name {
			p, err := s.eng.Provider(n)
			if err != nil {
				b := engineError(err)
				return nil, &b
			}
			return p, nil
		}
	}
	return nil, planErr("unknown provider %q (known: %s)", name, strings.Join(names, ", "))
}

func (s *Server) listProviders() (string, *engine.ErrorBody) {
	var b strings.Builder
	b.WriteString("name\tversion\tservices\tresources\n")
	for _, n := range s.eng.ProviderNames() {
		p, eb := s.provider(n)
		if eb != nil {
			return "", eb
		}
		fmt.Fprintf(&b, "%s\t%s\t%d\t%d\n", n, p.Version, len(p.Services()), len(p.Resources))
	}
	return b.String(), nil
}

func (s *Server) listServices(provider string) (string, *engine.ErrorBody) {
	p, eb := s.provider(provider)
	if eb != nil {
		return "", eb
	}
	count := map[string]int{}
	for _, r := range p.Resources {
		count[r.Service]++
	}
	var b strings.Builder
	b.WriteString("service\tresources\n")
	for _, sv := range p.Services() {
		fmt.Fprintf(&b, "%s\t%d\n", sv, count[sv])
	}
	fmt.Fprintf(&b, "# %d services; list_resources(provider=%q, service=...) lists tables", len(p.Services()), p.Provider)
	return b.String(), nil
}

func (s *Server) listResources(in resourcesInput) (string, *engine.ErrorBody) {
	p, eb := s.provider(in.Provider)
	if eb != nil {
		return "", eb
	}
	svc := strings.ToLower(strings.TrimSpace(in.Service))
	filter := strings.ToLower(strings.TrimSpace(in.Filter))
	var match []providers.ResourceInfo
	seen := false
	for _, r := range p.Resources {
		if svc != "" && r.Service != svc {
			continue
		}
		seen = true
		if filter == "" || strings.Contains(r.Service+"."+r.Name, filter) {
			match = append(match, r)
		}
	}
	if svc != "" && !seen {
		return "", planErr("provider %s has no service %q; list_services lists them", p.Provider, svc)
	}
	var b strings.Builder
	if len(match) > compactOver {
		bySvc := map[string][]string{}
		var svcs []string
		for _, r := range match {
			if bySvc[r.Service] == nil {
				svcs = append(svcs, r.Service)
			}
			bySvc[r.Service] = append(bySvc[r.Service], r.Name)
		}
		sort.Strings(svcs)
		for _, sv := range svcs {
			fmt.Fprintf(&b, "%s.%s: %s\n", p.Provider, sv, strings.Join(bySvc[sv], ", "))
		}
		fmt.Fprintf(&b, "# %d tables in %d services (provider.service: resource names); pass service= or filter= for a list, describe_resource for columns", len(match), len(svcs))
		return b.String(), nil
	}
	b.WriteString("table\tmethods\tsummary\n")
	for _, r := range match {
		summary := ""
		if res, err := p.Resource(r.Service, r.Name); err == nil && res != nil {
			summary = res.Summary
		}
		fmt.Fprintf(&b, "%s.%s.%s\t%d\t%s\n", p.Provider, r.Service, r.Name, r.Methods, tsvCell(summary))
	}
	fmt.Fprintf(&b, "# %s; describe_resource shows columns and required WHERE keys", plural(len(match), "table"))
	return b.String(), nil
}

func (s *Server) describe(in describeInput) (string, *engine.ErrorBody) {
	parts := providers.SplitName(in.Resource)
	if len(parts) == 2 {
		parts = append([]string{""}, parts...)
	}
	if len(parts) != 3 {
		return "", planErr("resource %q: expected provider.service.resource, e.g. github.repos.repos", in.Resource)
	}
	p, eb := s.provider(parts[0])
	if eb != nil {
		return "", eb
	}
	r, err := p.Resource(parts[1], parts[2])
	if err != nil {
		b := engineError(err)
		return "", &b
	}
	if r == nil {
		return "", planErr("unknown table %s.%s.%s; list_resources(service=%q) lists them", p.Provider, parts[1], parts[2], parts[1])
	}
	var b strings.Builder
	if r.Summary != "" {
		fmt.Fprintf(&b, "# %s: %s\n", r.FullName(), r.Summary)
	}
	fmt.Fprintf(&b, "# %s: bind every required key of one method in WHERE (= or IN); optional keys in WHERE are pushed to the API\n", r.FullName())
	b.WriteString("method\trequired\toptional\n")
	type colInfo struct {
		typ string
		api string // the API's spelling when it differs (createdAt)
		n   int
	}
	cols := map[string]*colInfo{}
	var names []string
	for _, m := range r.Methods {
		req, opt := m.ParamNames()
		fmt.Fprintf(&b, "%s\t%s\t%s\n", m.Name, strings.Join(req, ", "), strings.Join(opt, ", "))
		for _, c := range m.Columns {
			if cols[c.Name] == nil {
				cols[c.Name] = &colInfo{typ: c.Type, api: c.API}
				names = append(names, c.Name)
			}
			cols[c.Name].n++
		}
	}
	sort.Strings(names)
	if in.Compact {
		fmt.Fprintf(&b, "# columns: %s", strings.Join(names, ", "))
		return b.String(), nil
	}
	b.WriteString("\ncolumn\ttype\tdescription\n")
	for _, n := range names {
		t := cols[n].typ
		if cols[n].n < len(r.Methods) {
			t += " *"
		}
		d := r.Docs[n]
		if api := cols[n].api; api != "" {
			d = strings.TrimSpace("API name: " + api + ". " + d)
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", n, t, tsvCell(d))
	}
	fmt.Fprintf(&b, "# %d columns (* only some methods return it); JSON columns hold JSON text (json_extract works), BOOLEAN is 0/1", len(names))
	return b.String(), nil
}

// tsvCell keeps a description on one TSV cell.
func tsvCell(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}
