package catalog

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/enginehq/engine/providers"
)

// preferredDefault is the provider a discovery request that names none
// is about, when the catalog has it.
const preferredDefault = "github"

// DefaultProvider is the one default-provider rule of every surface: the
// provider a discovery request that names none is about is github when
// the catalog has it, else the first by name ("" for an empty catalog).
func (c *Catalog) DefaultProvider() string {
	names := c.Names()
	if slices.Contains(names, preferredDefault) {
		return preferredDefault
	}
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// Lookup loads the named provider, DefaultProvider when name is "". A
// name of no provider is a *NotFound listing the known ones.
func (c *Catalog) Lookup(name string) (*providers.Provider, error) {
	if name == "" {
		name = c.DefaultProvider()
	}
	if !c.IsProvider(name) {
		return nil, &NotFound{Provider: name, Known: c.Names(), Suggestions: nearest(name, c.Names())}
	}
	return c.Provider(name)
}

// ProviderInfo is one provider as discovery lists it.
type ProviderInfo struct {
	Name, Version       string
	Services, Resources int
}

// Providers lists the providers whose names keep accepts (nil: all), in
// name order, loading each; a cancelled ctx stops it with ctx's error.
func (c *Catalog) Providers(ctx context.Context, keep func(name string) bool) ([]ProviderInfo, error) {
	var out []ProviderInfo
	for _, n := range c.Names() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if keep != nil && !keep(n) {
			continue
		}
		p, err := c.Provider(n)
		if err != nil {
			return nil, err
		}
		out = append(out, ProviderInfo{Name: n, Version: p.Version, Services: len(p.Services()), Resources: len(p.Resources)})
	}
	return out, nil
}

// ServiceInfo is one service of a provider and its number of tables.
type ServiceInfo struct {
	Name      string
	Resources int
}

// Services lists the services of a provider (Lookup's rule for name), in
// name order.
func (c *Catalog) Services(provider string) ([]ServiceInfo, error) {
	p, err := c.Lookup(provider)
	if err != nil {
		return nil, err
	}
	count := p.ServiceResources()
	out := []ServiceInfo{}
	for _, s := range p.Services() {
		out = append(out, ServiceInfo{Name: s, Resources: count[s]})
	}
	return out, nil
}

// TableInfo is one table (resource) of a provider, from the index header:
// listing tables decodes none of them.
type TableInfo struct {
	Provider, Service, Name string
	// Methods is the number of the resource's methods.
	Methods int
}

// FullName is provider.service.resource.
func (t TableInfo) FullName() string { return t.Provider + "." + t.Service + "." + t.Name }

// Tables lists the tables of a provider (Lookup's rule for provider) in
// the index's order, only those of service unless it is "". A service the
// provider does not have is a *NotFound.
func (c *Catalog) Tables(provider, service string) ([]TableInfo, error) {
	p, err := c.Lookup(provider)
	if err != nil {
		return nil, err
	}
	out := []TableInfo{}
	seen := service == ""
	for _, r := range p.Resources {
		if service != "" && r.Service != service {
			continue
		}
		seen = true
		out = append(out, TableInfo{Provider: p.Provider, Service: r.Service, Name: r.Name, Methods: r.Methods})
	}
	if !seen {
		return nil, serviceNotFound(p, service)
	}
	return out, nil
}

// Table decodes one table of a provider (Lookup's rule for provider). A
// table the provider does not have is a *NotFound that tells whether its
// service exists.
func (c *Catalog) Table(provider, service, name string) (*providers.Resource, error) {
	p, err := c.Lookup(provider)
	if err != nil {
		return nil, err
	}
	r, err := p.Resource(service, name)
	if err == nil && r == nil {
		return nil, tableNotFound(p, service, name)
	}
	return r, err
}

// AnsweredName is the column of a body-less method's answer (the
// planner's plan.AnsweredName; a test keeps the two equal).
const AnsweredName = "ok"

// ColumnInfo is one column of a resource: its type (as the first method
// that returns it declares it) and the methods that return it.
type ColumnInfo struct {
	Name, Type string
	// API is the API's spelling of the name when it differs (createdAt
	// read as createdAt_2 beside a CreatedAt), else "".
	API     string
	Methods []string
	// Note describes a column the engine adds (value, ok); "" for the
	// provider's columns, whose descriptions are in Resource.Docs.
	Note string
}

// ResourceColumns is the union of the columns of methods, sorted by name:
// what DESCRIBE and the MCP describe_resource tool list. It includes the
// columns the engine adds: value (whole items that are not objects with
// properties) and ok (a body-less answer read without bound keys).
func ResourceColumns(methods []*providers.Method) []ColumnInfo {
	at := map[string]int{}
	var out []ColumnInfo
	add := func(m *providers.Method, c providers.Column, note string) {
		i, ok := at[c.Name]
		if !ok {
			i = len(out)
			at[c.Name] = i
			out = append(out, ColumnInfo{Name: c.Name, Type: c.Type, API: c.API, Note: note})
		}
		out[i].Methods = append(out[i].Methods, m.Name)
	}
	for _, m := range methods {
		for _, c := range m.Columns {
			add(m, c, "")
		}
		if m.ValueColumn() {
			add(m, providers.Column{Name: providers.ValueName, Type: m.ValueColumnType()}, valueNote)
		}
		if m.Shape == providers.ShapeNone && len(m.Required()) == 0 {
			add(m, providers.Column{Name: AnsweredName, Type: providers.TypeBoolean}, answeredNote)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Descriptions of the columns the engine adds.
const (
	valueNote    = "Each item whole (the items are not objects with properties)."
	answeredNote = "True: the provider answered 2xx (the method has no body); present when no key is bound."
)

// APINote prefixes a description with the API's spelling of a name when
// its SQL name differs (createdat is the API's createdAt).
func APINote(api, doc string) string {
	if api == "" {
		return doc
	}
	note := "API name: " + api + "."
	if doc != "" {
		note += " " + doc
	}
	return note
}

// KeyValues describes the values the key (parameter) name takes in
// methods, from the description: "One of open, closed, all (default
// open)." When the methods that take it disagree, each group of methods
// is named before its values. "" when no method declares values or a
// default for it. DESCRIBE and the MCP describe_resource tool show it.
func KeyValues(methods []*providers.Method, name string) string {
	type group struct {
		text    string
		methods []string
	}
	var groups []*group
	takes := 0
	for _, m := range methods {
		i := slices.IndexFunc(m.Params, func(p providers.Param) bool { return p.Name == name })
		if i < 0 {
			continue
		}
		takes++
		text := paramValues(m.Params[i])
		if text == "" {
			continue
		}
		g := slices.IndexFunc(groups, func(g *group) bool { return g.text == text })
		if g < 0 {
			groups = append(groups, &group{text: text})
			g = len(groups) - 1
		}
		groups[g].methods = append(groups[g].methods, m.Name)
	}
	switch {
	case len(groups) == 0:
		return ""
	case len(groups) == 1 && len(groups[0].methods) == takes:
		return strings.ToUpper(groups[0].text[:1]) + groups[0].text[1:] + "."
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = strings.Join(g.methods, ", ") + ": " + g.text
	}
	return strings.Join(parts, "; ") + "."
}

// paramValues is "one of a, b (default a)" for one parameter, "default
// a" without an enum, or "".
func paramValues(p providers.Param) string {
	switch {
	case len(p.Enum) > 0 && p.Default != "":
		return "one of " + strings.Join(p.Enum, ", ") + " (default " + p.Default + ")"
	case len(p.Enum) > 0:
		return "one of " + strings.Join(p.Enum, ", ")
	case p.Default != "":
		return "default " + p.Default
	}
	return ""
}
