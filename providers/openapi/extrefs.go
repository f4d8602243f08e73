package openapi

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// External references. Documents are loaded with external $refs off (a
// description never makes the engine read other files or URLs). A
// document whose $refs point at files it does not include (DigitalOcean's
// published bundle refers to models/*.yml) is not refused whole: each
// external $ref is replaced by an empty schema, and every GET whose
// parameters or success answers reach one (directly or through the
// document's own #/components) is not a table; it is listed in the
// header's Skipped with the reference (engine registry list --verbose).
// A $ref to another file in an error answer does not matter to rows and
// leaves its operation a table.

// unresolvedKey is the document extension under which ParseDocument
// passes the operations to leave out to derive; its value is a Go map
// (map[string]string, path -> reason), which no document can spell.
const unresolvedKey = "x-engine-unresolved-refs"

// isExternalRefError reports kin-openapi's refusal of an external $ref.
func isExternalRefError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "disallowed external reference")
}

// loadWithoutExternalRefs parses data (JSON or YAML), notes the GET
// operations that reach an external $ref, replaces every external $ref
// by an empty schema and loads the result.
func loadWithoutExternalRefs(data []byte) (*openapi3.T, error) {
	var raw any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	raw = stringKeys(raw)
	root, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the document is not an object")
	}
	unresolved := map[string]string{}
	paths, _ := root["paths"].(map[string]any)
	for path, v := range paths {
		item, _ := v.(map[string]any)
		if item == nil {
			continue
		}
		if ref, ok := item["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
			unresolved[path] = fmt.Sprintf("its path item is in %s, a file the document does not include", ref)
			continue
		}
		op, _ := item["get"].(map[string]any)
		if op == nil {
			continue
		}
		refs := map[string]bool{}
		seen := map[string]bool{}
		reach(root, item["parameters"], seen, refs)
		reach(root, op["parameters"], seen, refs)
		if responses, ok := op["responses"].(map[string]any); ok {
			for code, r := range responses {
				if len(code) == 3 && code[0] == '2' {
					reach(root, r, seen, refs)
				}
			}
		}
		if len(refs) > 0 {
			list := make([]string, 0, len(refs))
			for r := range refs {
				list = append(list, r)
			}
			sort.Strings(list)
			unresolved[path] = fmt.Sprintf("its parameters or answer refer to %s, which the document does not include, so its rows cannot be known", strings.Join(list, ", "))
		}
	}
	stripped, err := json.Marshal(strip(root))
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loadResolved(loader, stripped)
	if err != nil {
		return nil, err
	}
	if doc.Extensions == nil {
		doc.Extensions = map[string]any{}
	}
	doc.Extensions[unresolvedKey] = unresolved
	return doc, nil
}

// unresolvedOps returns the paths ParseDocument noted (see above).
func unresolvedOps(doc *openapi3.T) map[string]string {
	m, _ := doc.Extensions[unresolvedKey].(map[string]string)
	return m
}

// reach adds to refs the external $refs reachable from v, following the
// document's own references once each.
func reach(root map[string]any, v any, seen, refs map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			if !strings.HasPrefix(ref, "#") {
				refs[ref] = true
				return
			}
			if !seen[ref] {
				seen[ref] = true
				reach(root, pointer(root, ref), seen, refs)
			}
			return
		}
		if d, ok := x["discriminator"].(map[string]any); ok {
			if m, ok := d["mapping"].(map[string]any); ok {
				for _, ref := range m {
					if s, ok := ref.(string); ok && (mappingFile(s) || strings.HasPrefix(s, "#")) {
						reach(root, map[string]any{"$ref": s}, seen, refs)
					}
				}
			}
		}
		for _, e := range x {
			reach(root, e, seen, refs)
		}
	case []any:
		for _, e := range x {
			reach(root, e, seen, refs)
		}
	}
}

// pointer resolves a local JSON pointer ("#/components/schemas/x").
func pointer(root map[string]any, ref string) any {
	var cur any = root
	for _, part := range strings.Split(strings.TrimPrefix(strings.TrimPrefix(ref, "#"), "/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	return cur
}

// strip replaces every external $ref object by an empty object, and
// drops external references from discriminator mappings.
func strip(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
			return map[string]any{}
		}
		if d, ok := x["discriminator"].(map[string]any); ok {
			// a discriminator's mapping names schemas by reference too
			if m, ok := d["mapping"].(map[string]any); ok {
				for k, ref := range m {
					if s, ok := ref.(string); ok && mappingFile(s) {
						delete(m, k)
					}
				}
			}
		}
		for k, e := range x {
			x[k] = strip(e)
		}
	case []any:
		for i, e := range x {
			x[i] = strip(e)
		}
	}
	return v
}

// mappingFile reports a discriminator mapping value naming another file
// (a bare word names a schema of the document).
func mappingFile(s string) bool {
	return !strings.HasPrefix(s, "#") && strings.ContainsAny(s, "/.")
}

// stringKeys turns YAML mappings with non-string keys (200: ...) into
// string-keyed maps, as JSON has them.
func stringKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = stringKeys(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = stringKeys(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = stringKeys(e)
		}
	}
	return v
}
