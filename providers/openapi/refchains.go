package openapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/yaml"
)

// maxRefHops bounds a chain of plain $refs between components (A: {$ref:
// B}, B: {$ref: C}, ...), as maxCompositionDepth bounds allOf nesting.
// Real descriptions alias a component once or twice.
const maxRefHops = 64

// loadResolved is kin-openapi's LoadFromData with the chains of plain $refs
// between components shortened first. kin-openapi resolves each link of
// such a chain by resolving the rest of it again: a chain of n links
// costs n² (8,000 links, 390 KB: 67 s of CPU). Here each component that
// is a $ref to another such component is pointed at the chain's end,
// found once per component (linear), and a chain longer than maxRefHops
// or one that comes back to itself refuses the document, naming the
// component. What the $refs of operations and properties name is not
// changed, so tables and entities keep their names.
func loadResolved(loader *openapi3.Loader, data []byte) (*openapi3.T, error) {
	doc := &openapi3.T{}
	if json.Unmarshal(data, doc) != nil {
		doc = &openapi3.T{}
		if _, err := yaml.Unmarshal(data, doc, yaml.DecodeOpts{DisableTimestamps: true}); err != nil {
			return loader.LoadFromData(data) // its own error
		}
	}
	if err := shortenRefChains(doc); err != nil {
		return nil, err
	}
	if err := loader.ResolveRefsIn(doc, nil); err != nil {
		return nil, err
	}
	return doc, nil
}

// refSlot is one component's $ref: its text ("" when the component is
// not a plain $ref) and how to replace it.
type refSlot struct {
	ref string
	set func(string)
}

// componentRefs lists the components of one kind (schemas, parameters,
// ...) that are plain $refs.
func componentRefs[V any](m map[string]*V, ref func(*V) *string) map[string]refSlot {
	out := map[string]refSlot{}
	for name, v := range m {
		if v == nil {
			continue
		}
		p := ref(v)
		if *p != "" {
			out[name] = refSlot{ref: *p, set: func(s string) { *p = s }}
		}
	}
	return out
}

// shortenRefChains points every component that is a $ref to a component
// that is itself a $ref at the end of the chain (see loadResolved).
func shortenRefChains(doc *openapi3.T) error {
	c := doc.Components
	if c == nil {
		return nil
	}
	kinds := []struct {
		kind  string
		slots map[string]refSlot
	}{
		{"schemas", componentRefs(c.Schemas, func(r *openapi3.SchemaRef) *string { return &r.Ref })},
		{"parameters", componentRefs(c.Parameters, func(r *openapi3.ParameterRef) *string { return &r.Ref })},
		{"headers", componentRefs(c.Headers, func(r *openapi3.HeaderRef) *string { return &r.Ref })},
		{"requestBodies", componentRefs(c.RequestBodies, func(r *openapi3.RequestBodyRef) *string { return &r.Ref })},
		{"responses", componentRefs(c.Responses, func(r *openapi3.ResponseRef) *string { return &r.Ref })},
		{"securitySchemes", componentRefs(c.SecuritySchemes, func(r *openapi3.SecuritySchemeRef) *string { return &r.Ref })},
		{"examples", componentRefs(c.Examples, func(r *openapi3.ExampleRef) *string { return &r.Ref })},
		{"links", componentRefs(c.Links, func(r *openapi3.LinkRef) *string { return &r.Ref })},
		{"callbacks", componentRefs(c.Callbacks, func(r *openapi3.CallbackRef) *string { return &r.Ref })},
	}
	for _, k := range kinds {
		if err := shortenKind(k.kind, k.slots); err != nil {
			return err
		}
	}
	return nil
}

// shortenKind shortens the chains among slots, the components of kind
// that are $refs. end[name] is the $ref text that names the end of
// name's chain (the last link's own text).
func shortenKind(kind string, slots map[string]refSlot) error {
	prefix := "#/components/" + kind + "/"
	// next is the component of this kind a $ref names, if it is one of
	// the slots (a $ref into a component's inside, to another kind or to
	// another file ends the chain).
	next := func(ref string) (string, bool) {
		rest, ok := strings.CutPrefix(ref, prefix)
		if !ok {
			return "", false
		}
		if u, err := url.PathUnescape(rest); err == nil {
			rest = u
		}
		if strings.Contains(rest, "/") {
			return "", false
		}
		rest = strings.NewReplacer("~1", "/", "~0", "~").Replace(rest)
		_, ok = slots[rest]
		return rest, ok
	}
	end := map[string]string{}
	hops := map[string]int{}
	for _, start := range slices.Sorted(maps.Keys(slots)) { // the error names the same component every time
		if _, done := end[start]; done {
			continue
		}
		// Walk until a component whose end is known, or the end.
		var path []string
		on := map[string]bool{}
		name := start
		for {
			if _, done := end[name]; done {
				break
			}
			if on[name] {
				return fmt.Errorf("component #/components/%s/%s is a $ref to itself (through %d $refs)", kind, name, len(path)-indexOf(path, name))
			}
			on[name] = true
			path = append(path, name)
			if len(path) > maxRefHops {
				return fmt.Errorf("component #/components/%s/%s is a chain of more than %d $refs, each to the next (the longest a description may have)", kind, start, maxRefHops)
			}
			n, ok := next(slots[name].ref)
			if !ok {
				end[name], hops[name] = slots[name].ref, 1
				path = path[:len(path)-1]
				break
			}
			name = n
		}
		// Everything on the path ends where name ends.
		for i := len(path) - 1; i >= 0; i-- {
			after := name
			if i+1 < len(path) {
				after = path[i+1]
			}
			end[path[i]], hops[path[i]] = end[after], hops[after]+1
			if hops[path[i]] > maxRefHops {
				return fmt.Errorf("component #/components/%s/%s is a chain of more than %d $refs, each to the next (the longest a description may have)", kind, path[i], maxRefHops)
			}
		}
	}
	for name, s := range slots {
		if e := end[name]; e != s.ref {
			s.set(e)
		}
	}
	return nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return 0
}
