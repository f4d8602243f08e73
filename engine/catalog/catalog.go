package catalog

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/openapi"
	"github.com/enginehq/engine/registry"
)

// Options configure a Catalog.
type Options struct {
	// Store keeps compiled indexes of OpenAPI documents (compiled.go);
	// nil compiles every document on each start.
	Store *registry.Store
	// Logf is the debug log (nil: none).
	Logf func(format string, args ...any)
	// Params are parameters set once per provider (the config's param
	// setting), by provider then the API's parameter name; they win over
	// the profile's params (providers.Header.PresetValues).
	Params map[string]map[string]string
	// Getenv reads the variables a profile's params name (nil: none read).
	Getenv func(string) string
}

// Catalog holds the provider sources and loads each on first use. It is
// safe for concurrent use.
type Catalog struct {
	mu      sync.Mutex
	sources map[string]registry.Source
	loaded  map[string]*providers.Provider
	store   *registry.Store                  // compiled indexes (nil: none)
	logf    func(format string, args ...any) // debug log (nil: none)
	origins map[string]Origin                // how each loaded OpenAPI provider was obtained
	params  map[string]map[string]string     // parameters set once (Options.Params)
	getenv  func(string) string
}

// New makes a catalog of sources (nil: registry.Embedded()); a later
// source overrides an earlier one of the same name. Nothing is loaded yet.
func New(sources []registry.Source, opts Options) *Catalog {
	if sources == nil {
		sources = registry.Embedded()
	}
	c := &Catalog{sources: map[string]registry.Source{}, loaded: map[string]*providers.Provider{}, store: opts.Store, logf: opts.Logf,
		params: opts.Params, getenv: opts.Getenv}
	for _, s := range sources {
		c.sources[s.Name] = s // later sources (--provider) override earlier ones
	}
	return c
}

// Names returns the provider names, sorted.
func (c *Catalog) Names() []string {
	out := make([]string, 0, len(c.sources))
	for n := range c.sources {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// IsProvider implements plan.Catalog.
func (c *Catalog) IsProvider(name string) bool {
	_, ok := c.sources[name]
	return ok
}

// Provider loads a provider (an index decodes only its header).
func (c *Catalog) Provider(name string) (*providers.Provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.loaded[name]; ok {
		return p, nil
	}
	src, ok := c.sources[name]
	if !ok {
		return nil, planError("provider", "unknown provider %q; known providers: %v", name, c.Names())
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
		var pe *openapi.ProfileError
		switch {
		case errors.As(err, &pe) && src.Profile != "":
			err = fmt.Errorf("%w; fix the profile %s or give another one for %s (docs/providers.md)", err, src.Profile, name)
		case errors.As(err, &pe):
			err = fmt.Errorf("%w; fix the profile or give another one for %s (docs/providers.md)", err, name)
		case src.Kind != registry.KindIndex:
			err = fmt.Errorf("%w; fix the OpenAPI document or give another one for %s", err, name)
		}
		return nil, &Error{Kind: "plan", Setting: "provider:" + name, Err: err}
	}
	p.Provider = name
	if why := trustCredentials(src, p); why != "" {
		c.debugf("provider %s: no credentials from the environment (%s); give them in the auth setting for %s", name, why, name)
	}
	p.SetPresets(p.PresetValues(c.params[name], c.getenv))
	c.loaded[name] = p
	return p, nil
}

// Resource implements plan.Catalog. A table it does not have is a
// *NotFound with the closest names (the planner returns it as is, and the
// engine words it as SQL), as Table's; for an unknown provider, the
// closest providers, else the table of the default provider its other
// parts name (repos.repos.get: github.repos.repos).
func (c *Catalog) Resource(provider, service, name string) (*providers.Resource, error) {
	if !c.IsProvider(provider) {
		nf := &NotFound{Provider: provider, Known: c.Names(), Suggestions: nearest(provider, c.Names())}
		if len(nf.Suggestions) == 0 {
			// service.resource.method with the provider left out
			// (repos.repos.list_for_org): the default provider's table.
			if short := c.ShortName([]string{provider, service}); short != nil {
				nf.Suggestions = short.Suggestions
			}
		}
		return nil, nf
	}
	return c.Table(provider, service, name)
}

// TablesWithColumn implements plan.ColumnFinder: the tables of the service
// whose rows have the column (decoded only on this error path).
func (c *Catalog) TablesWithColumn(provider, service, column string) []string {
	if !c.IsProvider(provider) {
		return nil
	}
	p, err := c.Provider(provider)
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
func (c *Catalog) TableWithMethod(provider, service, method string) string {
	if !c.IsProvider(provider) {
		return ""
	}
	p, err := c.Provider(provider)
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

// CheckEndpoints reports a base URL or auth entry of no provider.
func (c *Catalog) CheckEndpoints(baseURLs map[string]string, auth map[string]providers.AuthConfig) error {
	for name := range baseURLs {
		if !c.IsProvider(name) {
			return usageError("base-url", "base URL for %s: no such provider (known: %v)", name, c.Names())
		}
	}
	for name := range auth {
		if !c.IsProvider(name) {
			return usageError("auth", "auth for %s: no such provider (known: %v)", name, c.Names())
		}
	}
	for name := range c.params {
		if !c.IsProvider(name) {
			return usageError("param", "param for %s: no such provider (known: %v)", name, c.Names())
		}
	}
	return nil
}

// Credentials resolves the credentials of a provider's requests: auth's
// entry for it when there is one, else the token variables its definition
// may name (trust.go), read with getenv. It returns the loaded provider
// too, nil when it cannot be loaded (then err says why); a provider with
// credentials that cannot be resolved comes with that error.
func (c *Catalog) Credentials(name string, auth map[string]providers.AuthConfig, getenv func(string) string) (*providers.Provider, providers.Credentials, error) {
	p, err := c.Provider(name)
	if err != nil {
		return nil, providers.Credentials{}, err
	}
	var cfg *providers.AuthConfig
	if a, ok := auth[name]; ok {
		cfg = &a
	}
	creds, err := p.Credentials(cfg, getenv)
	return p, creds, err
}
