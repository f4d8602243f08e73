package openapi

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// Paging inference (providers.Paging): a style is inferred only where the
// document shows both halves of it, a request parameter and the response
// property that feeds it:
//
//   - cursor after the last item: a boolean has_more in the response and a
//     starting_after parameter (Stripe); the cursor is the last item's id;
//   - cursor in the body: response_metadata.next_cursor, next_cursor,
//     nextCursor, metadata.continue, next_page_token, nextPageToken,
//     meta.next_cursor, next_page.offset, next_marker, cursor with a
//     cursor, continue, page_token, pageToken or marker parameter, or one
//     named like the field's last part (Slack, Kubernetes, Google, Asana's
//     next_page.offset as offset, Box's next_marker as marker unless the
//     method has usemarker, Square's cursor);
//   - a timestamp cursor: pagination.next with an until parameter (Vercel);
//   - next URL in the body: next_page_uri, next_page_url,
//     meta.next_page_url (Twilio v1/v2), links.pages.next, links.next,
//     _links.next.href (HAL), paging.next, @odata.nextLink, nextLink, next
//     (Twilio, DigitalOcean, Azure); no parameter needed (with
//     page/per_page, per_page stays the page size);
//   - offset: a startAt parameter (Jira) with total or isLast in the
//     response, or an offset parameter with a limit parameter and a total,
//     total_count or count in the response;
//   - a cursor parameter named like the response field feeding it (Zoom's
//     next_page_token in both);
//   - a page token: a string page parameter and a next_page string in the
//     response (Stripe's search);
//   - numbered pages: an integer page parameter without per_page on a
//     list (Slack's files.list: page and count); the size is the declared
//     per_page, limit, count, page_size, pagelen, size or maxResults, and
//     the last page is told by pages/total_pages/page_count, total,
//     has_more or isLast in the response (at its top or one object down:
//     paging.pages), else by an empty or short page.
//
// The page-size parameter (limit, maxResults, page_size, pageSize,
// max_results) is sent with the client's page size, at most the
// parameter's documented maximum and at least its documented minimum.
// The parameters a paging owns are no longer method parameters. A response that is an object with exactly one
// array of objects beside the paging fields is a list envelope: its rows
// are that array's items. Anything else is declared in the provider's
// profile ("pagination"), and an answer that says there is more without a
// known way to get it is an error (providers/client), never a first page
// presented as the whole.

var (
	// The cursor fields; "cursor" last (Square: the same name in the
	// answer and the request), next_page.offset sent back as offset
	// (Asana), next_marker as marker (Box).
	cursorNext   = []string{"response_metadata.next_cursor", "next_cursor", "nextCursor", "metadata.continue", "next_page_token", "nextPageToken", "meta.next_cursor", "next_page.offset", "next_marker", "cursor"}
	cursorParams = []string{"cursor", "continue", "page_token", "pageToken", "marker"}
	nextURLs     = []string{"next_page_uri", "next_page_url", "meta.next_page_url", "meta.next_page_uri", "links.pages.next", "links.next", "_links.next.href", "links.next.href", "paging.next", "@odata.nextLink", "nextLink", "next"}
	sizeParams   = []string{"limit", "maxResults", "page_size", "pageSize", "max_results", "PageSize"}
	// Beside a page parameter, these name the page size (Slack count,
	// Bitbucket pagelen).
	pageSizeParams = []string{"per_page", "perPage", "limit", "count", "page_size", "pageSize", "pagesize", "pagelen", "size", "maxResults", "max_results"}
	// The "more" signals of numbered pages, at the top of the answer or
	// in one object beside the items (Slack paging.pages).
	pagesFields   = []string{"pages", "total_pages", "totalPages", "page_count", "pageCount", "num_pages", "numPages"}
	totalFields   = []string{"total", "total_count", "totalCount", "total_results", "totalResults", "total_items", "totalItems", "totalElements", "total_records", "totalRecords"}
	hasMoreFields = []string{"has_more", "hasMore", "has_next", "hasNext", "has_next_page", "hasNextPage"}
	isLastFields  = []string{"isLast", "is_last", "last", "last_page", "lastPage"}
	// The totals of offset paging (Box total_count, Mailchimp total_items).
	offsetTotals = []string{"total", "total_count", "total_items", "totalItems", "count"}
)

// inferPaging sets m.Paging when the document shows the style (see above).
func inferPaging(item *openapi3.PathItem, op *openapi3.Operation, m *providers.Method) {
	if m.Shape == providers.ShapeNone {
		return
	}
	s, ok := responseSchema(op)
	if !ok {
		return
	}
	if m.Paginated {
		// page/per_page: Link headers, unless the body holds the next
		// page's URL (DigitalOcean links.pages.next).
		if next := firstPath(func(p, t string) bool { return schemaAt(s, p, t) }, nextURLs, "string"); next != "" && m.Shape != providers.ShapeArray {
			setPaging(m, &providers.Paging{Style: providers.PagingNextURL, Next: next, Size: "per_page", SizeMax: maxOf(item, op, "per_page"), SizeMin: minOf(item, op, "per_page")})
			envelope(s, m)
		}
		return
	}
	query := map[string]*providers.Param{}
	for i := range m.Params {
		if p := &m.Params[i]; p.In == providers.InQuery && !p.Required {
			query[p.Name] = p
		}
	}
	has := func(path, typ string) bool { return schemaAt(s, path, typ) }
	param := func(names ...string) string {
		for _, n := range names {
			if query[n] != nil {
				return n
			}
		}
		return ""
	}
	size := param(sizeParams...)
	page := param("page")
	if page != "" && size == "" {
		size = param(pageSizeParams...)
	}
	// A cursor parameter, or a parameter named like the response field
	// that feeds it (Zoom's next_page_token in both).
	// A cursor is a string, or a number sent back as written (Box's
	// next_marker is an integer in some of its operations).
	cursorField := firstPath(has, cursorNext, "string")
	if cursorField == "" {
		cursorField = firstPath(has, cursorNext, "integer")
	}
	cursorParam := param(cursorParams...)
	if cursorParam == "marker" && query["usemarker"] != nil {
		// Box answers next_marker only when asked with usemarker=true:
		// without it the list is paged by offset (below).
		cursorParam, cursorField = "", ""
	}
	if cursorParam == "" && query["usemarker"] == nil {
		for _, n := range cursorNext {
			if p := n[strings.LastIndex(n, ".")+1:]; query[p] != nil && (has(n, "string") || has(n, "integer")) {
				cursorParam, cursorField = p, n
				break
			}
		}
	}
	var pg *providers.Paging
	switch {
	case has("has_more", "boolean") && param("starting_after") != "":
		pg = &providers.Paging{Style: providers.PagingCursor, Param: "starting_after", HasMore: "has_more", LastItem: "id", Size: size}
	case cursorParam != "" && cursorField != "":
		pg = &providers.Paging{Style: providers.PagingCursor, Param: cursorParam, Next: cursorField, Size: size}
	case param("until") != "" && has("pagination.next", "integer"):
		// A timestamp cursor (Vercel: pagination.next sent back as until).
		pg = &providers.Paging{Style: providers.PagingCursor, Param: "until", Next: "pagination.next", Size: size}
	case page != "" && query[page].Type == providers.TypeText && has("next_page", "string"):
		// A page token sent back as page (Stripe's search).
		pg = &providers.Paging{Style: providers.PagingCursor, Param: page, Next: "next_page", Size: size}
	case firstPath(has, nextURLs, "string") != "" && m.Shape != providers.ShapeArray:
		pg = &providers.Paging{Style: providers.PagingNextURL, Next: firstPath(has, nextURLs, "string"), Size: size}
	case param("startAt") != "" && (has("total", "integer") || has("isLast", "boolean")):
		pg = &providers.Paging{Style: providers.PagingOffset, Param: "startAt", Size: param("maxResults"), Total: firstPath(has, []string{"total"}, "integer"), IsLast: firstPath(has, []string{"isLast"}, "boolean")}
	case param("offset") != "" && cmp.Or(size, param("count")) != "" && firstPath(has, offsetTotals, "integer") != "":
		// Mailchimp: offset and count, total_items in the answer.
		pg = &providers.Paging{Style: providers.PagingOffset, Param: "offset", Size: cmp.Or(size, param("count")), Total: firstPath(has, offsetTotals, "integer")}
	case page != "" && query[page].Type != providers.TypeText && (m.Shape != providers.ShapeObject || itemArray(s) != ""):
		// Numbered pages without per_page (Slack files.list: page and
		// count, paging.pages in the answer).
		pg = &providers.Paging{Style: providers.PagingPage, Param: page, Size: size,
			Pages: pagingField(s, pagesFields, "integer"), Total: pagingField(s, totalFields, "integer"),
			HasMore: pagingField(s, hasMoreFields, "boolean"), IsLast: pagingField(s, isLastFields, "boolean")}
	default:
		return
	}
	if m.Shape == providers.ShapeObject && itemArray(s) == "" && (pg.Style == providers.PagingOffset || pg.LastItem != "") {
		// Offsets and last-item cursors count the rows of a page: over an
		// answer whose list is not known, they would count one row per
		// page and fetch overlapping pages. Left unknown, an answer that
		// says there is more is an error (providers/client).
		return
	}
	if pg.Size != "" {
		pg.SizeMax, pg.SizeMin = maxOf(item, op, pg.Size), minOf(item, op, pg.Size)
	}
	setPaging(m, pg)
	envelope(s, m)
}

// pagingField returns the first of names the response declares with type
// typ, at its top level or in one object property beside the items
// (paging.pages), as a dotted path; "" when none.
func pagingField(s *openapi3.Schema, names []string, typ string) string {
	if p := firstPath(func(p, t string) bool { return schemaAt(s, p, t) }, names, typ); p != "" {
		return p
	}
	props := properties(s, 0)
	if props == nil {
		return ""
	}
	for _, name := range props.names {
		alts := props.byName[name]
		if len(alts) != 1 || alts[0] == nil || isArray(alts[0]) || !isObject(alts[0]) || strings.ContainsAny(name, ".@") {
			continue
		}
		for _, n := range names {
			if schemaAt(alts[0], n, typ) {
				return name + "." + n
			}
		}
	}
	return ""
}

// itemArray returns the one array-of-objects property of an object
// schema, or "" when it has none or several.
func itemArray(s *openapi3.Schema) string {
	return soleObjectArray(properties(s, 0))
}

// soleObjectArray returns the name of the one array-of-objects property
// of props, or "" when there is none or several (nil props: "").
// Arrays that describe the list rather than hold it (Box's order, a
// response's errors or warnings: metadataArrays and the envelope fields)
// do not count when one other array remains; among several, the one
// named like rows (entries, data, items ...) when it is the only such.
func soleObjectArray(props *propSet) string {
	if props == nil {
		return ""
	}
	var all []string
	for _, name := range props.names {
		alts := props.byName[name]
		if len(alts) == 1 && isArray(alts[0]) {
			if it := itemsOf(alts[0]); it != nil && isObject(it) {
				all = append(all, name)
			}
		}
	}
	if len(all) <= 1 {
		if len(all) == 1 {
			return all[0]
		}
		return ""
	}
	var rest, rows []string
	for _, name := range all {
		if !isEnvelopeField(name) && !metadataArrays[strings.ToLower(name)] {
			rest = append(rest, name)
		}
		if listKeys[strings.ToLower(name)] {
			rows = append(rows, name)
		}
	}
	if len(rest) == 1 {
		return rest[0]
	}
	if len(rows) == 1 && len(rest) > 1 && slices.Contains(rest, rows[0]) {
		return rows[0]
	}
	return "" // two lists: one object holding both
}

// metadataArrays are array properties beside a list that describe the
// answer, not rows of it.
var metadataArrays = map[string]bool{"order": true, "sort": true, "sorts": true, "errors": true, "warnings": true, "messages": true, "facets": true, "aggregations": true}

// envelope turns an object response holding exactly one array of objects
// (beside the paging fields) into a list of that array's items.
func envelope(s *openapi3.Schema, m *providers.Method) {
	if m.Shape != providers.ShapeObject {
		return
	}
	key := itemArray(s)
	if key == "" {
		return // no list, or two lists: not an envelope
	}
	m.Shape, m.ItemKey, m.Columns = providers.ShapeWrapped, key, columnsOf(itemsOf(properties(s, 0).byName[key][0]))
}

func firstPath(has func(string, string) bool, paths []string, typ string) string {
	for _, p := range paths {
		if has(p, typ) {
			return p
		}
	}
	return ""
}

// schemaAt reports whether the object schema s declares the dotted path
// with a property of type typ ("string", "integer", "boolean"; an integer
// also accepts "number").
func schemaAt(s *openapi3.Schema, path, typ string) bool {
	parts := strings.Split(path, ".")
	if strings.HasPrefix(path, "@") {
		parts = []string{path}
	}
	cur := s
	for i, name := range parts {
		props := properties(cur, 0)
		if props == nil {
			return false
		}
		alts := props.byName[name]
		if len(alts) == 0 || alts[0] == nil {
			return false
		}
		cur = alts[0]
		if i < len(parts)-1 {
			continue
		}
		switch t := columnType(cur); typ {
		case "string":
			return t == providers.TypeText
		case "integer":
			return t == providers.TypeInteger || t == providers.TypeReal
		case "boolean":
			return t == providers.TypeBoolean
		}
	}
	return false
}

// maxOf returns the documented maximum of a query parameter, or 0.
func maxOf(item *openapi3.PathItem, op *openapi3.Operation, name string) int {
	if sc := querySchema(item, op, name); sc != nil && sc.Max != nil && *sc.Max >= 1 {
		return int(*sc.Max)
	}
	return 0
}

// minOf returns the documented minimum of a query parameter when it is
// above 1 (a page size the API refuses below it), or 0.
func minOf(item *openapi3.PathItem, op *openapi3.Operation, name string) int {
	if sc := querySchema(item, op, name); sc != nil && sc.Min != nil && *sc.Min > 1 && *sc.Min < 1<<30 {
		return int(math.Ceil(*sc.Min))
	}
	return 0
}

// querySchema returns the schema of a query parameter (the operation's
// winning over the path item's), or nil.
func querySchema(item *openapi3.PathItem, op *openapi3.Operation, name string) *openapi3.Schema {
	for _, list := range []openapi3.Parameters{op.Parameters, item.Parameters} {
		for _, ref := range list {
			if ref == nil || ref.Value == nil || ref.Value.Name != name || ref.Value.In != openapi3.ParameterInQuery {
				continue
			}
			if sc := ref.Value.Schema; sc != nil && sc.Value != nil {
				return sc.Value
			}
			return nil
		}
	}
	return nil
}
