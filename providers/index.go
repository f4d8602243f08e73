package providers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
)

// Header is the first line of an index: what a provider is and where each
// resource's line starts. Decoding it is all a cold start pays for; a
// resource's methods are decoded on first use.
type Header struct {
	Format   int    `json:"format"`
	Provider string `json:"provider"`
	Version  string `json:"version"`
	BaseURL  string `json:"base_url"`
	// TokenEnv lists environment variables read, in order, for a bearer
	// token when no explicit auth is configured.
	TokenEnv []string `json:"token_env,omitempty"`
	// Headers are sent with every request (e.g. API version pins).
	Headers map[string]string `json:"headers,omitempty"`
	// Security is the description's security schemes the engine can send
	// (security.go); nil: none.
	Security *Security `json:"security,omitempty"`
	// Params are the profile's parameters set once for every method
	// that takes them (Xero's xero-tenant-id), by the API's name
	// (presets.go).
	Params map[string]ParamPreset `json:"params,omitempty"`
	// Profile is the run-time part of the provider's profile (error
	// message fields, rate-limit headers, the "error in a 200" rule); nil
	// means the generic defaults.
	Profile *Profile `json:"profile,omitempty"`
	// Skipped lists the document's GET operations that are not tables,
	// each with the reason (e.g. a download, or a GET that changes state),
	// so that `engine registry list --verbose` can show what was left out.
	Skipped   []SkippedMethod `json:"skipped,omitempty"`
	Resources []ResourceInfo  `json:"resources"`
}

// SkippedMethod is one GET operation of a document that is not a table.
type SkippedMethod struct {
	OperationID string `json:"op,omitempty"`
	Path        string `json:"path"`
	Reason      string `json:"reason"`
}

// IndexFormat is the version of the index encoding. Format 2: absences are
// rules (status and message), methods may carry an incomplete flag.
// Format 3: the header carries the provider's profile, methods their
// paging, parameters and columns the API's spelling when it differs.
const IndexFormat = 3

// Provider is a loaded provider definition. It is safe for concurrent use.
type Provider struct {
	Header

	lines [][]byte // one encoded resource per entry, parallel to Resources

	mu      sync.Mutex
	cache   map[string]*Resource
	presets map[string]string // parameters set once (presets.go)
}

// Name returns the provider name.
func (p *Provider) Name() string { return p.Provider }

// Encode writes the index for a provider: a header line, then one JSON line
// per resource in Header.Resources order. resources are sorted first.
func Encode(h Header, resources []*Resource) ([]byte, error) {
	sortResources(resources)
	h.Format = IndexFormat
	h.Resources = h.Resources[:0]
	var body bytes.Buffer
	for _, r := range resources {
		r.Provider = h.Provider
		h.Resources = append(h.Resources, ResourceInfo{Service: r.Service, Name: r.Name, Methods: len(r.Methods)})
		line, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		body.Write(line)
		body.WriteByte('\n')
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(head)
	out.WriteByte('\n')
	out.Write(body.Bytes())
	return out.Bytes(), nil
}

// Decode opens an encoded index. Only the header is parsed; resource lines
// are split but not decoded.
func Decode(data []byte) (*Provider, error) {
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return nil, fmt.Errorf("provider index: no header line")
	}
	p := &Provider{cache: map[string]*Resource{}}
	if err := json.Unmarshal(data[:nl], &p.Header); err != nil {
		return nil, fmt.Errorf("provider index header: %w", err)
	}
	if p.Format != IndexFormat {
		return nil, fmt.Errorf("provider index %s: format %d, this engine reads format %d; regenerate it", p.Provider, p.Format, IndexFormat)
	}
	rest := data[nl+1:]
	p.lines = make([][]byte, 0, len(p.Resources))
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			i = len(rest)
		}
		p.lines = append(p.lines, rest[:i])
		if i == len(rest) {
			break
		}
		rest = rest[i+1:]
	}
	if len(p.lines) != len(p.Resources) {
		return nil, fmt.Errorf("provider index %s: header lists %d resources, body has %d", p.Provider, len(p.Resources), len(p.lines))
	}
	return p, nil
}

// Methods counts the methods of all resources (from the header alone).
func (p *Provider) Methods() int {
	n := 0
	for _, r := range p.Resources {
		n += r.Methods
	}
	return n
}

// ServiceResources counts the resources of each service.
func (p *Provider) ServiceResources() map[string]int {
	count := map[string]int{}
	for _, r := range p.Resources {
		count[r.Service]++
	}
	return count
}

// Services returns the distinct service names, sorted.
func (p *Provider) Services() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range p.Resources {
		if !seen[r.Service] {
			seen[r.Service] = true
			out = append(out, r.Service)
		}
	}
	sort.Strings(out)
	return out
}

// Resource returns the named resource, decoding it on first use. It returns
// nil, nil when there is no such resource.
func (p *Provider) Resource(service, name string) (*Resource, error) {
	key := service + "." + name
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.cache[key]; ok {
		return r, nil
	}
	for i, info := range p.Resources {
		if info.Service == service && info.Name == name {
			r := &Resource{}
			if err := json.Unmarshal(p.lines[i], r); err != nil {
				return nil, fmt.Errorf("provider index %s: resource %s: %w", p.Provider, key, err)
			}
			r.Provider = p.Provider
			p.applyPresets(r)
			p.cache[key] = r
			return r, nil
		}
	}
	return nil, nil
}

// AllResources decodes every resource (for tests, generators and full
// listings).
func (p *Provider) AllResources() ([]*Resource, error) {
	out := make([]*Resource, 0, len(p.Resources))
	for _, info := range p.Resources {
		r, err := p.Resource(info.Service, info.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
