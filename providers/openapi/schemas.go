package openapi

import (
	"fmt"
	"maps"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// Bounds of schema composition. A schema is "made of" the schemas of its
// allOf, oneOf and anyOf, and of theirs in turn; the walks that read
// properties and types (properties, scalarType, isArray) follow exactly
// those edges. A document can make that tree endless (Loop: {allOf:
// [$ref Loop]}) or exponential (an allOf that lists the same schema four
// times, nested: 4^n schemas from a few hundred bytes). checkSchemas
// measures every schema a GET operation reaches before any walk runs, and
// refuses the document, naming the schema, when one is made of itself,
// is nested deeper than maxCompositionDepth, or is made of more than
// maxComposition schemas counted with repetition. Real descriptions stay
// far below both (GitHub's largest is made of 70 schemas).
const (
	maxComposition      = 10_000
	maxCompositionDepth = 64
)

// checkSchemas checks every schema of the document's GET operations
// (parameters and responses, and everything their properties, items and
// compositions reach).
func checkSchemas(doc *openapi3.T) error {
	c := &schemaCheck{state: map[*openapi3.Schema]uint8{}, size: map[*openapi3.Schema]int{}, seen: map[*openapi3.Schema]bool{}}
	if doc.Components != nil {
		for _, n := range slices.Sorted(maps.Keys(doc.Components.Schemas)) {
			if ref := doc.Components.Schemas[n]; ref != nil && ref.Value != nil {
				c.nameOf(ref.Value, "#/components/schemas/"+n)
			}
		}
	}
	pathMap := doc.Paths.Map()
	for _, path := range slices.Sorted(maps.Keys(pathMap)) {
		item := pathMap[path]
		if item == nil || item.Get == nil {
			continue
		}
		where := "GET " + path
		for _, list := range []openapi3.Parameters{item.Parameters, item.Get.Parameters} {
			for _, p := range list {
				if p != nil && p.Value != nil {
					c.push(p.Value.Schema, where+" parameter "+p.Value.Name)
					for _, mt := range p.Value.Content {
						if mt != nil {
							c.push(mt.Schema, where+" parameter "+p.Value.Name)
						}
					}
				}
			}
		}
		if item.Get.Responses != nil {
			codes := item.Get.Responses.Map()
			for _, code := range slices.Sorted(maps.Keys(codes)) {
				r := codes[code]
				if r == nil || r.Value == nil {
					continue
				}
				for _, mt := range r.Value.Content {
					if mt != nil {
						c.push(mt.Schema, where+" response "+code)
					}
				}
			}
		}
		if err := c.drain(); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	return nil
}

type schemaCheck struct {
	names map[*openapi3.Schema]string
	state map[*openapi3.Schema]uint8 // 1: being measured, 2: measured
	size  map[*openapi3.Schema]int   // schemas it is made of, capped at maxComposition+1
	seen  map[*openapi3.Schema]bool  // reached (to be measured once)
	todo  []named
}

type named struct {
	s    *openapi3.Schema
	name string
}

func (c *schemaCheck) nameOf(s *openapi3.Schema, name string) {
	if c.names == nil {
		c.names = map[*openapi3.Schema]string{}
	}
	if _, ok := c.names[s]; !ok {
		c.names[s] = name
	}
}

func (c *schemaCheck) label(s *openapi3.Schema, fallback string) string {
	if n, ok := c.names[s]; ok {
		return n
	}
	return fallback
}

// push queues a schema reached from a GET operation.
func (c *schemaCheck) push(ref *openapi3.SchemaRef, where string) {
	if ref == nil || ref.Value == nil || c.seen[ref.Value] {
		return
	}
	c.seen[ref.Value] = true
	name := where
	if ref.Ref != "" {
		name = ref.Ref
	}
	c.todo = append(c.todo, named{ref.Value, c.label(ref.Value, name)})
}

// drain measures every queued schema and queues what it reaches
// (iteratively: a deep chain of properties costs no stack).
func (c *schemaCheck) drain() error {
	for len(c.todo) > 0 {
		n := c.todo[len(c.todo)-1]
		c.todo = c.todo[:len(c.todo)-1]
		if _, err := c.measure(n.s, n.name, 0); err != nil {
			return err
		}
		s := n.s
		for _, p := range slices.Sorted(maps.Keys(s.Properties)) {
			c.push(s.Properties[p], n.name+".properties."+p)
		}
		c.push(s.Items, n.name+".items")
		if ap := s.AdditionalProperties.Schema; ap != nil {
			c.push(ap, n.name+".additionalProperties")
		}
		c.push(s.Not, n.name+".not")
		for _, list := range []struct {
			kw   string
			refs openapi3.SchemaRefs
		}{{"allOf", s.AllOf}, {"oneOf", s.OneOf}, {"anyOf", s.AnyOf}} {
			for i, r := range list.refs {
				c.push(r, fmt.Sprintf("%s.%s[%d]", n.name, list.kw, i))
			}
		}
	}
	return nil
}

// measure returns how many schemas s is made of (itself included),
// failing on a cycle, a nesting deeper than maxCompositionDepth or more
// than maxComposition schemas.
func (c *schemaCheck) measure(s *openapi3.Schema, name string, depth int) (int, error) {
	switch c.state[s] {
	case 1:
		return 0, fmt.Errorf("schema %s is made of itself through allOf/oneOf/anyOf (a cycle no data can match)", c.label(s, name))
	case 2:
		return c.size[s], nil
	}
	if depth > maxCompositionDepth {
		return 0, fmt.Errorf("schema %s nests allOf/oneOf/anyOf more than %d levels deep", c.label(s, name), maxCompositionDepth)
	}
	c.state[s] = 1
	total := 1
	for _, list := range []struct {
		kw   string
		refs openapi3.SchemaRefs
	}{{"allOf", s.AllOf}, {"oneOf", s.OneOf}, {"anyOf", s.AnyOf}} {
		for i, r := range list.refs {
			if r == nil || r.Value == nil {
				continue
			}
			child := fmt.Sprintf("%s.%s[%d]", name, list.kw, i)
			if r.Ref != "" {
				child = r.Ref
			}
			n, err := c.measure(r.Value, child, depth+1)
			if err != nil {
				return 0, err
			}
			total = min(total+n, maxComposition+1)
		}
	}
	c.state[s], c.size[s] = 2, total
	if total > maxComposition {
		return 0, fmt.Errorf("schema %s is made of more than %d schemas through nested allOf/oneOf/anyOf (the same schemas repeated at every level)", c.label(s, name), maxComposition)
	}
	return total, nil
}
