package corpus_test

// The parts of the rows mode (rows_test.go, `make corpus-rows`) that need
// no mock server: reading a description's operations and response schemas,
// picking the items of a recorded response the way the response schema
// says, choosing placeholder values for required parameters, and comparing
// the engine's rows with those items field by field. TestRowsLogic checks
// them on small documents; it runs in `make test`.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// oaDoc is a decoded OpenAPI 3 description (numbers as json.Number).
type oaDoc struct {
	root map[string]any
}

func parseDoc(data []byte) (*oaDoc, error) {
	v, err := decodeJSON(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the description is not a JSON object")
	}
	return &oaDoc{root: m}, nil
}

func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

// deref follows local $refs ("#/components/..."), at most 20 deep; a
// reference it cannot follow gives nil.
func (d *oaDoc) deref(v any) map[string]any {
	m, _ := v.(map[string]any)
	for i := 0; i < 20 && m != nil; i++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		if !strings.HasPrefix(ref, "#/") {
			return nil
		}
		var cur any = d.root
		for _, part := range strings.Split(ref[2:], "/") {
			part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
			obj, _ := cur.(map[string]any)
			cur = obj[part]
		}
		m, _ = cur.(map[string]any)
	}
	return m
}

// operation returns the GET operation of a path template and the
// parameters that apply to it (the path item's, overridden by the
// operation's), each dereferenced.
func (d *oaDoc) operation(path string) (op map[string]any, params []map[string]any) {
	paths, _ := d.root["paths"].(map[string]any)
	item := d.deref(paths[path])
	if item == nil {
		return nil, nil
	}
	op = d.deref(item["get"])
	if op == nil {
		return nil, nil
	}
	seen := map[string]int{}
	for _, list := range []any{item["parameters"], op["parameters"]} {
		arr, _ := list.([]any)
		for _, p := range arr {
			pm := d.deref(p)
			if pm == nil {
				continue
			}
			key := fmt.Sprint(pm["in"], "/", pm["name"])
			if i, ok := seen[key]; ok {
				params[i] = pm
				continue
			}
			seen[key] = len(params)
			params = append(params, pm)
		}
	}
	return op, params
}

// responseSchema is the JSON schema a GET declares for a status: the
// exact code, then its class ("2XX"), then "default"; the media type
// application/json, then any other JSON type, then "*/*". declared says
// whether the operation declares a JSON schema for any 2xx answer at all.
func (d *oaDoc) responseSchema(op map[string]any, status int) (schema map[string]any, declared bool) {
	responses, _ := op["responses"].(map[string]any)
	pick := func(code string) map[string]any {
		r := d.deref(responses[code])
		if r == nil {
			return nil
		}
		content, _ := r["content"].(map[string]any)
		types := slices.Sorted(maps.Keys(content))
		rank := func(mt string) int {
			base := strings.TrimSpace(strings.SplitN(strings.ToLower(mt), ";", 2)[0])
			switch {
			case base == "application/json":
				return 0
			case strings.HasSuffix(base, "+json") || strings.HasSuffix(base, "/json"):
				return 1
			case base == "*/*":
				return 2
			}
			return 3
		}
		best, bestRank := "", 3
		for _, mt := range types {
			if r := rank(mt); r < bestRank {
				best, bestRank = mt, r
			}
		}
		if best == "" {
			return nil
		}
		c, _ := content[best].(map[string]any)
		return d.deref(c["schema"])
	}
	for code := range responses {
		if len(code) == 3 && code[0] == '2' && pick(code) != nil {
			declared = true
		}
	}
	if !declared && pick("default") != nil {
		declared = true
	}
	code := fmt.Sprint(status)
	if s := pick(code); s != nil {
		return s, declared
	}
	if s := pick(code[:1] + "XX"); s != nil {
		return s, declared
	}
	return pick("default"), declared
}

// kind of a schema: "array", "object", "scalar" or "" (unknown). A schema
// with properties is an object whatever else it holds; one with items and
// no type and no properties is an array.
func (d *oaDoc) kind(s map[string]any) string {
	return d.kindDepth(s, 0)
}

func (d *oaDoc) kindDepth(s map[string]any, depth int) string {
	if s == nil || depth > 10 {
		return ""
	}
	types := map[string]bool{}
	switch t := s["type"].(type) {
	case string:
		types[t] = true
	case []any:
		for _, x := range t {
			if x != "null" {
				types[fmt.Sprint(x)] = true
			}
		}
	}
	if len(types) == 1 {
		for t := range types {
			switch t {
			case "array":
				return "array"
			case "object":
				return "object"
			default:
				return "scalar"
			}
		}
	}
	if len(types) > 1 {
		return ""
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	// allOf: the parts agree; oneOf/anyOf: every branch is of one kind,
	// else the kind is unknown (an object-or-array is neither).
	for _, comb := range []string{"allOf", "oneOf", "anyOf"} {
		arr, _ := s[comb].([]any)
		if len(arr) == 0 {
			continue
		}
		k := ""
		for _, sub := range arr {
			sk := d.kindDepth(d.deref(sub), depth+1)
			if sk == "" {
				if comb == "allOf" {
					continue
				}
				return ""
			}
			if k != "" && sk != k {
				return ""
			}
			k = sk
		}
		if k != "" {
			return k
		}
	}
	if _, ok := s["items"]; ok {
		return "array"
	}
	if _, ok := s["additionalProperties"]; ok {
		return "object"
	}
	return ""
}

// properties of an object schema, with those of its allOf parts.
func (d *oaDoc) properties(s map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	var walk func(s map[string]any, depth int)
	walk = func(s map[string]any, depth int) {
		if s == nil || depth > 10 {
			return
		}
		props, _ := s["properties"].(map[string]any)
		for k, v := range props {
			out[k] = d.deref(v)
		}
		all, _ := s["allOf"].([]any)
		for _, sub := range all {
			walk(d.deref(sub), depth+1)
		}
	}
	walk(s, 0)
	return out
}

// itemsOf is an array schema's item schema.
func (d *oaDoc) itemsOf(s map[string]any) map[string]any {
	if it := d.deref(s["items"]); it != nil {
		return it
	}
	all, _ := s["allOf"].([]any)
	for _, sub := range all {
		if it := d.itemsOf(d.deref(sub)); it != nil {
			return it
		}
	}
	return nil
}

// shapeField is one property of an object, from its schema or from a
// body: its name, whether it is an array of objects or an object, and
// (for an object) its own properties.
type shapeField struct {
	name       string
	objArray   bool // an array whose items are objects
	object     bool
	sub        []shapeField
	subSchema  map[string]any
	itemSchema map[string]any
}

func (d *oaDoc) schemaFields(s map[string]any, depth int) []shapeField {
	var out []shapeField
	props := d.properties(s)
	for _, n := range slices.Sorted(maps.Keys(props)) {
		p := props[n]
		f := shapeField{name: n}
		switch d.kind(p) {
		case "array":
			it := d.itemsOf(p)
			f.objArray = d.kind(it) == "object"
			f.itemSchema = it
		case "object":
			f.object = true
			f.subSchema = p
			if depth == 0 {
				f.sub = d.schemaFields(p, 1)
			}
		}
		out = append(out, f)
	}
	return out
}

var (
	pagingField = regexp.MustCompile(`(?i)^(next|next_?(page|cursor|link|url|href|page_?token|token)|@odata\.nextlink|cursor|has_?more|is_?last|total|total_?(count|results|records|size|items|pages)|page|pages|page_?(size|number|count|info|token)|pagelen|paging|pagination|continue|offset|limit|count|meta|metadata|_metadata|response_metadata|prev|previous|prev_?page_?token)$`)
	pagingParam = regexp.MustCompile(`(?i)^(limit|per_?page|page|page_?(size|number|token)|pagelen|size|cursor|offset|starting_after|ending_before|max_?results|count|marker|continue|next_page_token|\$top|\$skip|top|skip|start_?at|startindex)$`)
	envelopeTag = regexp.MustCompile(`(?i)^(ok|kind|etag|object|type|url|href|links|_links|self|status|success|message|warning|warnings|cache_ts|event_?id|visitor_?id|.*version)$`)
	// metadataArray names an array of objects that describes the answer
	// rather than being its rows: links (Mailchimp's _links), errors
	// (Square's), the order of the rows (Box's order), warnings. Beside
	// one other array of objects, that other one is the list (issue 32:
	// the list is the array the schema declares beside such siblings).
	metadataArray = regexp.MustCompile(`(?i)^(_?links|errors|warnings|messages|order|sort|sorts|facets|aggregations)$`)
	// rowsName names an array that holds the rows whatever the path
	// names (docs/providers.md, "list or one item").
	rowsName = regexp.MustCompile(`(?i)^(items|data|results|values|records|entries|elements|rows|objects|resources|hits|nodes)$`)
	// wrapperName is the property of an object answer that holds the one
	// entity and nothing beside it (Asana's {"data": {...}}).
	wrapperName = regexp.MustCompile(`(?i)^(data|result)$`)
)

// envelope returns where an object's list is, as property names (one, or
// two for a list nested in one object property: {"categories":
// {"items": [...], "next": ...}}), or nil when the object is one entity.
// The rule is the tool's, not the engine's: exactly one property is an
// array of objects, and either its name is the path's last segment
// (/meetings/{id}/archive_files: archive_files), or the object has no id
// and shows it is a page of a list: the operation takes a paging
// query parameter, a sibling is paging data (next, total, has_more,
// cursor, meta...), the path is a list method (conversations.list), or
// every sibling is a tag such as ok, kind, apiVersion, links or
// YouTube's eventId and visitorId (a *ListResponse) or echoes a
// parameter (a report's from and to). On a path that ends in a parameter
// (one entity's: /builds/{num}) paging siblings are not enough.
func envelope(fields []shapeField, path string, params map[string]bool, depth int) []string {
	paged := false
	for p := range params {
		paged = paged || pagingParam.MatchString(p)
	}
	var arrays, objects []shapeField
	hasID, paging, tagsOnly := false, false, true
	rowArrays := 0 // arrays of objects that are not metadata (metadataArray)
	for _, f := range fields {
		if f.objArray && !metadataArray.MatchString(f.name) {
			rowArrays++
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.name, "id") {
			hasID = true
		}
		switch {
		case f.objArray && (rowArrays == 0 || !metadataArray.MatchString(f.name)):
			arrays = append(arrays, f)
			continue
		case f.objArray:
			continue // a metadata array such as _links or order beside the list
		case f.object:
			objects = append(objects, f)
		}
		if pagingField.MatchString(f.name) {
			paging = true
		}
		if !envelopeTag.MatchString(f.name) && !params[f.name] {
			tagsOnly = false
		}
	}
	seg := path[strings.LastIndexByte(path, '/')+1:]
	if len(arrays) == 1 {
		a := arrays[0].name
		switch {
		case sameName(a, seg):
			return []string{a}
		case hasID:
			return nil
		case strings.HasPrefix(seg, "{"):
			// One entity's path (/builds/{num}): a list only when
			// nothing else is beside it or the operation pages.
			if tagsOnly || paged {
				return []string{a}
			}
		case paged || paging || tagsOnly || strings.HasSuffix(strings.ToLower(seg), "list"):
			return []string{a}
		case rowsName.MatchString(a):
			// A collection's path (not ending in a parameter) and an
			// array named like rows (LaunchDarkly's {_links, _site,
			// items} at /flags/{key}/dependent-flags).
			return []string{a}
		}
		return nil
	}
	if len(arrays) == 0 && len(objects) == 1 && depth == 0 {
		o := objects[0]
		if inner := envelope(o.sub, path, nil, 1); len(inner) == 1 {
			for _, f := range o.sub {
				if pagingField.MatchString(f.name) {
					return []string{o.name, inner[0]}
				}
			}
		}
	}
	return nil
}

// sameName says whether a property names the path's last segment
// (case, punctuation and a plural s aside; Slack's conversations.history
// names history).
func sameName(prop, seg string) bool {
	norm := func(s string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
				b.WriteRune(r)
			}
		}
		return strings.TrimSuffix(b.String(), "s")
	}
	p := norm(prop)
	if p == "" {
		return false
	}
	for _, part := range strings.Split(seg, ".") {
		if norm(part) == p {
			return true
		}
	}
	return false
}

// queryParams are the names of a GET's query parameters.
func queryParams(params []map[string]any) map[string]bool {
	out := map[string]bool{}
	for _, p := range params {
		if p["in"] == "query" {
			out[fmt.Sprint(p["name"])] = true
		}
	}
	return out
}

// expectedItems picks the items of one response body the way the
// response schema says: an array schema's elements; the list of an
// envelope object (see envelope) unless the path ends in a path parameter (one entity: /things/{id});
// otherwise the body as one item. Without a schema the body's own shape
// decides (an array is its elements). A body that is not JSON is one
// scalar item (its text); an empty body is one empty item, the row the
// engine documents for a body-less answer. itemSchema is the
// schema of each item, when known. ok is false when the body contradicts
// the schema (the schema's list is not an array in the body), with why.
func (d *oaDoc) expectedItems(path string, params []map[string]any, schema map[string]any, body []byte) (items []any, itemSchema map[string]any, why string, ok bool) {
	if len(bytes.TrimSpace(body)) == 0 {
		// A body-less answer is one row: the bound parameters, or
		// column ok = true without any (README).
		return []any{map[string]any{}}, nil, "", true
	}
	v, err := decodeJSON(body)
	if err != nil {
		return []any{string(body)}, nil, "", true
	}
	if schema == nil {
		if arr, isArr := v.([]any); isArr {
			return arr, nil, "", true
		}
		return []any{v}, nil, "", true
	}
	switch d.kind(schema) {
	case "array":
		arr, isArr := v.([]any)
		if !isArr {
			return nil, nil, fmt.Sprintf("the schema is an array, the body a %s", jsonType(v)), false
		}
		return arr, d.itemsOf(schema), "", true
	case "object":
		if _, isObj := v.(map[string]any); !isObj {
			// Jira's examples: JSON text in a string where the schema
			// is an object.
			return nil, nil, fmt.Sprintf("the schema is an object, the body a %s", jsonType(v)), false
		}
		env := d.listAt(path, params, schema)
		if env != nil {
			itemSchema = d.envelopeItems(schema, env)
		}
		if env == nil {
			// One entity in a wrapper ({"data": {...}}, nothing beside
			// it): the entity is the item.
			if props := d.properties(schema); len(props) == 1 {
				for name, ps := range props {
					obj, isObj := v.(map[string]any)
					inner, innerObj := obj[name].(map[string]any)
					if wrapperName.MatchString(name) && d.kind(ps) == "object" && isObj && innerObj {
						return []any{inner}, ps, "", true
					}
				}
			}
			return []any{v}, schema, "", true
		}
		cur, at := v, schema
		for _, name := range env {
			obj, isObj := cur.(map[string]any)
			if !isObj {
				return nil, nil, fmt.Sprintf("the schema's list %s is not in the body", strings.Join(env, ".")), false
			}
			if _, present := obj[name]; !present {
				// An absent list is no item only when the schema lets it
				// be absent and the body holds no array the schema does
				// not declare (a "results" where it says "result").
				if d.requires(at, name) {
					return nil, nil, fmt.Sprintf("the schema requires the list %s, the body has none", strings.Join(env, ".")), false
				}
				props := d.properties(at)
				for k, x := range obj {
					if _, isArr := x.([]any); isArr && props[k] == nil {
						return nil, nil, fmt.Sprintf("the body has no list %s but an undeclared array %s", strings.Join(env, "."), k), false
					}
				}
			}
			cur, at = obj[name], d.properties(at)[name]
		}
		if cur == nil {
			return nil, itemSchema, "", true // the list is absent or null: no item
		}
		arr, isArr := cur.([]any)
		if !isArr {
			return nil, nil, fmt.Sprintf("the schema's list %s is a %s in the body", strings.Join(env, "."), jsonType(cur)), false
		}
		return arr, itemSchema, "", true
	}
	if arr, isArr := v.([]any); isArr {
		return arr, nil, "", true
	}
	return []any{v}, nil, "", true
}

// listAt is where the items of an object response are (see envelope), or
// nil when the response is one item or not an object.
func (d *oaDoc) listAt(path string, params []map[string]any, schema map[string]any) []string {
	if d.kind(schema) != "object" {
		return nil
	}
	return envelope(d.schemaFields(schema, 0), path, queryParams(params), 0)
}

// envelopeItems is the item schema of the list at env in an object schema.
func (d *oaDoc) envelopeItems(schema map[string]any, env []string) map[string]any {
	cur := schema
	for _, name := range env {
		cur = d.properties(cur)[name]
	}
	return d.itemsOf(cur)
}

// lacksRequired says whether an object body lacks an array property its
// object schema requires (Slack's stars.list example {"ok": true} where
// the schema requires items): then ok is false, with why.
func (d *oaDoc) lacksRequired(schema map[string]any, body []byte) (why string, ok bool) {
	v, err := decodeJSON(body)
	obj, isObj := v.(map[string]any)
	if err != nil || !isObj || d.kind(schema) != "object" {
		return "", true
	}
	props := d.properties(schema)
	for _, n := range slices.Sorted(maps.Keys(props)) {
		if _, present := obj[n]; !present && d.requires(schema, n) && d.kind(props[n]) == "array" {
			return fmt.Sprintf("the schema requires the list %s, the body has none", n), false
		}
	}
	return "", true
}

// requires says whether an object schema (its allOf parts included)
// lists name as required.
func (d *oaDoc) requires(s map[string]any, name string) bool {
	s = d.deref(s)
	if s == nil {
		return false
	}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if r == name {
				return true
			}
		}
	}
	if all, ok := s["allOf"].([]any); ok {
		for _, a := range all {
			if m, ok := a.(map[string]any); ok && d.requires(m, name) {
				return true
			}
		}
	}
	return false
}

// contradicts says whether a value from the mock's answer (the
// description's own example) has another JSON type than the schema
// declares for it: then the description contradicts itself.
func (d *oaDoc) contradicts(s map[string]any, v any) bool {
	if s == nil || v == nil {
		return false
	}
	typ, _ := s["type"].(string)
	switch typ {
	case "string":
		_, ok := v.(string)
		return !ok
	case "integer", "number":
		_, ok := v.(json.Number)
		return !ok
	case "boolean":
		_, ok := v.(bool)
		return !ok
	case "array":
		_, ok := v.([]any)
		return !ok
	case "object":
		_, ok := v.(map[string]any)
		return !ok
	}
	return false
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	}
	return "number"
}

// matchTemplate says whether a request path fits a path template.
func matchTemplate(template, path string) bool {
	var b strings.Builder
	b.WriteString("^")
	for rest := template; rest != ""; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		b.WriteString(regexp.QuoteMeta(rest[:i]))
		b.WriteString("[^/]+")
		rest = rest[i+j+1:]
	}
	b.WriteString("/?$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(path)
}

// placeholder is a value for a required parameter that its schema
// accepts: its example, the first enum value, its default, a string its
// pattern matches, or a value of its format and type (an array
// parameter: one value of its items).
func (d *oaDoc) placeholder(p map[string]any) any {
	if ex, ok := p["example"]; ok && isScalar(ex) {
		return ex
	}
	if exs, ok := p["examples"].(map[string]any); ok {
		for _, n := range slices.Sorted(maps.Keys(exs)) {
			if e := d.deref(exs[n]); e != nil && isScalar(e["value"]) && e["value"] != nil {
				return e["value"]
			}
		}
	}
	s := d.deref(p["schema"])
	if s == nil {
		return "x"
	}
	for _, comb := range []string{"allOf", "oneOf", "anyOf"} {
		if arr, _ := s[comb].([]any); len(arr) > 0 && s["type"] == nil && s["enum"] == nil {
			if sub := d.deref(arr[0]); sub != nil {
				s = sub
			}
		}
	}
	if ex, ok := s["example"]; ok && isScalar(ex) && ex != nil {
		return ex
	}
	if exs, ok := s["examples"].([]any); ok && len(exs) > 0 && isScalar(exs[0]) && exs[0] != nil {
		return exs[0]
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 && isScalar(enum[0]) && enum[0] != nil {
		return enum[0]
	}
	if def, ok := s["default"]; ok && isScalar(def) && def != nil {
		return def
	}
	typ, _ := s["type"].(string)
	if typ == "array" {
		if it := d.deref(s["items"]); it != nil {
			return d.placeholder(map[string]any{"schema": it})
		}
	}
	if pat, ok := s["pattern"].(string); ok && typ != "integer" && typ != "number" {
		if x, ok := fromPattern(pat); ok {
			return x
		}
	}
	switch typ {
	case "integer", "number":
		if m, ok := s["minimum"].(json.Number); ok {
			return m
		}
		return json.Number("1")
	case "boolean":
		return true
	}
	switch s["format"] {
	case "uuid":
		return "123e4567-e89b-12d3-a456-426614174000"
	case "date-time":
		return "2024-01-02T03:04:05Z"
	case "date":
		return "2024-01-02"
	case "email":
		return "user@example.com"
	case "uri", "url":
		return "https://example.com/x"
	}
	x := "x"
	if n, ok := s["minLength"].(json.Number); ok {
		if k, err := n.Int64(); err == nil && k > 1 && k < 100 {
			x = strings.Repeat("x", int(k))
		}
	}
	return x
}

// fromPattern writes a string a simple regular expression matches:
// literals, escapes (\d, \w, \.), classes ([0-9a-fA-F], taking their first
// character) and quantifiers ({n}, {n,m}, +, *, ?); ok is false for
// anything else (groups, alternatives).
func fromPattern(pat string) (string, bool) {
	pat = strings.TrimSuffix(strings.TrimPrefix(pat, "^"), "$")
	var out strings.Builder
	for i := 0; i < len(pat); {
		var unit string
		switch c := pat[i]; c {
		case '\\':
			if i+1 >= len(pat) {
				return "", false
			}
			switch e := pat[i+1]; e {
			case 'd':
				unit = "1"
			case 'w':
				unit = "a"
			case 's':
				unit = " "
			default:
				if (e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') {
					return "", false
				}
				unit = string(e)
			}
			i += 2
		case '[':
			j := strings.IndexByte(pat[i:], ']')
			if j < 2 || pat[i+1] == '^' {
				return "", false
			}
			unit = pat[i+1 : i+2]
			if unit == "\\" {
				unit = pat[i+2 : i+3]
			}
			i += j + 1
		case '(', ')', '|', '.', '*', '+', '?', '{':
			return "", false
		default:
			unit = string(c)
			i++
		}
		n := 1
		if i < len(pat) {
			switch pat[i] {
			case '+':
				i++
			case '?', '*':
				n = 0
				i++
			case '{':
				j := strings.IndexByte(pat[i:], '}')
				if j < 0 {
					return "", false
				}
				spec := strings.SplitN(pat[i+1:i+j], ",", 2)[0]
				k, err := strconv.Atoi(spec)
				if err != nil || k > 1000 {
					return "", false
				}
				n = k
				i += j + 1
			}
		}
		out.WriteString(strings.Repeat(unit, n))
	}
	return out.String(), true
}

func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

// sqlLiteral writes a placeholder value as a literal for a key column of
// the engine's type.
func sqlLiteral(v any, typ string) string {
	switch typ {
	case "INTEGER", "REAL":
		if n, ok := v.(json.Number); ok {
			return n.String()
		}
		if s, ok := v.(string); ok {
			if _, ok := new(big.Rat).SetString(s); ok {
				return s
			}
		}
		return "1"
	case "BOOLEAN":
		if b, ok := v.(bool); ok && !b {
			return "false"
		}
		return "true"
	}
	s := fmt.Sprint(v)
	if b, ok := v.(bool); ok {
		s = fmt.Sprint(b)
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// columnSet is what DESCRIBE says of a table: its columns, the API name
// of each (DESCRIBE's "API name: X." when the column was renamed) and the
// WHERE keys, which are not fields of the items.
type columnSet struct {
	apiToColumn map[string]string // API name -> column name
	columns     map[string]bool
	keys        map[string]bool
	keyAPI      map[string]string // WHERE key -> API name, when renamed
}

var apiNameRE = regexp.MustCompile(`API name: (.+?)\.(\s|$)`)

func describeColumns(rows []map[string]any) columnSet {
	cs := columnSet{apiToColumn: map[string]string{}, columns: map[string]bool{}, keys: map[string]bool{}, keyAPI: map[string]string{}}
	for _, r := range rows {
		name, kind := fmt.Sprint(r["name"]), fmt.Sprint(r["kind"])
		switch kind {
		case "column":
			cs.columns[name] = true
			if m := apiNameRE.FindStringSubmatch(fmt.Sprint(r["description"])); m != nil {
				cs.apiToColumn[m[1]] = name
			}
		case "required key", "optional key":
			cs.keys[name] = true
			if m := apiNameRE.FindStringSubmatch(fmt.Sprint(r["description"])); m != nil {
				cs.keyAPI[name] = m[1]
			}
		}
	}
	return cs
}

// valueOnly says whether the table's items have no columns of their own
// (DESCRIBE lists none but value): each row holds its item in column value.
func (cs columnSet) valueOnly() bool {
	for c := range cs.columns {
		if c != "value" {
			return false
		}
	}
	return true
}

// column finds the engine's column of an item's field: the renamed one
// DESCRIBE names, the same name, or the same name in another case.
func (cs columnSet) column(field string, row map[string]any) (string, bool) {
	if c, ok := cs.apiToColumn[field]; ok {
		if _, in := row[c]; in {
			return c, true
		}
	}
	if _, ok := row[field]; ok {
		return field, true
	}
	var found []string
	for c := range row {
		if strings.EqualFold(c, field) {
			found = append(found, c)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return "", false
}

// compareRows compares the engine's rows with the expected items (at most
// limit of them, in order) field by field and returns each difference. An
// object item's fields must each be a column holding an equal JSON value;
// a column the item lacks must be null (or a WHERE key); a scalar item,
// or an object item of a table without columns of its own, is the row's
// value column. A field the item schema does not declare (the example
// has more) needs no column; when the engine has one, it is compared. A
// field that is also a WHERE key is not compared (the
// row shows the bound value; a mock does not echo it). A difference in a
// value whose type contradicts the item schema (the description's
// example says 10 where its schema says string) is returned apart, in
// contra. No difference means the rows are right.
func (d *oaDoc) compareRows(got []map[string]any, items []any, itemSchema map[string]any, limit int, cs columnSet) (diffs, contra []string) {
	want := items
	if len(want) > limit {
		want = want[:limit]
	}
	if len(got) != len(want) {
		diffs = append(diffs, fmt.Sprintf("%d rows, want %d", len(got), len(want)))
	}
	props := d.properties(itemSchema)
	for i := 0; i < len(got) && i < len(want); i++ {
		row := got[i]
		obj, isObj := want[i].(map[string]any)
		if _, hasValue := row["value"]; hasValue && isObj && cs.valueOnly() {
			isObj = false // items without properties: the whole item in column value
		}
		if !isObj {
			v, ok := row["value"]
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("row %d: no value column for the item %s", i+1, short(want[i])))
			case jsonEqual(v, want[i]):
			case d.contradicts(itemSchema, want[i]):
				contra = append(contra, fmt.Sprintf("row %d value: got %s, want %s (the schema says %v)", i+1, short(v), short(want[i]), itemSchema["type"]))
			default:
				diffs = append(diffs, fmt.Sprintf("row %d value: got %s, want %s", i+1, short(v), short(want[i])))
			}
			continue
		}
		used := map[string]bool{}
		for _, f := range slices.Sorted(maps.Keys(obj)) {
			c, ok := cs.column(f, row)
			if !ok {
				if _, declared := props[f]; (declared || len(props) == 0) && obj[f] != nil {
					diffs = append(diffs, fmt.Sprintf("row %d: no column for field %s", i+1, f))
				}
				continue
			}
			used[c] = true
			switch {
			case cs.keys[c], jsonEqual(row[c], obj[f]):
			case d.contradicts(props[f], obj[f]):
				contra = append(contra, fmt.Sprintf("row %d %s: got %s, want %s (the schema says %v)", i+1, f, short(row[c]), short(obj[f]), props[f]["type"]))
			default:
				diffs = append(diffs, fmt.Sprintf("row %d %s: got %s, want %s", i+1, f, short(row[c]), short(obj[f])))
			}
		}
		for _, c := range slices.Sorted(maps.Keys(row)) {
			if used[c] || cs.keys[c] || row[c] == nil || (c == "ok" && row[c] == true && len(obj) == 0) {
				continue
			}
			diffs = append(diffs, fmt.Sprintf("row %d: column %s = %s is no field of the item", i+1, c, short(row[c])))
		}
	}
	return diffs, contra
}

// jsonEqual compares two decoded JSON values; numbers by exact value
// (1 equals 1.0; 12345678901234567890 does not equal 1.2345678901234567e19).
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		rx, okx := new(big.Rat).SetString(x.String())
		ry, oky := new(big.Rat).SetString(y.String())
		if !okx || !oky {
			return x == y
		}
		return rx.Cmp(ry) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, in := y[k]
			if !in || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// short is a value as JSON, cut to 60 bytes, for a report line.
func short(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// forMock rewrites a description for prism, keeping every other byte and
// key order: only the paths in keep and their GET operations (prism
// parses everything it is given, which takes minutes on Stripe's whole
// description), no servers (top level, path items, operations), no
// security requirements, and Stripe's expandable fields unexpanded (see
// unexpand).
func forMock(data []byte, keep map[string]bool) ([]byte, error) {
	top, err := readObject(data)
	if err != nil {
		return nil, err
	}
	top = dropKeys(top, "servers", "security")
	for i, kv := range top {
		if kv.key != "paths" {
			continue
		}
		paths, err := readObject(kv.val)
		if err != nil {
			return nil, fmt.Errorf("paths: %w", err)
		}
		kept := paths[:0:0]
		for _, p := range paths {
			if keep[p.key] {
				kept = append(kept, p)
			}
		}
		paths = kept
		for j, p := range paths {
			item, err := readObject(p.val)
			if err != nil {
				continue // a $ref or something prism will judge
			}
			item = dropKeys(item, "servers", "put", "post", "delete", "options", "head", "patch", "trace")
			for k, o := range item {
				if o.key == "get" {
					if op, err := readObject(o.val); err == nil {
						item[k].val = writeObject(dropKeys(op, "servers", "security"))
					}
				}
			}
			paths[j].val = writeObject(item)
		}
		top[i].val = writeObject(paths)
	}
	out := writeObject(top)
	if bytes.Contains(out, []byte(`"x-expansionResources"`)) {
		out = unexpand(out)
	}
	return out, nil
}

// unexpand serves Stripe's expandable fields as their first, unexpanded
// branch: a property marked x-expansionResources whose anyOf starts with
// a string schema becomes that string schema. It is what Stripe answers
// without expand[], and valid against the unchanged description; the
// expanded branches reference each other in cycles that keep prism
// loading for more than 20 minutes.
func unexpand(raw json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return raw
	}
	switch t[0] {
	case '{':
		kvs, err := readObject(t)
		if err != nil {
			return raw
		}
		var anyOf, marker bool
		for _, kv := range kvs {
			anyOf = anyOf || kv.key == "anyOf"
			marker = marker || kv.key == "x-expansionResources"
		}
		if anyOf && marker {
			for _, kv := range kvs {
				if kv.key != "anyOf" {
					continue
				}
				var branches []json.RawMessage
				if json.Unmarshal(kv.val, &branches) != nil || len(branches) == 0 {
					break
				}
				first, err := readObject(branches[0])
				isString := false
				for _, f := range first {
					isString = isString || (f.key == "type" && string(bytes.TrimSpace(f.val)) == `"string"`)
				}
				if err != nil || !isString {
					break
				}
				kvs = append(dropKeys(kvs, "anyOf", "x-expansionResources"), first...)
				break
			}
		}
		for i := range kvs {
			kvs[i].val = unexpand(kvs[i].val)
		}
		return writeObject(kvs)
	case '[':
		var elems []json.RawMessage
		if json.Unmarshal(t, &elems) != nil {
			return raw
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for i, e := range elems {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(unexpand(e))
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	return raw
}

type jsonKV struct {
	key string
	val json.RawMessage
}

func readObject(data []byte) ([]jsonKV, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []jsonKV
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, jsonKV{key, v})
	}
	return out, nil
}

func writeObject(kvs []jsonKV) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range kvs {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(kv.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func dropKeys(kvs []jsonKV, keys ...string) []jsonKV {
	out := kvs[:0:0]
	for _, kv := range kvs {
		drop := false
		for _, k := range keys {
			drop = drop || kv.key == k
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}
