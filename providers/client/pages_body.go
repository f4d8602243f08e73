package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/buger/jsonparser"

	"github.com/enginehq/engine/providers"
)

// Pagination in the body (providers.Paging): after each page, nextFromBody
// decides from the method's paging and the page's body whether there is a
// next page and how to ask for it. The rule that cannot break: when an
// answer says there is more (moreSignal: has_more true, a non-empty next
// cursor, marker or URL at any depth of the paging objects, isLast false,
// offset + items < total, page < pages) and the method's paging does not
// say how to get it, or its paging ends while another field still says
// more, the call fails with an error of kind "pagination" (the
// statement's kind "incomplete") naming the field and the profile line
// that follows it; a first page is never returned as if it were the
// whole.

// pathParts splits a dotted body path ("response_metadata.next_cursor");
// a path starting with '@' ("@odata.nextLink") is one key.
func pathParts(path string) []string {
	if strings.HasPrefix(path, "@") {
		return []string{path}
	}
	return strings.Split(path, ".")
}

// valueAt returns the value at path in a JSON object body.
func valueAt(body []byte, path string) ([]byte, jsonparser.ValueType, bool) {
	if path == "" {
		return nil, jsonparser.NotExist, false
	}
	v, typ, _, err := jsonparser.Get(body, pathParts(path)...)
	if err != nil || typ == jsonparser.NotExist {
		return nil, jsonparser.NotExist, false
	}
	return v, typ, true
}

// stringAt returns the string at path ("" when absent, null or not a
// string); an array of strings (Atlassian "errorMessages") is joined with
// "; ". Numbers are returned as written (an id used as a cursor).
func stringAt(body []byte, path string) string {
	v, typ, ok := valueAt(body, path)
	if !ok {
		return ""
	}
	switch typ {
	case jsonparser.String:
		s, err := jsonparser.ParseString(v)
		if err != nil {
			return ""
		}
		return s
	case jsonparser.Number:
		return string(v)
	case jsonparser.Array:
		var parts []string
		jsonparser.ArrayEach(v, func(e []byte, t jsonparser.ValueType, _ int, _ error) { //nolint:errcheck
			if t == jsonparser.String {
				if s, err := jsonparser.ParseString(e); err == nil && s != "" {
					parts = append(parts, s)
				}
			}
		})
		return strings.Join(parts, "; ")
	}
	return ""
}

// boolAt returns the boolean at path; ok is false when it is absent or
// not a boolean.
func boolAt(body []byte, path string) (v, ok bool) {
	raw, typ, found := valueAt(body, path)
	if !found || typ != jsonparser.Boolean {
		return false, false
	}
	return string(raw) == "true", true
}

// intAt returns the integer at path; ok is false when it is absent or not
// a number.
func intAt(body []byte, path string) (int, bool) {
	raw, typ, found := valueAt(body, path)
	if !found || typ != jsonparser.Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, false
	}
	return int(f), true
}

// The "more" signals (docs/providers.md, "The more signals"): after each
// page of a method whose paging is not known, the answer is searched for a
// field saying there is more, at its top level and inside the objects that
// carry paging (links, _links, meta, metadata, pagination, paging,
// page_info, response_metadata, and the objects holding the item list),
// at any depth up to moreDepth. Names are compared in lower case, letters
// and digits only (next_page_url, nextPageUrl and NextPageURL are one).
const moreDepth = 4

var (
	// moreTrueKeys say there is more when true (Stripe has_more,
	// GraphQL-like hasNextPage).
	moreTrueKeys = keySet("hasmore", "hasnext", "hasnextpage", "hasmoreitems", "hasmoreresults", "moreitems", "moreresults", "morepages")
	// moreFalseKeys say there is more when false (Jira isLast).
	moreFalseKeys = keySet("islast", "islastpage", "lastpage")
	// moreNextKeys say there is more when not empty: a next URL, cursor,
	// marker or token, or an object holding one (_links.next.href,
	// Asana's next_page.offset).
	moreNextKeys = keySet("next", "nextpage", "nextpageurl", "nextpageuri", "nexturl", "nexturi", "nexthref", "nextlink", "odatanextlink",
		"nextcursor", "nextmarker", "nextpagetoken", "nexttoken", "nextpagecursor", "nextrecordsurl", "nextkey", "nextoffset", "nextpagekey",
		"cursor", "continue", "continuationtoken", "nextcontinuationtoken")
	// moreContainers are the objects descended into.
	moreContainers = keySet("links", "link", "meta", "metadata", "pagination", "paging", "pageinfo", "responsemetadata", "page", "pages", "cursors", "searchmetadata")
	// An offset and a total in one object: offset + items < total is more.
	offsetKeys = keySet("offset", "startat", "start", "startindex", "skip")
	totalKeys  = keySet("total", "totalcount", "totalitems", "totalresults", "totalrecords", "totalelements", "totalsize", "totalentries")
	// A current page and a number of pages in one object: page < pages is
	// more (Slack's paging.page and paging.pages).
	pageKeys  = keySet("page", "pagenumber", "currentpage")
	pagesKeys = keySet("pages", "totalpages", "pagecount", "numpages")
)

func keySet(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// normKey lower-cases a key and keeps its letters and digits.
func normKey(k string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(k) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// moreFound is a "more" signal: where it stands, what it says, and its
// kind (for the profile line that follows it).
type moreFound struct {
	path string // dotted path of the field ("meta.next_page_url")
	what string // "\"has_more\" is true"
	kind string // "next", "true", "false", "offset", "page"
	// url is true for a next value that is a URL or a path; inner is the
	// field inside an object-valued next that holds the cursor or URL.
	url   bool
	inner string
	// offset, total: the fields of an offset signal.
	offset, total string
}

// moreSignal returns the field of body saying there is more, or nil when
// the body says nothing of the kind. n is the number of items the page
// gave.
//
// reqOffset is the offset the request asked for (offsetOf), or -1 when
// it is not known: then a total beside the list without an offset in the
// answer says nothing (Mailchimp {lists, total_items} asked with offset
// says more when offset + items < total_items).
func moreSignal(m *providers.Method, body []byte, n, reqOffset int) *moreFound {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	// The objects that hold the item list are searched too ("data" of
	// {"data": {"items": [...], "next": ...}}).
	holders := map[string]bool{}
	listHolder := "-" // the object the list stands in ("" the top)
	if m.Shape == providers.ShapeWrapped {
		parts := pathParts(m.ItemKey)
		for i := 1; i < len(parts); i++ {
			holders[strings.Join(parts[:i], ".")] = true
		}
		listHolder = strings.Join(parts[:len(parts)-1], ".")
	}
	if reqOffset < 0 {
		listHolder = "-"
	}
	return moreIn(b, "", 0, n, holders, listHolder, reqOffset)
}

// offsetParams are the request parameters that carry an offset.
var offsetParams = []string{"offset", "startAt", "start", "startIndex", "skip", "$skip"}

// pageParams are the request parameters that say the request is not the
// first page of an offset list (a page number, a cursor): with one of
// them and no offset, the offset of the answer is not known.
var pageParams = keySet("page", "pagenumber", "pagetoken", "cursor", "marker", "after", "startingafter", "continue", "until", "nextpagetoken")

// offsetOf is the offset a request asked for: its offset parameter, else
// 0 for a method without Link paging asked without any paging parameter
// (the first page), else -1 (not known).
func offsetOf(m *providers.Method, u *url.URL) int {
	if u == nil {
		return -1
	}
	q := u.Query()
	for _, name := range offsetParams {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return -1
			}
			return n
		}
	}
	if m.Paginated {
		return -1
	}
	for k := range q {
		if pageParams[normKey(k)] {
			return -1
		}
	}
	return 0
}

func moreIn(obj []byte, prefix string, depth, n int, holders map[string]bool, listHolder string, reqOffset int) *moreFound {
	var found *moreFound
	type num struct {
		key string
		v   float64
	}
	var offset, total, page, pages *num
	var subs []struct {
		path string
		v    []byte
	}
	jsonparser.ObjectEach(obj, func(k, v []byte, typ jsonparser.ValueType, _ int) error { //nolint:errcheck
		if found != nil {
			return nil
		}
		key := string(k)
		if kk, err := jsonparser.ParseString(k); err == nil {
			key = kk
		}
		nk, path := normKey(key), key
		if prefix != "" {
			path = prefix + "." + key
		}
		switch typ {
		case jsonparser.Boolean:
			t := string(v) == "true"
			if t && moreTrueKeys[nk] {
				found = &moreFound{path: path, what: fmt.Sprintf("%q is true", path), kind: "true"}
			} else if !t && moreFalseKeys[nk] {
				found = &moreFound{path: path, what: fmt.Sprintf("%q is false", path), kind: "false"}
			}
		case jsonparser.String:
			s, err := jsonparser.ParseString(v)
			if err == nil && strings.TrimSpace(s) != "" && moreNextKeys[nk] {
				found = &moreFound{path: path, what: fmt.Sprintf("%q is not empty", path), kind: "next", url: looksLikeURL(s)}
			}
		case jsonparser.Number:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return nil
			}
			switch {
			case moreNextKeys[nk] && f != 0:
				found = &moreFound{path: path, what: fmt.Sprintf("%q is %s", path, v), kind: "next"}
			case offsetKeys[nk] && offset == nil:
				offset = &num{path, f}
			case totalKeys[nk] && total == nil:
				total = &num{path, f}
			case pageKeys[nk] && page == nil:
				page = &num{path, f}
			case pagesKeys[nk] && pages == nil:
				pages = &num{path, f}
			}
		case jsonparser.Object:
			if moreNextKeys[nk] {
				if inner := nonEmptyMember(v); inner != "" {
					s := stringAt(v, inner)
					found = &moreFound{path: path, what: fmt.Sprintf("%q is not empty", path), kind: "next", inner: inner, url: looksLikeURL(s)}
					return nil
				}
			}
			if depth+1 < moreDepth && (moreContainers[nk] || holders[path]) {
				subs = append(subs, struct {
					path string
					v    []byte
				}{path, v})
			}
		}
		return nil
	})
	if found != nil {
		return found
	}
	if offset != nil && total != nil && int(offset.v)+n < int(total.v) {
		return &moreFound{path: offset.key, what: fmt.Sprintf("%q %d + %d items < %q %d", offset.key, int(offset.v), n, total.key, int(total.v)), kind: "offset", offset: offset.key, total: total.key}
	}
	if offset == nil && page == nil && total != nil && prefix == listHolder && reqOffset+n < int(total.v) {
		// A total beside the list and no offset in the answer: the
		// request's offset counts (Mailchimp's total_items).
		return &moreFound{path: total.key, what: fmt.Sprintf("the request's offset %d + %d items < %q %d", reqOffset, n, total.key, int(total.v)), kind: "offset", offset: "offset", total: total.key}
	}
	if page != nil && pages != nil && page.v < pages.v {
		return &moreFound{path: pages.key, what: fmt.Sprintf("%q %d < %q %d", page.key, int(page.v), pages.key, int(pages.v)), kind: "page"}
	}
	for _, s := range subs {
		if f := moreIn(s.v, s.path, depth+1, n, holders, listHolder, reqOffset); f != nil {
			return f
		}
	}
	return nil
}

// nonEmptyMember returns the first member of an object-valued next
// (_links.next, Asana's next_page) that holds a string or a non-zero
// number, preferring a URL (href, uri, url), else a cursor or offset; ""
// when every member is empty or null.
func nonEmptyMember(obj []byte) string {
	first, link := "", ""
	jsonparser.ObjectEach(obj, func(k, v []byte, typ jsonparser.ValueType, _ int) error { //nolint:errcheck
		key := string(k)
		ok := false
		switch typ {
		case jsonparser.String:
			s, err := jsonparser.ParseString(v)
			ok = err == nil && strings.TrimSpace(s) != ""
		case jsonparser.Number:
			ok = string(v) != "0"
		}
		if !ok {
			return nil
		}
		if first == "" {
			first = key
		}
		switch normKey(key) {
		case "offset", "cursor", "token", "pagetoken", "marker", "after", "starting_after":
			if link == "" {
				link = key
			}
		}
		return nil
	})
	if link != "" {
		return link
	}
	return first
}

// looksLikeURL reports whether a next value is a URL or a path (a next URL
// style) rather than an opaque cursor.
func looksLikeURL(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "?")
}

// suggestPaging is the paging that would follow the signal f, for the
// profile line of the error: the style, and the request parameter that
// takes the value (one of the method's query parameters named like the
// field, "PARAM" when none is).
func suggestPaging(m *providers.Method, f *moreFound) string {
	param := func(cands ...string) string {
		for _, c := range cands {
			for _, p := range m.Params {
				if p.In == providers.InQuery && normKey(p.Name) == normKey(c) {
					return p.Name
				}
			}
		}
		if c := cands[0]; c != "" && !strings.HasPrefix(normKey(c), "next") {
			return c // the field's own name without "next" (next_marker: marker)
		}
		return "PARAM"
	}
	last := f.path[strings.LastIndex(f.path, ".")+1:]
	switch f.kind {
	case "true":
		return fmt.Sprintf(`{"style": "cursor", "param": %q, "has_more": %q, "last_item": "id"}`, param("starting_after", "after", "cursor"), f.path)
	case "false":
		return fmt.Sprintf(`{"style": "offset", "param": %q, "is_last": %q}`, param("startAt", "offset", "start"), f.path)
	case "offset":
		return fmt.Sprintf(`{"style": "offset", "param": %q, "total": %q}`, param(f.offset[strings.LastIndex(f.offset, ".")+1:], "offset", "startAt", "start"), f.total)
	case "page":
		return fmt.Sprintf(`{"style": "page", "param": %q, "pages": %q}`, param("page"), f.path)
	}
	next := f.path
	if f.inner != "" {
		next += "." + f.inner
		last = f.inner
	}
	if f.url {
		return fmt.Sprintf(`{"style": "next_url", "next": %q}`, next)
	}
	bare := last
	for _, pre := range []string{"next_", "next", "Next"} {
		if strings.HasPrefix(bare, pre) && len(bare) > len(pre) {
			bare = strings.TrimPrefix(bare, pre)
			break
		}
	}
	return fmt.Sprintf(`{"style": "cursor", "param": %q, "next": %q}`, param(bare, last, strings.TrimPrefix(normKey(bare), "page"), "cursor", "marker", "page_token", "pageToken", "offset", "after", "starting_after", "until"), next)
}

// nextFromBody returns the next page's URL from the page's body and items
// according to the method's paging; done is true when there is no next
// page.
func (p *pager) nextFromBody(cur *response, items []json.RawMessage) (next *url.URL, done bool, err error) {
	m := p.call.Method
	pg := m.Paging
	if pg == nil || pg.Style == providers.PagingLink {
		if sig := moreSignal(m, cur.body, len(items), offsetOf(m, cur.url)); sig != nil {
			return nil, false, p.unknownPaging(cur, sig)
		}
		return nil, true, nil
	}
	next, done, err = p.nextByPaging(cur, items)
	if err == nil && done && pg.Style != providers.PagingNone {
		// The paging says this is the last page: no other field of the
		// answer may say there is more (Box answers next_marker only to
		// usemarker=true, an offset beside it still counts).
		if sig := moreSignal(m, cur.body, len(items), offsetOf(m, cur.url)); sig != nil && !ownsSignal(pg, sig) {
			return nil, false, p.pagingError(cur, fmt.Sprintf(
				"the paging of operation %q (%s) ends here, but the answer still says there are more rows (%s), so its rows would be incomplete; declare the paging that follows it in the provider's profile: {\"pagination\": {\"operations\": {%q: %s}}} (docs/providers.md, \"The more signals\")",
				opName(m), pg.Style, sig.what, opName(m), suggestPaging(m, sig)))
		}
	}
	return next, done, err
}

// ownsSignal reports whether the signal is a field the paging reads (its
// own end, already decided).
func ownsSignal(pg *providers.Paging, sig *moreFound) bool {
	for _, f := range []string{pg.Next, pg.HasMore, pg.IsLast, pg.Total, pg.Pages} {
		if f != "" && (f == sig.path || strings.HasPrefix(f, sig.path+".") || f == sig.total) {
			return true
		}
	}
	return false
}

func opName(m *providers.Method) string {
	if m.OperationID != "" {
		return m.OperationID
	}
	return m.Name
}

// nextByPaging follows the method's declared or inferred body paging.
func (p *pager) nextByPaging(cur *response, items []json.RawMessage) (next *url.URL, done bool, err error) {
	pg := p.call.Method.Paging
	body := cur.body
	switch pg.Style {
	case providers.PagingNone:
		return nil, true, nil
	case providers.PagingNextURL:
		raw := stringAt(body, pg.Next)
		if raw == "" {
			return nil, true, nil
		}
		next, err := p.resolveNext(cur, raw, fmt.Sprintf("the next URL in %q", pg.Next))
		return next, false, err
	case providers.PagingCursor:
		var cursor string
		if pg.Next != "" {
			if cursor = stringAt(body, pg.Next); cursor == "" {
				return nil, true, nil
			}
		} else {
			if more, _ := boolAt(body, pg.HasMore); !more {
				return nil, true, nil
			}
			if len(items) == 0 {
				return nil, false, p.pagingError(cur, fmt.Sprintf("the answer says there is more (%q is true) but its page is empty, so there is no last item to continue after", pg.HasMore))
			}
			if cursor = stringAt(items[len(items)-1], pg.LastItem); cursor == "" {
				return nil, false, p.pagingError(cur, fmt.Sprintf("the answer says there is more (%q is true) but its last item has no %q to continue after", pg.HasMore, pg.LastItem))
			}
		}
		if p.cursors[cursor] {
			return nil, false, p.pagingError(cur, fmt.Sprintf("pagination loop: the provider answered a cursor (%s) it had already given", pg.Param))
		}
		p.cursors[cursor] = true
		return withParam(cur.url, pg.Param, cursor), false, nil
	case providers.PagingOffset, providers.PagingPage:
		last, hasLast := boolAt(body, pg.IsLast)
		if hasLast && last {
			return nil, true, nil
		}
		n := len(items)
		if n == 0 {
			if hasLast {
				return nil, false, p.pagingError(cur, fmt.Sprintf("the answer says it is not the last page (%q is false) but its page is empty", pg.IsLast))
			}
			return nil, true, nil
		}
		start := 0
		if pg.Style == providers.PagingPage {
			start = 1
		}
		if v := cur.url.Query().Get(pg.Param); v != "" {
			if i, err := strconv.Atoi(v); err == nil {
				start = i
			}
		}
		size, _ := strconv.Atoi(cur.url.Query().Get(pg.Size))
		nextAt, seen := start+n, start+n
		if pg.Style == providers.PagingPage {
			nextAt, seen = start+1, start*max(size, n)
			if pages, ok := intAt(body, pg.Pages); ok {
				if start >= pages {
					return nil, true, nil
				}
				return withParam(cur.url, pg.Param, strconv.Itoa(nextAt)), false, nil
			}
		}
		if more, ok := boolAt(body, pg.HasMore); ok {
			if !more {
				return nil, true, nil
			}
			return withParam(cur.url, pg.Param, strconv.Itoa(nextAt)), false, nil
		}
		if total, ok := intAt(body, pg.Total); ok {
			if seen >= total {
				return nil, true, nil
			}
		} else if !hasLast && size > 0 && n < size {
			return nil, true, nil // a short page is the last
		}
		return withParam(cur.url, pg.Param, strconv.Itoa(nextAt)), false, nil
	}
	return nil, false, p.pagingError(cur, fmt.Sprintf("unknown paging style %q", pg.Style))
}

// resolveNext checks a next URL from the body like a Link next: same
// origin, same path, not fetched before.
func (p *pager) resolveNext(cur *response, raw, what string) (*url.URL, error) {
	next, err := cur.url.Parse(raw)
	if err != nil {
		return nil, p.pagingError(cur, what+" cannot be parsed")
	}
	if !sameOrigin(next, p.c.base) {
		return nil, p.pagingError(cur, fmt.Sprintf("refusing to follow %s to %s: it leaves %s", what, p.c.sanitize(next.Scheme+"://"+next.Host), p.c.sanitize(p.c.base.Scheme+"://"+p.c.base.Host)))
	}
	if !samePagePath(cur.url, next) {
		return nil, p.pagingError(cur, fmt.Sprintf("refusing to follow %s to %s: it leaves the request's path %s, so its rows would not be this query's rows", what, p.c.sanitize(next.EscapedPath()), p.c.sanitize(cur.url.EscapedPath())))
	}
	if p.visited[urlKey(next)] {
		return nil, p.pagingError(cur, fmt.Sprintf("pagination loop: %s points to %s, which was already fetched", what, p.c.sanitize(next.String())))
	}
	return next, nil
}

// withParam returns u with the query parameter name set to value.
func withParam(u *url.URL, name, value string) *url.URL {
	n := *u
	q := n.Query()
	q.Set(name, value)
	n.RawQuery = q.Encode()
	return &n
}

// pagingError is a pagination failure of kind "pagination" (not
// retryable: the same answer would come again). It carries no status: the
// answers were 2xx, the failure is the engine's inability to go on.
// linkError is the error of a Link rel="next" the engine will not follow
// (unparseable, to another host or path, or to a page already read):
// kind "link" (no status: the answer itself was not refused).
func (p *pager) linkError(cur *response, msg string) error {
	pe := p.c.newError(p.call, cur.url.String(), "link", msg)
	pe.Attempts = cur.attempts
	return pe
}

func (p *pager) pagingError(cur *response, msg string) error {
	pe := p.c.newError(p.call, cur.url.String(), "pagination", msg)
	pe.Attempts = cur.attempts
	return pe
}

// unknownPaging is the error of an answer that says there is more when the
// method's paging is unknown: kind "pagination" (the statement's kind
// "incomplete"), naming the field and the profile line that follows it.
func (p *pager) unknownPaging(cur *response, sig *moreFound) error {
	m := p.call.Method
	op := m.OperationID
	if op == "" {
		op = m.Name
	}
	return p.pagingError(cur, fmt.Sprintf(
		"the answer says there are more rows (%s) but the engine does not know how operation %q (GET %s) fetches its next page, so its rows would be incomplete; declare it in the provider's profile: {\"pagination\": {\"operations\": {%q: %s}}} (check the parameter against the API's documentation; styles: cursor, next_url, offset, page, link, none), and pass it with --provider NAME=PATH,profile=FILE (docs/providers.md, \"The more signals\")",
		sig.what, op, m.Path, op, suggestPaging(m, sig)))
}
