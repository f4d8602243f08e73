package catalog

import (
	"slices"
	"sort"
	"strings"

	"github.com/enginehq/engine/providers"
)

// maxSuggestions bounds the names a *NotFound suggests.
const maxSuggestions = 3

// nearest returns up to maxSuggestions candidates close to name by edit
// distance (case-insensitive; ties by name): within a quarter of the
// name's length (at least 1, at most 3 edits), and no further than one
// edit behind the closest, so that a suggestion reads as a typo's fix.
func nearest(name string, candidates []string) []string {
	limit := min(max(1, len(name)/4), 3)
	ranked := providers.Nearest(name, candidates, func(_ string, d int) (int, bool) { return d, d > 0 && d <= limit })
	var out []string
	for _, c := range ranked {
		if len(out) == maxSuggestions || c.Distance > ranked[0].Distance+1 {
			break
		}
		out = append(out, c.Name)
	}
	return out
}

// tableNotFound is the *NotFound of provider p's table service.name,
// with the names it might have meant. Tables are named by entity
// (github.repos.repos) and their methods by operation (list_for_org), so
// a name is compared with both: in the service, else in the closest
// services when the service is unknown (repo.get is repos.repos's get);
// failing that, the closest services. A method is suggested as its table
// with the method named: "github.repos.repos (method list_for_org)". The
// resources are decoded on this error path only.
func tableNotFound(p *providers.Provider, service, name string) *NotFound {
	services := p.Services()
	nf := &NotFound{Provider: p.Provider, Service: service, Table: name, ServiceKnown: slices.Contains(services, service)}
	in := []string{service}
	if !nf.ServiceKnown {
		in = nearest(service, services)
	}
	for _, svc := range in {
		nf.Suggestions = append(nf.Suggestions, tablesNear(p, svc, name)...)
	}
	if len(nf.Suggestions) > maxSuggestions {
		nf.Suggestions = nf.Suggestions[:maxSuggestions]
	}
	if len(nf.Suggestions) == 0 && !nf.ServiceKnown {
		nf.Suggestions = qualify(p.Provider, in)
	}
	return nf
}

// tablesNear names the tables of p's service close to name: by their own
// name, or by one of their methods' (the table, then the method); failing
// that, those whose name is the name after a verb (get_zen for zen).
func tablesNear(p *providers.Provider, service, name string) []string {
	var names []string
	full := map[string]string{} // candidate -> suggestion
	for _, info := range p.Resources {
		if info.Service != service {
			continue
		}
		t := p.Provider + "." + info.Service + "." + info.Name
		names = append(names, info.Name)
		full[info.Name] = t
		r, err := p.Resource(info.Service, info.Name)
		if err != nil || r == nil {
			continue
		}
		for _, m := range r.Methods {
			if _, ok := full[m.Name]; !ok {
				names = append(names, m.Name)
				full[m.Name] = t + " (method " + m.Name + ")"
			}
		}
	}
	var out []string
	if s, ok := full[name]; ok { // an exact method name
		out = append(out, s)
	}
	for _, n := range nearest(name, names) {
		out = append(out, full[n])
	}
	if len(out) == 0 {
		// The name without the operation's verb: zen for get_zen.
		var verbed []string
		for _, n := range names {
			if strings.HasSuffix(strings.ToLower(n), "_"+strings.ToLower(name)) {
				verbed = append(verbed, n)
			}
		}
		sort.Strings(verbed)
		for _, n := range verbed {
			out = append(out, full[n])
		}
	}
	return out
}

// serviceNotFound is the *NotFound of provider p's service, with the
// closest services.
func serviceNotFound(p *providers.Provider, service string) *NotFound {
	return &NotFound{Provider: p.Provider, Service: service, Suggestions: qualify(p.Provider, nearest(service, p.Services()))}
}

func qualify(prefix string, names []string) []string {
	var out []string
	for _, n := range names {
		out = append(out, prefix+"."+n)
	}
	return out
}
