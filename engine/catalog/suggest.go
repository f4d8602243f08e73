package catalog

import (
	"slices"
	"sort"
	"strings"

	"github.com/enginehq/engine/providers"
)

// maxSuggestions bounds the names a *NotFound suggests.
const maxSuggestions = 3

// nearest returns up to maxSuggestions candidates a typo away from name
// (providers.TypoFixes).
func nearest(name string, candidates []string) []string {
	return providers.TypoFixes(name, candidates, maxSuggestions)
}

// tableNotFound is the *NotFound of provider p's table service.name,
// with the names it might have meant. Tables are named by entity
// (github.repos.repos) and their methods by operation (list_for_org), so
// a name is compared with both: in the service, else in the closest
// services when the service is unknown (repo.get is repos.repos's get).
// A method of that very name comes first; then a table of that name in
// another service (repos.branches is branches.branches; when the service
// is unknown, only if its closest services have nothing near); then the
// names a typo away. Failing all that, the closest services. A method is suggested as its table
// with the method named: "github.repos.repos (method list_for_org)". The
// resources are decoded on this error path only.
func tableNotFound(p *providers.Provider, service, name string) *NotFound {
	services := p.Services()
	nf := &NotFound{Provider: p.Provider, Service: service, Table: name, ServiceKnown: slices.Contains(services, service)}
	in := []string{service}
	if !nf.ServiceKnown {
		in = nearest(service, services)
	}
	var exact, near []string
	for _, svc := range in {
		e, n := tablesNear(p, svc, name)
		exact, near = append(exact, e...), append(near, n...)
	}
	same := sameName(p, service, name)
	if !nf.ServiceKnown && len(exact)+len(near) > 0 {
		same = nil // the closest service's names say more (repo.get)
	}
	for _, s := range slices.Concat(exact, same, near) {
		if !slices.Contains(nf.Suggestions, s) {
			nf.Suggestions = append(nf.Suggestions, s)
		}
	}
	if len(nf.Suggestions) > maxSuggestions {
		nf.Suggestions = nf.Suggestions[:maxSuggestions]
	}
	if len(nf.Suggestions) == 0 && !nf.ServiceKnown {
		nf.Suggestions = qualify(p.Provider, in)
	}
	return nf
}

// sameName names the tables of p called name in services other than
// service: the one of the service of that name first (branches.branches),
// then by service.
func sameName(p *providers.Provider, service, name string) []string {
	var own, others []string
	for _, r := range p.Resources {
		if r.Service == service || !strings.EqualFold(r.Name, name) {
			continue
		}
		t := p.Provider + "." + r.Service + "." + r.Name
		if r.Service == r.Name {
			own = append(own, t)
		} else {
			others = append(others, t)
		}
	}
	sort.Strings(others)
	return append(own, others...)
}

// tablesNear names the tables of p's service close to name: the table
// of a method of that name (exact); by their own name, or by one of
// their methods' (the table, then the method); failing that, those whose
// name is the name after a verb (get_zen for zen).
func tablesNear(p *providers.Provider, service, name string) (exact, near []string) {
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
	if s, ok := full[name]; ok { // an exact method name
		exact = append(exact, s)
	}
	var out []string
	for _, n := range nearest(name, names) {
		out = append(out, full[n])
	}
	if len(out)+len(exact) == 0 {
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
	return exact, out
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

// ShortName reads a table name of one or two parts (lower-cased), which
// SQL has no table for, as a table name with parts left out: table names
// have three, provider.service.resource. It returns a *NotFound with
// Short set (the name as written) when the name is about the catalog:
// its first part is a provider (FROM github, FROM github.repos), or, read
// in DefaultProvider, it names a service or a table (FROM repos, FROM
// members, FROM repos.repos); nil otherwise (a name SQLite may know,
// such as sqlite_schema, or a misspelt WITH name). Suggestions are the
// tables it may mean: the table of the service that has its name
// (github.repos.repos), the tables of that name in any service
// (github.orgs.members); failing that, those of the closest service
// (github.repo: github.repos.repos), or after a known service the
// closest names as for an unknown table (repos.repo).
func (c *Catalog) ShortName(parts []string) *NotFound {
	if len(parts) == 0 || len(parts) > 2 {
		return nil
	}
	short := strings.Join(parts, ".")
	if c.IsProvider(parts[0]) {
		p, err := c.Provider(parts[0])
		if err != nil {
			return nil
		}
		nf := &NotFound{Provider: p.Provider, Short: short}
		if len(parts) == 2 {
			nf.Service, nf.ServiceKnown, nf.Suggestions = shortTables(p, parts[1], "")
			for _, s := range nearest(parts[1], p.Services()) {
				if len(nf.Suggestions) == 0 && !nf.ServiceKnown {
					_, _, nf.Suggestions = shortTables(p, s, "")
				}
			}
		}
		return nf
	}
	name := c.DefaultProvider()
	if name == "" {
		return nil
	}
	p, err := c.Provider(name)
	if err != nil {
		return nil
	}
	nf := &NotFound{Provider: p.Provider, Short: short}
	if len(parts) == 1 {
		nf.Service, nf.ServiceKnown, nf.Suggestions = shortTables(p, parts[0], "")
	} else {
		nf.Service, nf.ServiceKnown, nf.Suggestions = shortTables(p, parts[0], parts[1])
		if !nf.ServiceKnown {
			return nil // service.table: a service comes first
		}
	}
	if len(nf.Suggestions) == 0 && !nf.ServiceKnown {
		return nil
	}
	return nf
}

// shortTables are the tables of p a short name may mean: with table "",
// name is a service or a table (the service's table of its own name, or
// that of a service whose name abbreviates it, repos for repositories;
// then the tables of that name in any service); else name is a service and
// table one of its tables (or near one). service is name when p has
// that service.
func shortTables(p *providers.Provider, name, table string) (service string, known bool, out []string) {
	known = slices.Contains(p.Services(), name)
	if known {
		service = name
	}
	if table != "" {
		if !known {
			return "", false, nil
		}
		for _, r := range p.Resources {
			if r.Service == name && r.Name == table {
				return service, known, []string{p.Provider + "." + name + "." + table}
			}
		}
		exact, near := tablesNear(p, name, table)
		out = append(exact, near...)
		return service, known, out[:min(len(out), maxSuggestions)]
	}
	if !known {
		for _, svc := range p.Services() {
			if abbreviates(svc, name) && slices.ContainsFunc(p.Resources, func(r providers.ResourceInfo) bool { return r.Service == svc && r.Name == svc }) {
				out = append(out, p.Provider+"."+svc+"."+svc)
			}
		}
	}
	for _, own := range []bool{true, false} {
		for _, r := range p.Resources {
			if r.Name == name && (r.Service == name) == own && len(out) < maxSuggestions {
				out = append(out, p.Provider+"."+r.Service+"."+r.Name)
			}
		}
	}
	return service, known, out
}

// abbreviates reports whether the service name svc is a short form of the
// word name (one word, no underscore): svc, without a plural s, begins
// with name's first three letters and its letters appear in name in
// order (repos for repositories, orgs for organizations).
func abbreviates(svc, name string) bool {
	svc, name = strings.ToLower(svc), strings.ToLower(name)
	stem := strings.TrimSuffix(svc, "s")
	if len(stem) < 3 || len(stem) >= len(name) || strings.Contains(name, "_") || svc == name || stem[:3] != name[:3] {
		return false
	}
	i := 0
	for j := 0; j < len(name) && i < len(stem); j++ {
		if name[j] == stem[i] {
			i++
		}
	}
	return i == len(stem)
}
