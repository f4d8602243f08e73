package client

import (
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
// answer says there is more (has_more true, a non-empty next cursor, a
// non-null next URL, isLast false, startAt + items < total) and the
// method's paging does not say how to get it, the call fails with an
// error of kind "pagination" naming the operation and the profile key to
// set; a first page is never returned as if it were the whole.

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

// moreSignals are the body fields by which the APIs we know say "there
// is more"; they are looked for only in methods without a known paging.
var (
	moreTrue    = []string{"has_more", "hasMore"}
	moreStrings = []string{"response_metadata.next_cursor", "next_cursor", "nextCursor", "metadata.continue", "next_page_token", "nextPageToken",
		"next_page_uri", "next_page_url", "links.pages.next", "links.next", "_links.next.href", "@odata.nextLink", "nextLink", "next_page"}
	moreFalse = []string{"isLast", "is_last"}
	// pageCounts are the (current page, number of pages) pairs by which
	// an answer says there are more pages (Slack's paging).
	pageCounts = [][2]string{{"paging.page", "paging.pages"}, {"page", "pages"}, {"page", "total_pages"},
		{"pagination.page", "pagination.pages"}, {"pagination.page", "pagination.total_pages"}, {"meta.page", "meta.pages"},
		{"meta.page", "meta.total_pages"}, {"page_number", "page_count"}}
)

// moreSignal returns a description of the field saying there is more
// ("has_more": true), or "" when the body says nothing of the kind.
func moreSignal(m *providers.Method, body []byte, n int) string {
	b := strings.TrimSpace(string(body))
	if !strings.HasPrefix(b, "{") {
		return ""
	}
	for _, p := range moreTrue {
		if v, ok := boolAt(body, p); ok && v {
			return fmt.Sprintf("%q is true", p)
		}
	}
	strs := moreStrings
	if m.Shape == providers.ShapeWrapped {
		strs = append(strs[:len(strs):len(strs)], "next")
	}
	for _, p := range strs {
		if s := stringAt(body, p); s != "" {
			return fmt.Sprintf("%q is not empty", p)
		}
	}
	for _, p := range moreFalse {
		if v, ok := boolAt(body, p); ok && !v {
			return fmt.Sprintf("%q is false", p)
		}
	}
	for _, c := range pageCounts {
		if page, ok := intAt(body, c[0]); ok {
			if pages, ok := intAt(body, c[1]); ok && page < pages {
				return fmt.Sprintf("%q %d < %q %d", c[0], page, c[1], pages)
			}
		}
	}
	if start, ok := intAt(body, "startAt"); ok {
		if total, ok := intAt(body, "total"); ok && start+n < total {
			return fmt.Sprintf("\"startAt\" %d + %d items < \"total\" %d", start, n, total)
		}
	}
	return ""
}

// nextFromBody returns the next page's URL from the page's body and items
// according to the method's paging; done is true when there is no next
// page.
func (p *pager) nextFromBody(cur *response, items []json.RawMessage) (next *url.URL, done bool, err error) {
	m := p.call.Method
	pg := m.Paging
	if pg == nil || pg.Style == providers.PagingLink {
		if sig := moreSignal(m, cur.body, len(items)); sig != "" {
			return nil, false, p.unknownPaging(cur, sig)
		}
		return nil, true, nil
	}
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
func (p *pager) pagingError(cur *response, msg string) error {
	pe := p.c.newError(p.call, cur.url.String(), "pagination", msg)
	pe.Attempts = cur.attempts
	return pe
}

// unknownPaging is the error of an answer that says there is more when the
// method's paging is unknown.
func (p *pager) unknownPaging(cur *response, signal string) error {
	m := p.call.Method
	op := m.OperationID
	if op == "" {
		op = m.Name
	}
	return p.pagingError(cur, fmt.Sprintf(
		"the answer says there are more rows (%s) but the engine does not know how operation %q (GET %s) fetches its next page, so its rows would be incomplete; declare it in the provider's profile, e.g. {\"pagination\": {\"operations\": {%q: {\"style\": \"cursor\", \"param\": \"...\", \"next\": \"...\"}}}} (styles: cursor, next_url, offset, page, link, none), and pass it with --provider NAME=PATH,profile=FILE (docs/providers.md)",
		signal, op, m.Path, op))
}
