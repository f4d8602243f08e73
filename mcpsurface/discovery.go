package mcpsurface

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/catalog"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
)

// compactOver is the resource count above which list_resources answers
// with one line per service instead of one line per resource, unless a
// service was asked for: a service's list always has its summaries.
const compactOver = 40

// The provider arguments say catalog.DefaultProvider's rule in one
// wording (a tag cannot name a constant; TestToolSnaps shows both).
type providerInput struct {
	Provider string `json:"provider,omitempty" jsonschema:"provider name (default: github when the server has it, else the first by name)"`
}

type resourcesInput struct {
	Provider string `json:"provider,omitempty" jsonschema:"provider name (default: github when the server has it, else the first by name)"`
	Service  string `json:"service,omitempty" jsonschema:"only this service"`
	Filter   string `json:"filter,omitempty" jsonschema:"case-insensitive substring of the resource name, the last part of provider.service.resource (filter=runs); with a dot, of the whole name (filter=repos.act)"`
}

type describeInput struct {
	Resource string `json:"resource" jsonschema:"provider.service.resource, e.g. github.repos.repos, or a view's name"`
	Compact  bool   `json:"compact,omitempty" jsonschema:"column names only, no types"`
}

func (s *Server) addDiscoveryTools() {
	addTextTool(s, &mcp.Tool{Name: "list_providers", Description: "List providers (TSV: name, version, services, resources).",
		Annotations: annotations("List providers", false)}, s.listProviders)
	addTextTool(s, &mcp.Tool{Name: "list_services", Description: "List a provider's services with their resource counts (TSV).",
		Annotations: annotations("List services", false)}, s.listServices)
	addTextTool(s, &mcp.Tool{Name: "list_resources", Description: "List a provider's tables (provider.service.resource) with summaries; without service or filter, names only per service when many.",
		Annotations: annotations("List resources", false)}, s.listResources)
	addTextTool(s, &mcp.Tool{Name: "describe_resource", Description: "Describe a table: columns and types, the WHERE keys each method requires, optional pushable keys.",
		Annotations: annotations("Describe a resource", false)}, s.describe)
}

// planErrorf is a discovery argument that names no known provider,
// service or table: kind plan, as the same name in SQL would be.
func planErrorf(format string, args ...any) error {
	return engine.Errorf(engine.KindPlan, format, args...)
}

// catalog is the engine's catalog, for a request that is not cancelled:
// a cancelled request loads nothing.
func (s *Server) catalog(ctx context.Context) (*catalog.Catalog, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.eng.Catalog(), nil
}

// lookup returns the named provider (catalog.Lookup: default
// DefaultProvider), phrasing an unknown name for the agent.
func (s *Server) lookup(ctx context.Context, name string) (*providers.Provider, error) {
	cat, err := s.catalog(ctx)
	if err != nil {
		return nil, err
	}
	name = strings.ToLower(strings.TrimSpace(name))
	p, err := cat.Lookup(name)
	if prov, svc, ok := strings.Cut(name, "."); ok && err != nil && cat.IsProvider(prov) {
		return nil, usageErrorf("provider %q names a service of %s: the provider is %q (list_resources(provider=%q, service=%q) lists that service's tables)", name, prov, prov, prov, svc)
	}
	return p, s.phrase(err)
}

// phrase words the catalog's not-found errors as the tools to call,
// after the closest names (catalog.NotFound.DidYouMean).
func (s *Server) phrase(err error) error {
	nf, dym, ok := catalog.AsNotFound(err)
	if !ok {
		return err
	}
	switch {
	case nf.Table != "" && !nf.ServiceKnown:
		return planErrorf("unknown table %s.%s.%s: provider %s has no service %q;%s list_services(provider=%q) lists its services", nf.Provider, nf.Service, nf.Table, nf.Provider, nf.Service, dym, nf.Provider)
	case nf.Table != "":
		return planErrorf("unknown table %s.%s.%s;%s list_resources(provider=%q, service=%q) lists the tables of %s.%s", nf.Provider, nf.Service, nf.Table, dym, nf.Provider, nf.Service, nf.Provider, nf.Service)
	case nf.Service != "":
		return planErrorf("provider %s has no service %q;%s list_services lists them", nf.Provider, nf.Service, dym)
	}
	return planErrorf("unknown provider %q;%s known: %s", nf.Provider, dym, strings.Join(nf.Known, ", "))
}

// qualified reads a service argument that may carry its provider
// (github.repos, as list_resources prints it) or name a table
// (github.repos.repos, repos.repos): it returns the provider and service
// to list. A qualified form is taken when it is unambiguous (its first
// part is a provider, and the provider argument is empty or the same);
// otherwise the error says the exact arguments to pass.
func qualified(cat *catalog.Catalog, provider, service string) (string, string, error) {
	if p, svc, ok := strings.Cut(provider, "."); ok && cat.IsProvider(p) && !strings.Contains(svc, ".") && (service == "" || service == svc) {
		provider, service = p, svc // provider=github.repos
	}
	parts := strings.Split(service, ".")
	if len(parts) == 1 {
		return provider, service, nil
	}
	if cat.IsProvider(parts[0]) && provider != "" && provider != parts[0] {
		return "", "", usageErrorf("service %q names provider %s but provider is %q: pass list_resources(provider=%q, service=%q)", service, parts[0], provider, parts[0], parts[1])
	}
	if cat.IsProvider(parts[0]) {
		if len(parts) == 2 {
			return parts[0], parts[1], nil
		}
		provider, parts = parts[0], parts[1:]
	}
	if provider == "" {
		provider = cat.DefaultProvider()
	}
	if len(parts) == 2 {
		return "", "", usageErrorf("service %q names a table, not a service: describe_resource(resource=%q) describes it; list_resources(provider=%q, service=%q) lists its service", service, provider+"."+strings.Join(parts, "."), provider, parts[0])
	}
	return "", "", usageErrorf("service %q: pass the provider and the service apart, e.g. list_resources(provider=%q, service=%q)", service, provider, parts[len(parts)-1])
}

func (s *Server) listProviders(ctx context.Context, _ struct{}) (string, error) {
	var b strings.Builder
	b.WriteString("name\tversion\tservices\tresources\n")
	ps, err := s.eng.Catalog().Providers(ctx, nil)
	if err != nil {
		return "", err
	}
	for _, p := range ps {
		fmt.Fprintf(&b, "%s\t%s\t%d\t%d\n", p.Name, p.Version, p.Services, p.Resources)
	}
	return b.String(), nil
}

func (s *Server) listServices(ctx context.Context, in providerInput) (string, error) {
	p, err := s.lookup(ctx, in.Provider)
	if err != nil {
		return "", err
	}
	ss, err := s.eng.Catalog().Services(p.Provider)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("service\tresources\n")
	for _, sv := range ss {
		fmt.Fprintf(&b, "%s\t%d\n", sv.Name, sv.Resources)
	}
	fmt.Fprintf(&b, "# %d services; list_resources(provider=%q, service=...) lists tables", len(ss), p.Provider)
	return b.String(), nil
}

func (s *Server) listResources(ctx context.Context, in resourcesInput) (string, error) {
	cat, err := s.catalog(ctx)
	if err != nil {
		return "", err
	}
	provider, svc, err := qualified(cat, strings.ToLower(strings.TrimSpace(in.Provider)), strings.ToLower(strings.TrimSpace(in.Service)))
	if err != nil {
		return "", err
	}
	p, err := s.lookup(ctx, provider)
	if err != nil {
		return "", err
	}
	filter := strings.ToLower(strings.TrimSpace(in.Filter))
	tables, err := s.eng.Catalog().Tables(p.Provider, svc)
	if err != nil {
		return "", s.phrase(err)
	}
	var match []catalog.TableInfo
	for _, t := range tables {
		if filterMatches(t, filter) {
			match = append(match, t)
		}
	}
	var b strings.Builder
	if len(match) > compactOver && svc == "" {
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
		hint := "pass service= or filter= for a list with summaries"
		if filter != "" {
			hint = "pass service= too for a list with summaries"
		}
		fmt.Fprintf(&b, "# %d tables in %d services (provider.service: resource names); %s, describe_resource for columns", len(match), len(svcs), hint)
		s.listViews(&b, svc, filter)
		return b.String(), nil
	}
	b.WriteString("table\tmethods\tsummary\n")
	for _, t := range match {
		summary := ""
		if res, err := p.Resource(t.Service, t.Name); err == nil && res != nil {
			summary = res.Summary
		}
		fmt.Fprintf(&b, "%s\t%d\t%s\n", t.FullName(), t.Methods, tsvCell(summary))
	}
	fmt.Fprintf(&b, "# %s; describe_resource shows columns and required WHERE keys", result.Plural(len(match), "table"))
	s.listViews(&b, svc, filter)
	return b.String(), nil
}

// listViews adds the views (engine.Views: CREATE VIEW in exec or the
// shell, or declared by the server's caller) to list_resources' answer,
// when no service is asked for, those whose name holds the filter (a
// filter with a dot is a table's): a block of its own, "view\tquery",
// read with run_select_query.
func (s *Server) listViews(b *strings.Builder, svc, filter string) {
	if svc != "" || strings.Contains(filter, ".") {
		return
	}
	views, _ := s.eng.Views()
	var match []engine.View
	for _, v := range views {
		if strings.Contains(v.Name, filter) {
			match = append(match, v)
		}
	}
	if len(match) == 0 {
		return
	}
	b.WriteString("\nview\tquery\n")
	for _, v := range match {
		fmt.Fprintf(b, "%s\t%s\n", v.Name, tsvCell(strings.Join(strings.Fields(v.Query), " ")))
	}
	fmt.Fprintf(b, "# %s: SELECT ... FROM name, a WHERE key of its table on its column binds through (run_select_query DESCRIBE name lists them)", result.Plural(len(match), "view"))
}

// filterMatches is list_resources' filter rule: a case-insensitive
// substring (filter is lower case) of the resource name, the last part
// of the table's name; a filter with a dot is one of the whole name,
// provider.service.resource.
func filterMatches(t catalog.TableInfo, filter string) bool {
	if filter == "" {
		return true
	}
	if strings.Contains(filter, ".") {
		return strings.Contains(strings.ToLower(t.FullName()), filter)
	}
	return strings.Contains(strings.ToLower(t.Name), filter)
}

// describeView describes a view (list_resources lists them) as DESCRIBE
// does: its query, then its columns and the keys that bind through it.
func (s *Server) describeView(ctx context.Context, name string) (string, error) {
	views, _ := s.eng.Views()
	for _, v := range views {
		if !strings.EqualFold(v.Name, name) {
			continue
		}
		res, err := s.eng.Query(ctx, "DESCRIBE `"+strings.ReplaceAll(v.Name, "`", "``")+"`", engine.QueryOptions{})
		if err != nil {
			return "", err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# view %s: %s\n", v.Name, tsvCell(strings.Join(strings.Fields(v.Query), " ")))
		b.WriteString(result.TSVHeader(res.Columns) + "\n")
		for _, row := range res.Rows {
			b.WriteString(result.TSVRow(res.Columns, row) + "\n")
		}
		return b.String(), nil
	}
	return "", usageErrorf("resource %q: expected provider.service.resource (e.g. github.repos.repos), or the name of a view (list_resources lists both)", name)
}

func (s *Server) describe(ctx context.Context, in describeInput) (string, error) {
	cat, err := s.catalog(ctx)
	if err != nil {
		return "", err
	}
	parts := providers.SplitName(in.Resource)
	if len(parts) == 2 && cat.IsProvider(parts[0]) {
		// provider.service: a service, not a table.
		next := fmt.Sprintf("list_resources(provider=%q, service=%q) lists its tables", parts[0], parts[1])
		if _, err := cat.Tables(parts[0], parts[1]); err != nil {
			if !errors.As(err, new(*catalog.NotFound)) {
				return "", err
			}
			next = fmt.Sprintf("%s has no service %q: list_services(provider=%q) lists them", parts[0], parts[1], parts[0])
		}
		return "", usageErrorf("resource %q names a service, not a table: a table name has three parts, provider.service.resource (e.g. github.repos.repos); %s", in.Resource, next)
	}
	if len(parts) == 1 {
		return s.describeView(ctx, in.Resource)
	}
	if len(parts) == 2 {
		parts = append([]string{""}, parts...)
	}
	if len(parts) == 4 && cat.IsProvider(parts[0]) {
		parts = parts[:3] // provider.service.resource.method, as SQL reads it: its table
	}
	if len(parts) != 3 {
		return "", usageErrorf("resource %q: expected provider.service.resource, e.g. github.repos.repos", in.Resource)
	}
	p, err := s.lookup(ctx, parts[0])
	if err != nil {
		return "", err
	}
	r, err := cat.Table(p.Provider, parts[1], parts[2])
	if err != nil {
		return "", s.phrase(err)
	}
	var b strings.Builder
	if r.Summary != "" {
		fmt.Fprintf(&b, "# %s: %s\n", r.FullName(), r.Summary)
	}
	fmt.Fprintf(&b, "# %s: bind every required key of one method in WHERE (= or IN); optional keys in WHERE are pushed to the API\n", r.FullName())
	b.WriteString("method\trequired\toptional\tsummary\n")
	for _, m := range r.Methods {
		req, opt := m.ParamNames()
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", m.Name, strings.Join(req, ", "), strings.Join(opt, ", "), tsvCell(m.Summary))
	}
	writeKeyValues(&b, r.Methods)
	cols := catalog.ResourceColumns(r.Methods)
	if in.Compact {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c.Name
		}
		fmt.Fprintf(&b, "# columns: %s", strings.Join(names, ", "))
		return b.String(), nil
	}
	b.WriteString("\ncolumn\ttype\tdescription\n")
	for _, c := range cols {
		t := c.Type
		if len(c.Methods) < len(r.Methods) {
			t += " *"
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", c.Name, t, tsvCell(catalog.APINote(c.API, cmp.Or(r.Docs[c.Name], c.Note))))
	}
	fmt.Fprintf(&b, "# %d columns (* only some methods return it); JSON columns hold JSON text, a string with its quotes (json_extract works; x ->> '$' reads a string), BOOLEAN shows as true/false and is 1/0 in SQL (WHERE x, x = TRUE or x = 1; never x = 'true')", len(cols))
	return b.String(), nil
}

// writeKeyValues lists the keys whose values the description declares
// (an enum, a default), with them: a value outside the enum is refused.
func writeKeyValues(b *strings.Builder, methods []*providers.Method) {
	var names []string
	for _, m := range methods {
		for _, p := range m.Params {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	slices.Sort(names)
	head := false
	for _, n := range names {
		v := catalog.KeyValues(methods, n)
		if v == "" {
			continue
		}
		if !head {
			b.WriteString("\nkey\tvalues (an unbound key takes its default; a value outside the list is refused)\n")
			head = true
		}
		fmt.Fprintf(b, "%s\t%s\n", n, tsvCell(v))
	}
}

// tsvCell keeps a description on one TSV cell.
func tsvCell(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}
