package engine

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

// catalog holds the provider sources and loads each on first use.
type catalog struct {
	mu      sync.Mutex
	sources map[string]registry.Source
	loaded  map[string]*providers.Provider
	store   *registry.Store                  // compiled indexes (nil: none)
	logf    func(format string, args ...any) // debug log (nil: none)
	origins map[string]Origin                // how each loaded OpenAPI provider was obtained
}

func newCatalog(sources []registry.Source) *catalog {
	c := &catalog{sources: map[string]registry.Source{}, loaded: map[string]*providers.Provider{}}
	for _, s := range sources {
		c.sources[s.Name] = s // later sources (--provider) override earlier ones
	}
	return c
}

// names returns the provider names, sorted.
func (c *catalog) names() []string {
	out := make([]string, 0, len(c.sources))
	for n := range c.sources {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// IsProvider implements plan.Catalog.
func (c *catalog) IsProvider(name string) bool {
	_, ok := c.sources[name]
	return ok
}

// provider loads a provider (an index decodes only its header).
func (c *catalog) provider(name string) (*providers.Provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.loaded[name]; ok {
		return p, nil
	}
	src, ok := c.sources[name]
	if !ok {
		return nil, &Error{Kind: KindPlan, Setting: "provider", Pos: -1, Err: fmt.Errorf("unknown provider %q; known providers: %v", name, c.names())}
	}
	var p *providers.Provider
	var err error
	if src.Kind == registry.KindIndex {
		var data []byte
		if data, err = src.Data(); err == nil {
			p, err = providers.Decode(data)
		}
	} else {
		p, err = c.loadOpenAPI(src)
	}
	if err != nil {
		// A document that cannot be used is a problem with the user's
		// input (exit 1), said once: the loader's messages already name
		// the provider.
		if !strings.HasPrefix(err.Error(), "provider "+name+":") {
			err = fmt.Errorf("provider %s: %w", name, err)
		}
		if src.Kind != registry.KindIndex {
			err = fmt.Errorf("%w; fix the OpenAPI document or give another one for %s", err, name)
		}
		return nil, &Error{Kind: KindPlan, Setting: "provider:" + name, Err: err}
	}
	p.Provider = name
	if why := trustCredentials(src, p); why != "" {
		c.debugf("provider %s: no credentials from the environment (%s); give them in the auth setting for %s", name, why, name)
	}
	c.loaded[name] = p
	return p, nil
}

// Resource implements plan.Catalog.
func (c *catalog) Resource(provider, service, name string) (*providers.Resource, error) {
	if !c.IsProvider(provider) {
		return nil, nil
	}
	p, err := c.provider(provider)
	if err != nil {
		return nil, err
	}
	return p.Resource(service, name)
}

// TablesWithColumn implements plan.ColumnFinder: the tables of the service
// whose rows have the column (decoded only on this error path).
func (c *catalog) TablesWithColumn(provider, service, column string) []string {
	if !c.IsProvider(provider) {
		return nil
	}
	p, err := c.provider(provider)
	if err != nil {
		return nil
	}
	var out []string
	for _, info := range p.Resources {
		if info.Service != service {
			continue
		}
		r, err := p.Resource(info.Service, info.Name)
		if err != nil || r == nil {
			continue
		}
		for _, m := range r.Methods {
			if m.Column(column) != nil {
				out = append(out, r.FullName())
				break
			}
		}
	}
	return out
}

// TableWithMethod implements plan.ColumnFinder.
func (c *catalog) TableWithMethod(provider, service, method string) string {
	if !c.IsProvider(provider) {
		return ""
	}
	p, err := c.provider(provider)
	if err != nil {
		return ""
	}
	for _, info := range p.Resources {
		if info.Service != service {
			continue
		}
		if r, err := p.Resource(info.Service, info.Name); err == nil && r != nil && r.Method(method) != nil {
			return r.FullName()
		}
	}
	return ""
}
