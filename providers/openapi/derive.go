package openapi

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// paginationParams are the numbered-page parameters of Link paging: when
// a method declares per_page they are not listed as method parameters and
// the method is Paginated (GitHub). A page without per_page is left to
// inferPaging (paging.go): the engine sends only parameters a method
// declares.
var paginationParams = map[string]bool{"page": true, "per_page": true}

// transportHeaders are header parameters the client sets itself (or that
// describe the transport): they are never WHERE parameters.
var transportHeaders = map[string]bool{"authorization": true, "accept": true, "accept-encoding": true,
	"accept-language": true, "content-type": true, "content-length": true, "user-agent": true, "host": true,
	"connection": true, "cookie": true, "if-none-match": true, "if-modified-since": true, "if-match": true,
	"if-unmodified-since": true, "cache-control": true}

// DeriveTables turns the GET operations of doc into resources of the
// provider name, following the rule in the package documentation, with
// the naming data of an overrides file (may be nil); every entry of tn
// must be used. The header's Resources list is filled in by
// providers.Encode.
func DeriveTables(doc *openapi3.T, name string, tn *TableNames) (providers.Header, []*providers.Resource, error) {
	var h providers.Header
	if doc == nil {
		return h, nil, fmt.Errorf("provider %s: no OpenAPI document", name)
	}
	if name == "" {
		return h, nil, fmt.Errorf("provider name is empty")
	}
	h.Provider = name
	if doc.Info != nil {
		h.Version = doc.Info.Version
	}
	if len(doc.Servers) > 0 && doc.Servers[0] != nil {
		h.BaseURL = serverURL(doc.Servers[0])
	}
	h.Security = deriveSecurity(doc) // security.go
	declared := securityDeclared(doc)

	if doc.Paths == nil || doc.Paths.Len() == 0 {
		return h, nil, fmt.Errorf("provider %s: the document has no paths", name)
	}
	// Before any walk: a schema made of itself, or of exponentially many
	// schemas, is refused here instead of exhausting the stack or memory.
	if err := checkSchemas(doc); err != nil {
		return h, nil, fmt.Errorf("provider %s: %w", name, err)
	}
	pathMap := doc.Paths.Map()
	paths := make([]string, 0, len(pathMap))
	for p := range pathMap {
		paths = append(paths, p)
	}
	sort.Strings(paths)

	byKey := map[string]*group{}
	var order []*group
	nGet := 0
	unresolved := unresolvedOps(doc)
	for _, path := range paths {
		item := pathMap[path]
		if why, ok := unresolved[path]; ok {
			// a $ref to a file the document does not include (extrefs.go)
			nGet++
			id := ""
			if item != nil && item.Get != nil {
				id = item.Get.OperationID
			}
			h.Skipped = append(h.Skipped, providers.SkippedMethod{OperationID: id, Path: path, Reason: why})
			continue
		}
		if item == nil || item.Get == nil {
			continue
		}
		op := item.Get
		nGet++
		if notRows(op) {
			// a download or a binary: not a table (package doc)
			h.Skipped = append(h.Skipped, providers.SkippedMethod{OperationID: op.OperationID, Path: path,
				Reason: "a download: its success answer is a redirect or a body that is neither JSON nor text"})
			continue
		}
		if why := changesState(op, path); why != "" {
			h.Skipped = append(h.Skipped, providers.SkippedMethod{OperationID: op.OperationID, Path: path, Reason: why})
			continue
		}
		service, resource := resourceName(op, path)
		if service == "" || resource == "" {
			service = rootName(doc, op) // GET / or /{param}
			resource = service
		}
		m, err := deriveMethod(path, item, op)
		if err != nil {
			return h, nil, fmt.Errorf("provider %s: GET %s: %w", name, path, err)
		}
		m.Auth = methodAuth(doc, op, h.Security, declared)
		dropKeyParams(m, h.Security)
		if err := tn.applyRows(op, m); err != nil {
			return h, nil, fmt.Errorf("provider %s: %w", name, err)
		}
		key := service + "." + resource
		g := byKey[key]
		if g == nil {
			g = &group{service: service, name: resource}
			byKey[key] = g
			order = append(order, g)
		}
		g.methods = append(g.methods, m)
		g.ops = append(g.ops, op)
		g.entities = append(g.entities, MethodEntity(op, m))
	}
	if nGet == 0 {
		return h, nil, fmt.Errorf("provider %s: the document has no GET operations", name)
	}
	resources, err := splitEntities(name, order, tn)
	if err != nil {
		return h, nil, err
	}
	if stale := tn.unused(); len(stale) > 0 {
		return h, nil, fmt.Errorf("provider %s: overrides tables entries match nothing in the document: %s", name, strings.Join(stale, "; "))
	}
	AssignSQLNames(resources)
	if msg := inferErrorMessage(doc); msg != nil {
		h.Profile = &providers.Profile{ErrorMessage: msg} // the profile file may override it
	}
	return h, resources, nil
}

// notRows reports an operation whose success answer cannot be rows: it is
// only a redirect (archive and log downloads answer 302 to another host)
// or a binary body (no JSON, no text/* media type). Reading such an answer
// would download a whole archive to produce one row of WHERE values. A 2xx
// without a body (204) or with plain text (a ShapeNone method) stays.
func notRows(op *openapi3.Operation) bool {
	if op.Responses == nil {
		return false
	}
	documented := false // some 2xx or 3xx answer is documented
	for code, ref := range op.Responses.Map() {
		if len(code) != 3 || (code[0] != '2' && code[0] != '3') || code == "304" || ref == nil || ref.Value == nil {
			continue
		}
		documented = true
		if code[0] != '2' {
			continue
		}
		if len(ref.Value.Content) == 0 || jsonMedia(ref.Value.Content) != nil || len(textOf(ref.Value.Content)) > 0 {
			return false
		}
	}
	return documented
}

// xGitHub returns the x-github category and subcategory of op.
func xGitHub(op *openapi3.Operation) ([2]string, bool) {
	raw, ok := op.Extensions["x-github"]
	if !ok {
		return [2]string{}, false
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return [2]string{}, false
	}
	cat, _ := m["category"].(string)
	sub, _ := m["subcategory"].(string)
	if cat == "" || sub == "" {
		return [2]string{}, false
	}
	return [2]string{cat, sub}, true
}

// pathSegments returns the non-parameter segments of a path template in
// snake_case, without version prefixes.
func pathSegments(path string) []string {
	var out []string
	i := 0
	for _, seg := range strings.Split(path, "/") {
		if seg == "" || strings.HasPrefix(seg, "{") {
			continue
		}
		s := SnakeCase(trimFormat(seg))
		if s == "" || isVersionSegment(s, i) {
			i++
			continue
		}
		i++
		out = append(out, writable(s))
	}
	return out
}

// resourceName applies the naming rule of the package documentation.
func resourceName(op *openapi3.Operation, path string) (service, resource string) {
	if x, ok := xGitHub(op); ok {
		return SnakeCase(x[0]), SnakeCase(x[1])
	}
	segs := pathSegments(path)
	for _, t := range op.Tags {
		if service = serviceName(t); service != "" {
			break
		}
	}
	if service == "" {
		if len(segs) == 0 {
			return "", ""
		}
		service = segs[0]
	}
	rest := segs
	for i, s := range segs {
		if sameWord(s, service) {
			rest = segs[i+1:]
			break
		}
	}
	for _, s := range rest {
		if !sameWord(s, service) {
			return service, s
		}
	}
	return service, service
}

// methodName derives a method name from the operationId or the path.
func methodName(op *openapi3.Operation, path string) string {
	if id := op.OperationID; id != "" {
		if i := strings.LastIndex(id, "/"); i >= 0 {
			id = id[i+1:]
		}
		if n := SnakeCase(id); n != "" {
			return n
		}
	}
	parts := []string{"get"}
	for _, seg := range strings.Split(path, "/") {
		if seg == "" {
			continue
		}
		if strings.HasPrefix(seg, "{") {
			parts = append(parts, "by", SnakeCase(strings.Trim(seg, "{}")))
		} else {
			parts = append(parts, SnakeCase(seg))
		}
	}
	return SnakeCase(strings.Join(parts, "_"))
}

func deriveMethod(path string, item *openapi3.PathItem, op *openapi3.Operation) (*providers.Method, error) {
	m := &providers.Method{
		Name:        writable(methodName(op, path)),
		OperationID: op.OperationID,
		Path:        path,
		Summary:     FirstSentence(op.Summary),
	}
	params, paged := deriveParams(path, item.Parameters, op.Parameters)
	m.Params, m.Paginated = params, paged
	m.Shape, m.ItemKey, m.Columns = deriveShape(op, listHints(path, item, op))
	inferPaging(item, op, m) // paging.go
	if m.Shape == providers.ShapeNone && textMedia(op) != nil {
		m.Shape = providers.ShapeText
	}
	m.ValueType = valueType(op, m)
	m.Accept = accept(op, m)
	return m, nil
}

// deriveParams merges path-item and operation parameters (the operation's
// win), keeps path, query and header ones (not the transport's own
// headers), and drops page and per_page when per_page is declared (Link
// paging).
func deriveParams(path string, itemParams, opParams openapi3.Parameters) ([]providers.Param, bool) {
	type key struct{ name, in string }
	merged := map[key]*openapi3.Parameter{}
	var keys []key
	for _, list := range []openapi3.Parameters{itemParams, opParams} {
		for _, ref := range list {
			if ref == nil || ref.Value == nil {
				continue
			}
			p := ref.Value
			if p.In != openapi3.ParameterInPath && p.In != openapi3.ParameterInQuery && p.In != openapi3.ParameterInHeader {
				continue
			}
			if p.In == openapi3.ParameterInHeader && transportHeaders[strings.ToLower(p.Name)] {
				continue
			}
			k := key{p.Name, p.In}
			if _, ok := merged[k]; !ok {
				keys = append(keys, k)
			}
			merged[k] = p
		}
	}
	_, paged := merged[key{"per_page", openapi3.ParameterInQuery}]
	var pathParams, queryParams []providers.Param
	for _, k := range keys {
		p := merged[k]
		if paged && k.in == openapi3.ParameterInQuery && paginationParams[p.Name] {
			continue
		}
		typ := providers.TypeText
		var schema *openapi3.Schema
		if p.Schema != nil {
			schema = p.Schema.Value
			typ = paramType(schema)
		}
		pp := providers.Param{Name: p.Name, In: k.in, Required: p.Required, Type: typ}
		pp.Enum, pp.Default = paramValues(schema, typ)
		if k.in == openapi3.ParameterInPath {
			pp.Required = true
			pp.Slashes = multiSegment(p)
			pathParams = append(pathParams, pp)
		} else {
			queryParams = append(queryParams, pp)
		}
	}
	// Path parameters in the order they appear in the template.
	pos := func(name string) int {
		if i := strings.Index(path, "{"+name+"}"); i >= 0 {
			return i
		}
		return len(path)
	}
	sort.SliceStable(pathParams, func(i, j int) bool { return pos(pathParams[i].Name) < pos(pathParams[j].Name) })
	return append(pathParams, queryParams...), paged
}

// multiSegment reports whether the description marks a path parameter
// as a path of several segments (x-multi-segment: true, GitHub's
// extension, on the contents path and git refs, among others).
func multiSegment(p *openapi3.Parameter) bool {
	v, _ := p.Extensions["x-multi-segment"].(bool)
	return v
}

func paramType(s *openapi3.Schema) string {
	switch t := scalarType(s, 0); t {
	case providers.TypeText, providers.TypeInteger, providers.TypeReal, providers.TypeBoolean:
		return t
	}
	return providers.TypeText
}

// responseSchema picks the 200 (else lowest 2xx) response's JSON schema.
// ok is false when there is no such response with a JSON body.
func responseSchema(op *openapi3.Operation) (*openapi3.Schema, bool) {
	mt := successMedia(op)
	if mt == nil {
		return nil, false
	}
	if mt.Schema == nil || mt.Schema.Value == nil {
		return &openapi3.Schema{}, true
	}
	return mt.Schema.Value, true
}

// successMedia returns the JSON media type of the 200 (else lowest 2xx)
// response, or nil when there is none or that response has no JSON body
// (the first 2xx present decides: 204 means no body).
func successMedia(op *openapi3.Operation) *openapi3.MediaType {
	if r := successResponse(op); r != nil {
		return jsonMedia(r.Content)
	}
	return nil
}

// successResponse returns the 200 (else lowest 2xx) response, or nil.
func successResponse(op *openapi3.Operation) *openapi3.Response {
	if op.Responses == nil {
		return nil
	}
	var codes []string
	for code := range op.Responses.Map() {
		if len(code) == 3 && code[0] == '2' && code != "200" {
			codes = append(codes, code)
		}
	}
	sort.Strings(codes)
	codes = append([]string{"200"}, codes...)
	for _, code := range codes {
		ref := op.Responses.Value(code)
		if ref == nil || ref.Value == nil {
			continue
		}
		return ref.Value
	}
	return nil
}

// textMedia returns the text/* media types of the success response when
// it declares no JSON body (a log, a plain-text version string), sorted,
// else nil.
func textMedia(op *openapi3.Operation) []string {
	r := successResponse(op)
	if r == nil || jsonMedia(r.Content) != nil {
		return nil
	}
	return textOf(r.Content)
}

// mediaBase is a media type without its parameters.
func mediaBase(n string) string { return strings.TrimSpace(strings.SplitN(n, ";", 2)[0]) }

// accept is the Accept header of method m of op: "" (application/json,
// the client's default) when the success response declares
// application/json or no body, else the JSON media types it declares
// (application/jwk-set+json), else its text/* types (ShapeText). A method
// whose answer is one string also accepts the text/* types declared
// beside JSON (a log, which Kubernetes serves as text/plain).
func accept(op *openapi3.Operation, m *providers.Method) string {
	r := successResponse(op)
	if r == nil || len(r.Content) == 0 {
		return ""
	}
	var jsonTypes []string
	plain := false
	for n := range r.Content {
		base := strings.ToLower(mediaBase(n))
		switch {
		case base == "application/json":
			plain = true
		case strings.HasSuffix(base, "+json"):
			jsonTypes = append(jsonTypes, mediaBase(n))
		}
	}
	sort.Strings(jsonTypes)
	text := textMedia(op)
	switch {
	case !plain && len(jsonTypes) == 0:
		return strings.Join(slices.Compact(text), ", ")
	case m.ValueColumn() && m.ValueType == providers.TypeText && len(textOf(r.Content)) > 0:
		if plain {
			jsonTypes = append([]string{"application/json"}, jsonTypes...)
		}
		return strings.Join(slices.Compact(append(jsonTypes, textOf(r.Content)...)), ", ")
	case plain:
		return ""
	}
	return strings.Join(slices.Compact(jsonTypes), ", ")
}

// textOf returns the text media types of a content map, sorted: text/*,
// and */* when its schema is a string that is not binary (Kubernetes
// declares a pod's log so).
func textOf(c openapi3.Content) []string {
	var out []string
	for n, mt := range c {
		base := strings.ToLower(mediaBase(n))
		if strings.HasPrefix(base, "text/") || base == "*/*" && textSchema(mt) {
			out = append(out, mediaBase(n))
		}
	}
	sort.Strings(out)
	return out
}

// textSchema reports whether a media type's schema is a string that is
// not a file (format binary or byte).
func textSchema(mt *openapi3.MediaType) bool {
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return false
	}
	s := mt.Schema.Value
	return s.Type.Is(openapi3.TypeString) && s.Format != "binary" && s.Format != "byte"
}

func jsonMedia(c openapi3.Content) *openapi3.MediaType {
	if mt := c["application/json"]; mt != nil {
		return mt
	}
	var names []string
	for n := range c {
		base := strings.TrimSpace(strings.SplitN(n, ";", 2)[0])
		if base == "application/json" || strings.HasSuffix(base, "+json") {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	return c[names[0]]
}

func deriveShape(op *openapi3.Operation, hints listHint) (shape providers.Shape, itemKey string, cols []providers.Column) {
	s, ok := responseSchema(op)
	if !ok {
		return providers.ShapeNone, "", nil
	}
	if isArray(s) {
		return providers.ShapeArray, "", columnsOf(itemsOf(s))
	}
	if alts := arrayAlternatives(s); alts != nil {
		// oneOf/anyOf of arrays (e.g. two item representations): the
		// union of the item properties.
		u := &openapi3.Schema{}
		for _, a := range alts {
			if it := itemsOf(a); it != nil {
				u.AnyOf = append(u.AnyOf, &openapi3.SchemaRef{Value: it})
			}
		}
		return providers.ShapeArray, "", columnsOf(u)
	}
	if u := mixedAlternatives(s); u != nil {
		// oneOf an array and objects (GitHub's contents: a directory is
		// an array of entries, a file one object): the shape is left
		// undeclared, so the client reads an array as a list and an
		// object as one item; the columns are the union of both.
		return "", "", columnsOf(u)
	}
	props := properties(s, 0)
	if props == nil {
		return providers.ShapeObject, "", nil
	}
	if key := listKey(s, props, hints); key != "" {
		return providers.ShapeWrapped, key, columnsOf(itemsOf(props.byName[key][0]))
	}
	if key := entityWrapper(props); key != "" {
		// One entity in a wrapper (Asana's {"data": {...}}): one row with
		// the entity's columns, not the wrapper's one column.
		return providers.ShapeObject, key, columnsOf(props.byName[key][0])
	}
	// A list one level down ({"categories": {"items": [...], "next": ...}}):
	// the only property beside the envelope fields is an object that is a
	// list itself.
	var inner, scalars []string
	for _, name := range props.names {
		if isEnvelopeField(name) {
			continue
		}
		if alts := props.byName[name]; hints.paged && len(alts) == 1 && scalarType(alts[0], 0) != providers.TypeJSON {
			scalars = append(scalars, name)
			continue
		}
		inner = append(inner, name)
	}
	if len(inner) == 1 && !strings.ContainsAny(inner[0], ".@") {
		if alts := props.byName[inner[0]]; len(alts) == 1 && alts[0] != nil && !isArray(alts[0]) {
			// The inner object holds more than its array (a bare {limits:
			// [...]} is an item's part, Kubernetes' LimitRange spec).
			if in := properties(alts[0], 0); in != nil && len(in.names) > 1 {
				key := listKey(alts[0], in, hints)
				if len(scalars) > 0 && (key == "" || envelopeKey(in.names, []string{key}) == "") {
					// Scalars beside the inner object ({message,
					// playlists: {items, next, total}}) on a paged
					// operation: only when the inner object is a bare
					// page of a list.
					key = ""
				}
				if key != "" && !strings.ContainsAny(key, ".@") {
					return providers.ShapeWrapped, inner[0] + "." + key, columnsOf(itemsOf(in.byName[key][0]))
				}
			}
		}
	}
	return providers.ShapeObject, "", props.columns()
}

// valueType is the type of the value column of a method whose items are
// not objects with properties: the items' scalar type when their schema
// declares one (a list of strings, a plain string body), else "" (JSON).
func valueType(op *openapi3.Operation, m *providers.Method) string {
	if !m.ValueColumn() {
		return ""
	}
	if m.Shape == providers.ShapeText {
		return providers.TypeText
	}
	s, ok := responseSchema(op)
	if !ok {
		return ""
	}
	var item *openapi3.Schema
	switch m.Shape {
	case providers.ShapeArray:
		item = itemsOf(s)
	case providers.ShapeWrapped:
		if ps := properties(s, 0); ps != nil && len(ps.byName[m.ItemKey]) == 1 {
			item = itemsOf(ps.byName[m.ItemKey][0])
		}
	case providers.ShapeObject:
		item = s
	}
	if item == nil {
		return ""
	}
	switch t := columnType(item); t {
	case providers.TypeText, providers.TypeInteger, providers.TypeReal, providers.TypeBoolean:
		return t
	}
	return ""
}

// listHint is what an operation says about whether it reads a list,
// beside its response schema: its path's last segment (a collection, or
// "" when the path ends with a parameter: one item) and whether it
// declares a paging parameter.
type listHint struct {
	collection string // the last segment when it is not a parameter
	named      string // the last segment that is not a parameter
	paged      bool   // a paging parameter, or an operation named list
	// query holds the operation's query parameter names: a property of
	// the answer with one of these names echoes the request (a report's
	// year and month, from and to) and sits beside the rows.
	query map[string]bool
}

// pagingParamNames are the request parameters that only a list takes.
var pagingParamNames = map[string]bool{"page": true, "per_page": true, "limit": true, "offset": true, "cursor": true,
	"page_token": true, "pagetoken": true, "next_page_token": true, "starting_after": true, "ending_before": true,
	"startat": true, "maxresults": true, "max_results": true, "page_size": true, "pagesize": true, "pagelen": true,
	"continue": true, "after": true, "before": true, "skip": true, "top": true, "$top": true, "$skip": true, "count": true}

// listHints reads the operation's hints for listKey.
func listHints(path string, item *openapi3.PathItem, op *openapi3.Operation) listHint {
	var h listHint
	segs := strings.Split(strings.TrimRight(path, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if seg := segs[i]; seg != "" && !strings.HasPrefix(seg, "{") {
			h.named = SnakeCase(trimFormat(seg))
			if i == len(segs)-1 {
				h.collection = h.named
			}
			break
		}
	}
	for _, list := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, ref := range list {
			if ref == nil || ref.Value == nil || ref.Value.In != openapi3.ParameterInQuery {
				continue
			}
			if pagingParamNames[strings.ToLower(ref.Value.Name)] {
				h.paged = true
			}
			if h.query == nil {
				h.query = map[string]bool{}
			}
			h.query[ref.Value.Name] = true
		}
	}
	// The operation's name says list: /conversations.list, listUsers,
	// users/list-for-org.
	last := strings.ToLower(segs[len(segs)-1])
	id := SnakeCase(op.OperationID[strings.LastIndexAny(op.OperationID, "/.")+1:])
	if strings.HasSuffix(last, ".list") || id == "list" || strings.HasPrefix(id, "list_") {
		h.paged = true
	}
	return h
}

// listKeys are the names of an item array that say "the rows" whatever
// the path names.
var listKeys = map[string]bool{"items": true, "data": true, "results": true, "result": true, "values": true,
	"value": true, "records": true, "entries": true, "list": true, "elements": true, "content": true, "rows": true,
	"objects": true, "resources": true, "hits": true, "nodes": true, "edges": true}

// pagingSignals are the response fields that say a list goes on (the
// "more" signals), read at the top of the answer or one level down. Only
// names no single item uses for something else: not total, page or
// offset (an order's total, a document's page).
var pagingSignals = []string{"has_more", "hasMore", "has_next", "hasNext", "has_next_page", "hasNextPage", "next_cursor",
	"nextCursor", "next_page_token", "nextPageToken", "next_page_uri", "next_page_url", "nextLink", "@odata.nextLink",
	"isLast", "is_last", "total_pages", "totalPages", "total_records", "totalRecords", "total_results", "totalResults", "total_items", "totalItems"}

// listKey returns the item array of an object response when the object is
// a list of that array's items, else "". The object must hold exactly one
// array of objects; it is a list when the operation says so (a paging
// parameter; a name that says list: /conversations.list, listUsers; the path's last named segment naming the array, singular or
// plural: /git/trees/{sha} and its tree; or a path ending in a name, not
// a parameter, with an array named like rows: items, data, results ...),
// when the answer carries a paging field (has_more, next_cursor,
// total_pages ..., at its top or one level down), when it has a
// total_count, or when every other property is paging or metadata
// (envelopeFields). Otherwise it is one item holding an array: a category
// at /categories/{id} with its icons, a branch's status-check policy and
// its checks. The counts of sibling scalars do not decide.
func listKey(s *openapi3.Schema, props *propSet, h listHint) string {
	key := soleObjectArray(props)
	if key == "" {
		return ""
	}
	if _, ok := props.byName["total_count"]; ok {
		return key
	}
	if envelopeKey(props.names, []string{key}) != "" {
		// Tags and metadata only beside the array ({apiVersion, kind,
		// metadata, items}); on one entity's path (/endpoints/{name})
		// that is the entity itself holding a list ({apiVersion, kind,
		// metadata, subsets}) unless the array is named like rows or the
		// operation pages.
		if h.collection != "" || h.paged || listKeys[strings.ToLower(key)] || h.named != "" && sameWord(SnakeCase(key), h.named) {
			return key
		}
		return ""
	}
	if echoesQuery(props.names, key, h.query) {
		return key // {dates: [...], year, month} for ?year=&month=
	}
	if h.paged {
		return key
	}
	for _, f := range pagingSignals {
		if f != key && (schemaAt(s, f, "string") || schemaAt(s, f, "integer") || schemaAt(s, f, "boolean") || nestedSignal(props, key, f)) {
			return key
		}
	}
	if h.named != "" && sameWord(SnakeCase(key), h.named) {
		return key // the array of the entity the path names (/git/trees/{sha}: tree)
	}
	if h.collection != "" && listKeys[strings.ToLower(key)] {
		return key
	}
	return ""
}

// entityWrappers are the names of a property that wraps one entity and
// nothing else but envelope fields (Asana's {"data": {...}}).
var entityWrappers = map[string]bool{"data": true, "result": true}

// entityWrapper returns the property of an object answer that wraps one
// entity: named data or result, an object with properties of its own
// (not a list), beside nothing but envelope fields; else "".
func entityWrapper(props *propSet) string {
	key := ""
	for _, name := range props.names {
		if isEnvelopeField(name) {
			continue
		}
		if key != "" || !entityWrappers[name] {
			return ""
		}
		key = name
	}
	if key == "" {
		return ""
	}
	alts := props.byName[key]
	if len(alts) != 1 || alts[0] == nil || isArray(alts[0]) || !isObject(alts[0]) {
		return ""
	}
	if in := properties(alts[0], 0); in == nil || len(in.names) == 0 {
		return ""
	}
	return key
}

// echoesQuery reports whether every property beside the array key is
// paging or metadata (isEnvelopeField) or has the name of one of the
// operation's query parameters (the answer repeats the request), with
// at least one such echo.
func echoesQuery(names []string, key string, query map[string]bool) bool {
	echo := false
	for _, n := range names {
		switch {
		case n == key || isEnvelopeField(n):
		case query[n]:
			echo = true
		default:
			return false
		}
	}
	return echo
}

// nestedSignal reports a paging field f in a metadata object beside the
// item array (response_metadata.next_cursor, paging.pages, meta.total,
// page_info.has_next_page): not in any object, since an item may hold a
// list of its own (a Stripe subscription's items: {data, has_more}).
func nestedSignal(props *propSet, key, f string) bool {
	for _, name := range props.names {
		alts := props.byName[name]
		if name == key || len(alts) != 1 || alts[0] == nil || isArray(alts[0]) || strings.ContainsAny(name, ".@") ||
			!(isEnvelopeField(name) || strings.EqualFold(strings.ReplaceAll(name, "_", ""), "pageinfo")) {
			continue
		}
		if in := properties(alts[0], 0); in != nil {
			if schemaAt(alts[0], f, "string") || schemaAt(alts[0], f, "integer") || schemaAt(alts[0], f, "boolean") {
				return true
			}
		}
	}
	return false
}

// arrayAlternatives returns the alternatives of a type-less top-level
// oneOf/anyOf when every one of them is an array, else nil.
func arrayAlternatives(s *openapi3.Schema) []*openapi3.Schema {
	if s == nil || len(nonNullTypes(s)) > 0 || len(s.Properties) > 0 {
		return nil
	}
	var out []*openapi3.Schema
	for _, list := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, ref := range list {
			if ref == nil || ref.Value == nil || !isArray(ref.Value) {
				return nil
			}
			out = append(out, ref.Value)
		}
	}
	return out
}

// mixedAlternatives is the union of the item schemas of a oneOf/anyOf
// whose alternatives are arrays and objects, both (nil otherwise).
func mixedAlternatives(s *openapi3.Schema) *openapi3.Schema {
	if s == nil || len(nonNullTypes(s)) > 0 || len(s.Properties) > 0 {
		return nil
	}
	u := &openapi3.Schema{}
	arrays, objects := 0, 0
	for _, list := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, ref := range list {
			switch {
			case ref == nil || ref.Value == nil:
				return nil
			case isArray(ref.Value):
				arrays++
				if it := itemsOf(ref.Value); it != nil {
					u.AnyOf = append(u.AnyOf, &openapi3.SchemaRef{Value: it})
				}
			default:
				objects++
				u.AnyOf = append(u.AnyOf, ref)
			}
		}
	}
	if arrays == 0 || objects == 0 {
		return nil
	}
	return u
}

// propSet is an ordered union of properties; a name may have several
// candidate schemas (from oneOf/anyOf alternatives).
type propSet struct {
	names  []string
	byName map[string][]*openapi3.Schema
}

func (ps *propSet) add(name string, s *openapi3.Schema) {
	if _, ok := ps.byName[name]; !ok {
		ps.names = append(ps.names, name)
	}
	ps.byName[name] = append(ps.byName[name], s)
}

func (ps *propSet) columns() []providers.Column {
	cols := make([]providers.Column, 0, len(ps.names))
	for _, n := range ps.names {
		t := ""
		for _, s := range ps.byName[n] {
			ct := columnType(s)
			if t == "" {
				t = ct
			} else if t != ct {
				t = providers.TypeJSON
			}
		}
		cols = append(cols, providers.Column{Name: n, Type: t})
	}
	sort.Slice(cols, func(i, j int) bool { return cols[i].Name < cols[j].Name })
	return cols
}

const maxDepth = 16

// properties returns the merged properties of an object schema (allOf
// merged, oneOf/anyOf unioned), or nil when s is not object-like.
func properties(s *openapi3.Schema, depth int) *propSet {
	if s == nil || depth > maxDepth {
		return nil
	}
	ps := &propSet{byName: map[string][]*openapi3.Schema{}}
	found := false
	var walk func(s *openapi3.Schema, depth int)
	walk = func(s *openapi3.Schema, depth int) {
		if s == nil || depth > maxDepth {
			return
		}
		if s.Type.Is(openapi3.TypeObject) || len(s.Properties) > 0 {
			found = true
		}
		if tupleForm(s) {
			walk(s.Items.Value, depth+1) // one value of the alternatives
		}
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if ref := s.Properties[n]; ref != nil && ref.Value != nil {
				ps.add(n, ref.Value)
			} else {
				ps.add(n, nil)
			}
		}
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
			for _, ref := range list {
				if ref != nil {
					walk(ref.Value, depth+1)
				}
			}
		}
	}
	walk(s, depth)
	if !found {
		return nil
	}
	return ps
}

func columnsOf(item *openapi3.Schema) []providers.Column {
	if item == nil {
		return nil
	}
	ps := properties(item, 0)
	if ps == nil {
		return nil
	}
	return ps.columns()
}

// nonNullTypes returns the declared types without "null".
func nonNullTypes(s *openapi3.Schema) []string {
	if s == nil || s.Type == nil {
		return nil
	}
	var out []string
	for _, t := range s.Type.Slice() {
		if t != openapi3.TypeNull {
			out = append(out, t)
		}
	}
	return out
}

func isArray(s *openapi3.Schema) bool { return isArrayAt(s, 0) }

func isArrayAt(s *openapi3.Schema, depth int) bool {
	if s == nil || depth > maxDepth {
		return false
	}
	ts := nonNullTypes(s)
	if len(ts) == 1 {
		return ts[0] == openapi3.TypeArray
	}
	if len(ts) == 0 && s.Items != nil && !objectKeywords(s) && !tupleForm(s) {
		return true
	}
	if len(ts) == 0 && len(s.AllOf) > 0 {
		for _, ref := range s.AllOf {
			if ref != nil && isArrayAt(ref.Value, depth+1) {
				return true
			}
		}
	}
	return false
}

// A schema without a type is read by its keywords: properties,
// additionalProperties or required make it an object (an items beside
// them is ignored); items alone makes it an array, except when its items
// are alternatives of objects (items: {anyOf: [A, B]}), which is how
// converters write Swagger 2's items: [A, B], a list of the shapes one
// value takes (Slack's objs_conversation): that schema is one value, A or
// B, not an array.

// objectKeywords reports the object keywords of a schema.
func objectKeywords(s *openapi3.Schema) bool {
	ap := s.AdditionalProperties
	return len(s.Properties) > 0 || len(s.Required) > 0 || ap.Schema != nil || (ap.Has != nil && *ap.Has)
}

// tupleForm reports a type-less schema whose items are alternatives of
// objects (see above): one value, not an array.
func tupleForm(s *openapi3.Schema) bool {
	if s == nil || len(nonNullTypes(s)) > 0 || s.Items == nil || s.Items.Value == nil {
		return false
	}
	it := s.Items.Value
	if t := nonNullTypes(it); len(t) > 0 && !(len(t) == 1 && t[0] == openapi3.TypeObject) {
		return false
	}
	alts := append(append(openapi3.SchemaRefs{}, it.AnyOf...), it.OneOf...)
	if len(alts) == 0 {
		return false
	}
	for _, ref := range alts {
		if ref == nil || ref.Value == nil || len(ref.Value.Properties) == 0 || isArray(ref.Value) {
			return false
		}
	}
	return true
}

func itemsOf(s *openapi3.Schema) *openapi3.Schema {
	if s == nil {
		return nil
	}
	if s.Items != nil {
		return s.Items.Value
	}
	for _, ref := range s.AllOf {
		if ref != nil && ref.Value != nil && ref.Value.Items != nil {
			return ref.Value.Items.Value
		}
	}
	return nil
}

func isObject(s *openapi3.Schema) bool {
	return !isArray(s) && properties(s, 0) != nil
}

// columnType maps a property schema to a column type.
func columnType(s *openapi3.Schema) string {
	return scalarType(s, 0)
}

func scalarType(s *openapi3.Schema, depth int) string {
	if s == nil || depth > maxDepth {
		return providers.TypeJSON
	}
	ts := nonNullTypes(s)
	if len(ts) > 1 {
		return providers.TypeJSON
	}
	if len(ts) == 1 {
		switch ts[0] {
		case openapi3.TypeString:
			return providers.TypeText
		case openapi3.TypeInteger:
			return providers.TypeInteger
		case openapi3.TypeNumber:
			return providers.TypeReal
		case openapi3.TypeBoolean:
			return providers.TypeBoolean
		}
		return providers.TypeJSON
	}
	if len(s.Properties) > 0 || s.Items != nil {
		return providers.TypeJSON
	}
	// No type of its own: the alternatives decide if they agree.
	t := ""
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, ref := range list {
			if ref == nil || ref.Value == nil {
				continue
			}
			if only := ref.Value.Type; only != nil && len(only.Slice()) == 1 && only.Is(openapi3.TypeNull) {
				continue // a "null" alternative only makes it nullable
			}
			at := scalarType(ref.Value, depth+1)
			if t == "" {
				t = at
			} else if t != at {
				return providers.TypeJSON
			}
		}
	}
	if t == "" {
		return providers.TypeJSON
	}
	return t
}

// acronymPlural reports whether rs[i] ends an upper-case run that a
// lone "s" makes plural ("IPs" in floatingIPs, "VPCs"): the "s" belongs to
// the acronym, so no word starts at rs[i].
func acronymPlural(rs []rune, i int) bool {
	if i+1 >= len(rs) || rs[i+1] != 's' || i == 0 || !unicode.IsUpper(rs[i-1]) {
		return false
	}
	return i+2 == len(rs) || !unicode.IsLower(rs[i+2])
}

// SnakeCase lower-cases s, splits camelCase words and turns every run of
// other characters than letters and digits into one underscore:
// "branch-protection" -> "branch_protection", "listPetsByID" ->
// "list_pets_by_id"; an acronym's plural stays one word ("floatingIPs" ->
// "floating_ips", "VPCs" -> "vpcs"); letters with diacritics lose them
// ("grünstrom" -> "grunstrom") and other non-ASCII characters separate
// words, so that every name is a plain SQL identifier.
func SnakeCase(s string) string {
	rs := []rune(asciiFold(s))
	var b strings.Builder
	pendingSep := false
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			pendingSep = b.Len() > 0
			continue
		}
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1]) && !acronymPlural(rs, i)
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				pendingSep = b.Len() > 0
			}
		}
		if pendingSep {
			b.WriteByte('_')
			pendingSep = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
