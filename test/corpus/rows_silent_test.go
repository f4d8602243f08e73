package corpus_test

// The "silent" column of the rows mode (rows_test.go, `make corpus-rows`):
// a table that answered exit 0 with a partial or overlapping answer. The
// rules here read the recorded answers on their own, not the engine's code,
// so that a signal the engine does not read is still seen: silentMore
// finds a field of the last page the engine fetched that says there is
// more, silentOverlap finds rows that came back twice from two pages.
// TestSilentRules checks them; it runs in `make test`.

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Field names compared in lower case, letters and digits only.
var (
	silentTrue  = nameSet("hasmore", "hasnext", "hasnextpage", "hasmoreitems", "hasmoreresults", "moreitems", "moreresults", "morepages")
	silentFalse = nameSet("islast", "islastpage", "lastpage")
	silentNext  = nameSet("next", "nextpage", "nextpageurl", "nextpageuri", "nexturl", "nexturi", "nexthref", "nextlink", "odatanextlink",
		"nextcursor", "nextmarker", "nextpagetoken", "nexttoken", "nextpagecursor", "nextrecordsurl", "nextkey", "nextoffset", "nextpagekey",
		"continue", "continuationtoken", "nextcontinuationtoken")
	// cursor says more only in an envelope (Square's {customers, cursor});
	// an entity's own cursor field is data.
	silentCursor = nameSet("cursor")
	silentOffset = nameSet("offset", "startat", "start", "startindex", "skip")
	silentTotal  = nameSet("total", "totalcount", "totalitems", "totalresults", "totalrecords", "totalelements", "totalsize", "totalentries")
	silentPage   = nameSet("page", "pagenumber", "currentpage")
	silentPages  = nameSet("pages", "totalpages", "pagecount", "numpages")
	// pagingHolders are the objects of a one-entity answer that may carry
	// paging (anything else in an entity is the entity's data).
	pagingHolders = nameSet("links", "link", "meta", "metadata", "pagination", "paging", "pageinfo", "responsemetadata", "nextpage")
	linkNext      = regexp.MustCompile(`(?i)<[^>]*>\s*;[^,]*\brel\s*=\s*"?([^",]*\s)?next[\s"]`)
)

func nameSet(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// normName is a key compared by its ASCII letters and digits, case
// folded ("next_page_url", "nextPageURL": "nextpageurl"). Written apart
// from the engine's own (this file is the oracle).
func normName(k string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'A' <= r && r <= 'Z':
			return r - 'A' + 'a'
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			return r
		}
		return -1
	}, k)
}

// silentMore returns the field of one recorded answer that says there is
// more ("meta.next_page_url is not empty"), or "" when it says nothing of
// the kind. list is where the answer's items are (nil: the body is an
// array or one entity), n the number of items the answer gave, query the
// request's query (an offset the body does not echo), link its Link
// header. An envelope is searched at any depth outside its arrays; one
// entity only at its top level and in its paging objects (links, meta,
// pagination...), since its other objects are its data.
func silentMore(body []byte, list []string, n int, query url.Values, link string) string {
	if link != "" && linkNext.MatchString(link+" ") {
		return `the Link header has rel="next"`
	}
	v, err := decodeJSON(body)
	if err != nil {
		return ""
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	holder := "-"
	if len(list) > 0 {
		holder = strings.Join(list[:len(list)-1], ".")
	}
	return moreInObject(obj, "", 0, list != nil, holder, n, query)
}

// holder is the path of the object that holds the list ("" the top
// level; "-" none).
func moreInObject(obj map[string]any, prefix string, depth int, envelope bool, holder string, n int, query url.Values) string {
	if depth > 4 {
		return ""
	}
	var offset, total, page, pages *struct {
		key string
		v   float64
	}
	num := func(key string, x any) *struct {
		key string
		v   float64
	} {
		f, err := strconv.ParseFloat(fmt.Sprint(x), 64)
		if err != nil {
			return nil
		}
		return &struct {
			key string
			v   float64
		}{key, f}
	}
	keys := slices.Sorted(maps.Keys(obj))
	var subs []string
	for _, k := range keys {
		x, nk, path := obj[k], normName(k), k
		if prefix != "" {
			path = prefix + "." + k
		}
		switch val := x.(type) {
		case bool:
			if val && silentTrue[nk] {
				return path + " is true"
			}
			if !val && silentFalse[nk] {
				return path + " is false"
			}
		case string:
			if strings.TrimSpace(val) != "" && (silentNext[nk] || (envelope && silentCursor[nk])) {
				return path + " is not empty"
			}
		case json.Number:
			switch {
			case silentNext[nk] && val.String() != "0":
				return path + " is " + val.String()
			case silentOffset[nk] && offset == nil:
				offset = num(path, val)
			case silentTotal[nk] && total == nil:
				total = num(path, val)
			case silentPage[nk] && page == nil:
				page = num(path, val)
			case silentPages[nk] && pages == nil:
				pages = num(path, val)
			}
		case map[string]any:
			if silentNext[nk] {
				for _, ik := range slices.Sorted(maps.Keys(val)) {
					switch iv := val[ik].(type) {
					case string:
						if strings.TrimSpace(iv) != "" {
							return path + "." + ik + " is not empty"
						}
					case json.Number:
						if iv.String() != "0" {
							return path + "." + ik + " is " + iv.String()
						}
					}
				}
				continue
			}
			if envelope || (depth == 0 && pagingHolders[nk]) || (depth > 0) {
				subs = append(subs, k)
			}
		}
	}
	// An offset and a total in one object; beside the list a total alone
	// counts from the request's offset (Mailchimp echoes no offset).
	if total != nil && (prefix == holder || offset != nil) {
		off := 0.0
		if offset != nil {
			off = offset.v
		} else if page == nil {
			for _, q := range []string{"offset", "startAt", "start", "skip"} {
				if s := query.Get(q); s != "" {
					if f, err := strconv.ParseFloat(s, 64); err == nil {
						off = f
					}
				}
			}
		}
		if page == nil && int(off)+n < int(total.v) {
			return fmt.Sprintf("%s %d + %d items < %s %d", nameOr(offset, "offset"), int(off), n, total.key, int(total.v))
		}
	}
	if page != nil && pages != nil && page.v < pages.v {
		return fmt.Sprintf("%s %d < %s %d", page.key, int(page.v), pages.key, int(pages.v))
	}
	for _, k := range subs {
		if s := moreInObject(obj[k].(map[string]any), joinPath(prefix, k), depth+1, envelope, holder, n, query); s != "" {
			return s
		}
	}
	return ""
}

func nameOr(n *struct {
	key string
	v   float64
}, def string) string {
	if n == nil {
		return "(request) " + def
	}
	return n.key
}

func joinPath(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// silentOverlap says whether the rows hold one row twice after more than
// one page: the pages overlapped (an offset advanced by less than a page)
// and the engine returned the copies as rows.
func silentOverlap(rows []map[string]any, pages int) string {
	if pages < 2 {
		return ""
	}
	seen := map[string]int{}
	for i, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			continue
		}
		if j, dup := seen[string(b)]; dup {
			return fmt.Sprintf("rows %d and %d are one row, after %d pages", j+1, i+1, pages)
		}
		seen[string(b)] = i
	}
	return ""
}

// TestSilentRules: the answers that say more (nested in an envelope, in a
// header, by offset and total) and those that do not (an entity's own
// fields, an empty next, the last offset), and rows two pages both gave.
func TestSilentRules(t *testing.T) {
	q := func(s string) url.Values { v, _ := url.ParseQuery(s); return v }
	cases := []struct {
		name, body string
		list       []string
		n          int
		query      url.Values
		link       string
		more       bool
	}{
		{"twilio meta.next_page_url", `{"services": [{}], "meta": {"next_page_url": "https://x/Services?Page=1", "page_size": 50}}`, []string{"services"}, 1, nil, "", true},
		{"twilio last page", `{"services": [{}], "meta": {"next_page_url": null, "page_size": 50}}`, []string{"services"}, 1, nil, "", false},
		{"vercel pagination.next", `{"projects": [{}], "pagination": {"count": 1, "next": 1655, "prev": null}}`, []string{"projects"}, 1, nil, "", true},
		{"box offset", `{"entries": [{}], "total_count": 5000, "limit": 1000, "offset": 2000}`, []string{"entries"}, 1, nil, "", true},
		{"box last offset", `{"entries": [{}, {}], "total_count": 4, "offset": 2}`, []string{"entries"}, 2, nil, "", false},
		{"box next_marker", `{"entries": [{}], "next_marker": "JV9IRGZmieiBasejOG9yDCRNgd2ymoZIbjsxbJMjIs3kioVii"}`, []string{"entries"}, 1, nil, "", true},
		{"square cursor", `{"customers": [{}], "cursor": "6FK2"}`, []string{"customers"}, 1, nil, "", true},
		{"asana next_page", `{"data": [{}], "next_page": {"offset": "eyJ0eXAiOJiKV1iQLCJhbGciOiJIUzI1NiJ9", "path": "/tasks?offset=eyJ0", "uri": "https://x"}}`, []string{"data"}, 1, nil, "", true},
		{"asana last page", `{"data": [{}], "next_page": null}`, []string{"data"}, 1, nil, "", false},
		{"slack response_metadata", `{"ok": true, "channels": [{}], "response_metadata": {"next_cursor": "dGVhbTpDMDYxRkE1UEI="}}`, []string{"channels"}, 1, nil, "", true},
		{"mailchimp total beside the list", `{"lists": [{}], "total_items": 2, "_links": [{}]}`, []string{"lists"}, 1, q("count=10&offset=0"), "", true},
		{"mailchimp last offset", `{"lists": [{}], "total_items": 2}`, []string{"lists"}, 1, q("offset=1"), "", false},
		{"hal _links.next", `{"items": [{}], "_links": {"next": {"href": "/api/v2/flags?offset=20"}}}`, []string{"items"}, 1, nil, "", true},
		{"jira isLast", `{"values": [{}], "isLast": false, "startAt": 0, "total": 1}`, []string{"values"}, 1, nil, "", true},
		{"linode page < pages", `{"data": [{}], "page": 1, "pages": 3, "results": 300}`, []string{"data"}, 1, nil, "", true},
		{"digitalocean links.pages.next", `{"droplets": [{}], "links": {"pages": {"next": "https://x?page=2"}}, "meta": {"total": 1}}`, []string{"droplets"}, 1, nil, "", true},
		{"Link header", `[{}]`, nil, 1, nil, `<https://x/things?page=2>; rel="next", <https://x/things?page=9>; rel="last"`, true},
		{"Link header, last page", `[{}]`, nil, 1, nil, `<https://x/things?page=1>; rel="prev"`, false},
		{"an entity's own next", `{"id": "1", "schedule": {"next": "2024-01-01"}, "cursor": "abc"}`, nil, 1, nil, "", false},
		{"an entity's total", `{"id": "1", "total": 30}`, nil, 1, nil, "", false},
		{"an entity's meta.next", `{"id": "1", "meta": {"next": "https://x?page=2"}}`, nil, 1, nil, "", true},
		{"an array has no fields", `[{"next": "x", "has_more": true}]`, nil, 1, nil, "", false},
		{"items' own fields", `{"data": [{"has_more": true}]}`, []string{"data"}, 1, nil, "", false},
	}
	for _, c := range cases {
		got := silentMore([]byte(c.body), c.list, c.n, c.query, c.link)
		if (got != "") != c.more {
			t.Errorf("%s: %q, want more=%v", c.name, got, c.more)
		}
	}
	one := map[string]any{"id": "a"}
	if why := silentOverlap([]map[string]any{one, {"id": "b"}, one}, 2); why == "" {
		t.Error("a row two pages both gave is an overlap")
	}
	if why := silentOverlap([]map[string]any{one, one}, 1); why != "" {
		t.Errorf("one page's own repeated items are no overlap of pages: %s", why)
	}
	if why := silentOverlap([]map[string]any{one, {"id": "b"}}, 3); why != "" {
		t.Errorf("distinct rows: %s", why)
	}
}

// TestEnvelopeBesideMetadataArrays: the list is the array of objects the
// schema declares beside _links, errors or order (Mailchimp, Square,
// Box), and one entity in {"data": {...}} is that entity (Asana's tag).
func TestEnvelopeBesideMetadataArrays(t *testing.T) {
	mailchimp := []shapeField{{name: "_links", objArray: true}, {name: "lists", objArray: true}, {name: "total_items"}}
	if got := envelope(mailchimp, "/lists", map[string]bool{"count": true}, 0); fmt.Sprint(got) != "[lists]" {
		t.Errorf("Mailchimp: %v, want [lists]", got)
	}
	box := []shapeField{{name: "entries", objArray: true}, {name: "limit"}, {name: "offset"}, {name: "order", objArray: true}, {name: "total_count"}}
	if got := envelope(box, "/folders/{folder_id}/items", map[string]bool{"offset": true}, 0); fmt.Sprint(got) != "[entries]" {
		t.Errorf("Box: %v, want [entries]", got)
	}
	square := []shapeField{{name: "cursor"}, {name: "customers", objArray: true}, {name: "errors", objArray: true}}
	if got := envelope(square, "/v2/customers", map[string]bool{"cursor": true}, 0); fmt.Sprint(got) != "[customers]" {
		t.Errorf("Square: %v, want [customers]", got)
	}
	doc, err := parseDoc([]byte(`{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	tag := map[string]any{"type": "object", "properties": map[string]any{"gid": map[string]any{"type": "string"},
		"followers": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{"gid": map[string]any{"type": "string"}}}}}}
	schema := map[string]any{"type": "object", "properties": map[string]any{"data": tag}}
	its, _, why, ok := doc.expectedItems("/tags/{tag_gid}", nil, schema, []byte(`{"data": {"gid": "1", "followers": [{"gid": "2"}, {"gid": "3"}]}}`))
	if !ok || len(its) != 1 || fmt.Sprint(its[0].(map[string]any)["gid"]) != "1" {
		t.Errorf("Asana tag: %v %v %s, want the one tag", its, ok, why)
	}
}
