package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/httpcache"
)

// bodyServer serves GET /list with handler h (a page as a function of the
// request) and counts requests.
func bodyServer(t *testing.T, h func(r *http.Request) string) (*httptest.Server, *int) {
	t.Helper()
	n := 0
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, h(r))
	}))
	return srv, &n
}

func wrappedMethod(key string, pg *providers.Paging) *providers.Method {
	return &providers.Method{Name: "list", OperationID: "things/list", Path: "/list", Shape: providers.ShapeWrapped, ItemKey: key, Paging: pg, Paginated: pg != nil}
}

func items(t *testing.T, all []json.RawMessage, field string) string {
	t.Helper()
	var out []string
	for _, it := range all {
		var v map[string]any
		if err := json.Unmarshal(it, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(v[field]))
	}
	return strings.Join(out, ",")
}

func ids(from, to int) string {
	var s []string
	for i := from; i < to; i++ {
		s = append(s, fmt.Sprintf(`{"id":"x%d"}`, i))
	}
	return "[" + strings.Join(s, ",") + "]"
}

var stripePaging = &providers.Paging{Style: providers.PagingCursor, Param: "starting_after", HasMore: "has_more", LastItem: "id", Size: "limit"}

func TestStripeCursor(t *testing.T) {
	srv, n := bodyServer(t, func(r *http.Request) string {
		start := 0
		if a := r.URL.Query().Get("starting_after"); a != "" {
			start, _ = strconv.Atoi(strings.TrimPrefix(a, "x"))
			start++
		}
		end := min(start+2, 5)
		return fmt.Sprintf(`{"object":"list","data":%s,"has_more":%v,"url":"/list"}`, ids(start, end), end < 5)
	})
	c := newTestClient(t, srv, nil)
	all, _, err := collect(t, c, Call{Method: wrappedMethod("data", stripePaging)})
	if err != nil || items(t, all, "id") != "x0,x1,x2,x3,x4" || *n != 3 {
		t.Fatalf("items %s, %d requests, err %v", items(t, all, "id"), *n, err)
	}
	// Limit stops after the page that reaches it.
	*n = 0
	all, _, err = collect(t, c, Call{Method: wrappedMethod("data", stripePaging), Limit: 3})
	if err != nil || len(all) != 4 || *n != 2 {
		t.Fatalf("Limit 3: %d items, %d requests, err %v", len(all), *n, err)
	}
}

func TestCursorFailures(t *testing.T) {
	for name, c := range map[string]struct {
		page string
		pg   *providers.Paging
		want string
	}{
		"has_more on an empty page": {`{"data":[],"has_more":true}`, stripePaging, "page is empty"},
		"last item without id":      {`{"data":[{"name":"a"}],"has_more":true}`, stripePaging, `no "id"`},
		"repeated last id":          {`{"data":[{"id":"same"}],"has_more":true}`, stripePaging, "pagination loop"},
		"repeated next cursor": {`{"channels":[{"id":"c"}],"response_metadata":{"next_cursor":"abc"}}`,
			&providers.Paging{Style: providers.PagingCursor, Param: "cursor", Next: "response_metadata.next_cursor"}, "pagination loop"},
	} {
		t.Run(name, func(t *testing.T) {
			srv, n := bodyServer(t, func(*http.Request) string { return c.page })
			key := "data"
			if strings.Contains(c.page, "channels") {
				key = "channels"
			}
			_, _, err := collect(t, newTestClient(t, srv, nil), Call{Method: wrappedMethod(key, c.pg)})
			pe := asProviderErrorAny(t, err)
			if pe.Kind != "pagination" || pe.Retryable || !strings.Contains(pe.Message, c.want) || *n > 2 {
				t.Fatalf("%d requests, error %+v, want kind pagination saying %q", *n, pe, c.want)
			}
		})
	}
}

// An empty next cursor ends the list (Slack sends "" on the last page).
func TestSlackEmptyCursorEnds(t *testing.T) {
	srv, n := bodyServer(t, func(r *http.Request) string {
		if r.URL.Query().Get("cursor") == "" {
			return `{"ok":true,"channels":[{"id":"a"},{"id":"b"}],"response_metadata":{"next_cursor":"dXNlcjo="}}`
		}
		return `{"ok":true,"channels":[{"id":"c"}],"response_metadata":{"next_cursor":""}}`
	})
	pg := &providers.Paging{Style: providers.PagingCursor, Param: "cursor", Next: "response_metadata.next_cursor"}
	all, _, err := collect(t, newTestClient(t, srv, nil), Call{Method: wrappedMethod("channels", pg)})
	if err != nil || items(t, all, "id") != "a,b,c" || *n != 2 {
		t.Fatalf("items %s, %d requests, err %v", items(t, all, "id"), *n, err)
	}
}

// A next URL in the body is followed (relative to the page's URL) until
// it is null; one that leaves the origin is refused.
func TestNextURL(t *testing.T) {
	srv, n := bodyServer(t, func(r *http.Request) string {
		switch r.URL.Query().Get("Page") {
		case "":
			return `{"items":[{"id":1}],"next_page_uri":"/list?Page=1&PageToken=PA1"}`
		case "1":
			return `{"items":[{"id":2}],"next_page_uri":null}`
		}
		return `{}`
	})
	pg := &providers.Paging{Style: providers.PagingNextURL, Next: "next_page_uri"}
	all, _, err := collect(t, newTestClient(t, srv, nil), Call{Method: wrappedMethod("items", pg)})
	if err != nil || items(t, all, "id") != "1,2" || *n != 2 {
		t.Fatalf("items %s, %d requests, err %v", items(t, all, "id"), *n, err)
	}
	srv2, _ := bodyServer(t, func(*http.Request) string {
		return `{"items":[{"id":1}],"links":{"pages":{"next":"https://elsewhere.invalid/list?page=2"}}}`
	})
	pg = &providers.Paging{Style: providers.PagingNextURL, Next: "links.pages.next"}
	_, _, err = collect(t, newTestClient(t, srv2, nil), Call{Method: wrappedMethod("items", pg)})
	if pe := asProviderErrorAny(t, err); pe.Kind != "pagination" || !strings.Contains(pe.Message, "leaves") {
		t.Fatalf("error %+v", pe)
	}
}

// Offset paging: isLast ends; total ends; a short page ends when neither
// is given; isLast false on an empty page is an error.
func TestOffset(t *testing.T) {
	page := func(r *http.Request, withLast, withTotal bool) string {
		start, _ := strconv.Atoi(r.URL.Query().Get("startAt"))
		end := min(start+2, 5)
		var extra []string
		if withLast {
			extra = append(extra, fmt.Sprintf(`"isLast":%v`, end >= 5))
		}
		if withTotal {
			extra = append(extra, `"total":5`)
		}
		return fmt.Sprintf(`{"values":%s,"startAt":%d,"maxResults":2%s}`, ids(start, end), start, strings.Join(append([]string{""}, extra...), ","))
	}
	for name, c := range map[string]struct{ last, total bool }{"isLast": {true, false}, "total": {false, true}, "short page": {false, false}} {
		t.Run(name, func(t *testing.T) {
			srv, n := bodyServer(t, func(r *http.Request) string { return page(r, c.last, c.total) })
			pg := &providers.Paging{Style: providers.PagingOffset, Param: "startAt", Size: "maxResults", SizeMax: 2}
			if c.last {
				pg.IsLast = "isLast"
			}
			if c.total {
				pg.Total = "total"
			}
			all, _, err := collect(t, newTestClient(t, srv, nil), Call{Method: wrappedMethod("values", pg)})
			if err != nil || items(t, all, "id") != "x0,x1,x2,x3,x4" || *n != 3 {
				t.Fatalf("items %s, %d requests, err %v", items(t, all, "id"), *n, err)
			}
		})
	}
	srv, _ := bodyServer(t, func(*http.Request) string { return `{"values":[],"isLast":false}` })
	pg := &providers.Paging{Style: providers.PagingOffset, Param: "startAt", IsLast: "isLast"}
	_, _, err := collect(t, newTestClient(t, srv, nil), Call{Method: wrappedMethod("values", pg)})
	if pe := asProviderErrorAny(t, err); pe.Kind != "pagination" || !strings.Contains(pe.Message, "empty") {
		t.Fatalf("error %+v", pe)
	}
}

// The rule that cannot break: an answer saying there is more, for a
// method without a known paging, is an error naming the operation; a
// Limit already reached, or an answer saying nothing of the kind, is not.
func TestUnknownPagingSaysMore(t *testing.T) {
	for _, body := range []string{
		`{"data":[{"id":"a"}],"has_more":true}`,
		`{"data":[{"id":"a"}],"response_metadata":{"next_cursor":"x"}}`,
		`{"data":[{"id":"a"}],"next_page_uri":"/list?p=2"}`,
		`{"data":[{"id":"a"}],"isLast":false}`,
		`{"data":[{"id":"a"}],"startAt":0,"total":9}`,
		`{"data":[{"id":"a"}],"metadata":{"continue":"tok"}}`,
		// Nested and other styles (issue 32): Twilio, Vercel, Box, Square,
		// Asana, HAL, Box offset, GraphQL-like page info.
		`{"data":[{"id":"a"}],"meta":{"page":0,"page_size":50,"next_page_url":"https://x/list?Page=1"}}`,
		`{"data":[{"id":"a"}],"pagination":{"count":20,"next":1555072968396,"prev":null}}`,
		`{"data":[{"id":"a"}],"next_marker":"ZmlsZQ"}`,
		`{"data":[{"id":"a"}],"cursor":"c2"}`,
		`{"data":[{"id":"a"}],"next_page":{"offset":"eyJ0","path":"/list?offset=eyJ0","uri":"https://x/list?offset=eyJ0"}}`,
		`{"data":[{"id":"a"}],"_links":{"self":{"href":"/list"},"next":{"href":"/list?page=2"}}}`,
		`{"data":[{"id":"a"}],"total_count":5,"limit":1,"offset":0,"order":[{"by":"name"}]}`,
		`{"data":[{"id":"a"}],"pageInfo":{"hasNextPage":true,"endCursor":"x"}}`,
		`{"data":[{"id":"a"}],"links":{"pages":{"next":"https://x/list?page=2"}}}`,
		// A total beside the list and no offset in the answer: the
		// request's (Mailchimp's total_items).
		`{"data":[{"id":"a"}],"total_items":5,"_links":[{"rel":"self"}]}`,
	} {
		srv, _ := bodyServer(t, func(*http.Request) string { return body })
		c := newTestClient(t, srv, nil)
		_, _, err := collect(t, c, Call{Method: wrappedMethod("data", nil)})
		pe := asProviderErrorAny(t, err)
		if pe.Kind != "pagination" || pe.ErrorKind() != "incomplete" || !strings.Contains(pe.Message, `"things/list"`) || !strings.Contains(pe.Message, `{"pagination": {"operations": {"things/list": {"style": `) {
			t.Fatalf("%s: error %+v", body, pe)
		}
		if _, _, err := collect(t, c, Call{Method: wrappedMethod("data", nil), Limit: 1}); err != nil {
			t.Fatalf("%s with Limit 1: %v", body, err)
		}
	}
	for _, body := range []string{`{"data":[{"id":"a"}],"meta":{"next_page_url":null,"page":1}}`, `{"data":[{"id":"a"}],"next_page":null}`,
		`{"data":[{"id":"a"}],"pagination":{"next":null}}`, `{"data":[{"id":"a"}],"total_count":1,"offset":0}`, `{"data":[{"id":"a"}],"_links":{"self":{"href":"/list"}}}`,
		`{"data":[{"id":"a"}],"has_more":false}`, `{"data":[{"id":"a"}],"total_items":1}`, `{"data":[{"id":"a"}],"response_metadata":{"next_cursor":""}}`, `{"data":[{"id":"a"}],"next_page_uri":null}`, `{"data":[{"id":"a"}],"isLast":true}`} {
		srv, _ := bodyServer(t, func(*http.Request) string { return body })
		if _, _, err := collect(t, newTestClient(t, srv, nil), Call{Method: wrappedMethod("data", nil)}); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
	}
	// Declared "none": the engine does not look for signals.
	srv, _ := bodyServer(t, func(*http.Request) string { return `{"data":[{"id":"a"}],"has_more":true}` })
	if _, _, err := collect(t, newTestClient(t, srv, nil), Call{Method: wrappedMethod("data", &providers.Paging{Style: providers.PagingNone})}); err != nil {
		t.Fatal(err)
	}
}

// The size parameter is sent with the page size, at most its maximum.
func TestPagingSizeParam(t *testing.T) {
	var got string
	srv, _ := bodyServer(t, func(r *http.Request) string { got = r.URL.RawQuery; return `{"data":[],"has_more":false}` })
	pg := &providers.Paging{Style: providers.PagingCursor, Param: "starting_after", HasMore: "has_more", LastItem: "id", Size: "limit", SizeMax: 50}
	if _, _, err := collect(t, newTestClient(t, srv, nil), Call{Method: wrappedMethod("data", pg)}); err != nil || got != "limit=50" {
		t.Fatalf("query %q, err %v", got, err)
	}
}

// Errors in a 200 (Slack): the profile's rule makes them errors of the
// right kind, with the retry decision of their code.
func TestErrorIn200(t *testing.T) {
	prof := &providers.Profile{ErrorMessage: []string{"error"}, ErrorIn200: &providers.ErrorIn200{Field: "ok", Equals: "false", Code: "error",
		Auth: []string{"invalid_auth"}, RateLimited: []string{"ratelimited"}, Retryable: []string{"internal_error"}}, Credentials: "pass a Slack token with --auth"}
	for body, want := range map[string]struct {
		retryable, rateLimited bool
		msg                    string
	}{
		`{"ok":false,"error":"invalid_auth"}`:      {false, false, "pass a Slack token with --auth"},
		`{"ok":false,"error":"ratelimited"}`:       {true, true, "ratelimited"},
		`{"ok":false,"error":"internal_error"}`:    {true, false, "internal_error"},
		`{"ok":false,"error":"channel_not_found"}`: {false, false, "channel_not_found"},
	} {
		srv, _ := bodyServer(t, func(*http.Request) string { return body })
		p, err := newProvider(providers.Header{Provider: "slack", BaseURL: srv.URL, Profile: prof}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := New(p, Options{RetryMax: -1})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = collect(t, c, Call{Method: wrappedMethod("channels", nil)})
		pe, ok := err.(*providers.ProviderError)
		if !ok || pe.Status != 200 || pe.Retryable != want.retryable || pe.RateLimited != want.rateLimited || !strings.Contains(pe.Message, want.msg) {
			t.Fatalf("%s: error %+v", body, err)
		}
	}
	// ok: true is data.
	if _, ok := failedIn200(prof, []byte(`{"ok":true,"channels":[]}`)); ok {
		t.Fatal("ok: true read as a failure")
	}
}

// Error messages are read from the profile's fields.
func TestAPIMessageFields(t *testing.T) {
	for body, want := range map[string]string{
		`{"message":"Not Found"}`:                             "Not Found",
		`{"error":{"message":"No such customer","type":"x"}}`: "No such customer",
		`{"errorMessages":["a","b"],"errors":{}}`:             "a; b",
		`{"ok":false,"error":"invalid_auth"}`:                 "invalid_auth",
	} {
		if got := apiMessageOf(nil, []byte(body)); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
	if got := apiMessageOf(&providers.Profile{ErrorMessage: []string{"detail"}}, []byte(`{"message":"x","detail":"y"}`)); got != "y" {
		t.Errorf("profile field: %q", got)
	}
}

func asProviderErrorAny(t *testing.T, err error) *providers.ProviderError {
	t.Helper()
	pe, ok := err.(*providers.ProviderError)
	if !ok {
		t.Fatalf("error %v (%T) is not a *providers.ProviderError", err, err)
	}
	return pe
}

// An error in a 200 is never stored in the response cache: with a TTL,
// the next call asks the provider again and gets its rows.
func TestErrorIn200NotCached(t *testing.T) {
	calls := 0
	srv, _ := bodyServer(t, func(*http.Request) string {
		calls++
		if calls == 1 {
			return `{"ok":false,"error":"internal_error"}`
		}
		return `{"ok":true,"channels":[{"id":"a"}]}`
	})
	cache, err := httpcache.Open(t.TempDir(), time.Hour, 0)
	if err != nil {
		t.Fatal(err)
	}
	prof := &providers.Profile{ErrorIn200: &providers.ErrorIn200{Field: "ok", Equals: "false", Code: "error"}}
	p, err := newProvider(providers.Header{Provider: "slack", BaseURL: srv.URL, Profile: prof}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(p, Options{RetryMax: -1, Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := collect(t, c, Call{Method: wrappedMethod("channels", nil)}); err == nil {
		t.Fatal("ok: false gave no error")
	}
	all, _, err := collect(t, c, Call{Method: wrappedMethod("channels", nil)})
	if err != nil || len(all) != 1 || calls != 2 {
		t.Fatalf("second call: %d items, %d requests, err %v (the error was served from the cache)", len(all), calls, err)
	}
}

// Numbered pages end at the answer's number of pages (Slack's
// paging.pages) or at has_more false, even when a page is full.
func TestPageNumbersEndAtPagesOrHasMore(t *testing.T) {
	for _, c := range []struct {
		name string
		pg   *providers.Paging
		body func(page int) string
	}{
		{"pages", &providers.Paging{Style: providers.PagingPage, Param: "page", Size: "count", Pages: "paging.pages"},
			func(page int) string {
				return fmt.Sprintf(`{"files":%s,"paging":{"page":%d,"pages":3}}`, ids(2*page-2, 2*page), page)
			}},
		{"has_more", &providers.Paging{Style: providers.PagingPage, Param: "page", Size: "count", HasMore: "has_more"},
			func(page int) string {
				return fmt.Sprintf(`{"files":%s,"has_more":%v}`, ids(2*page-2, 2*page), page < 3)
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, n := bodyServer(t, func(r *http.Request) string {
				page := 1
				if p := r.URL.Query().Get("page"); p != "" {
					page, _ = strconv.Atoi(p)
				}
				if r.URL.Query().Get("count") == "" || r.URL.Query().Has("per_page") {
					return `{"files": [], "error": "bad size"}`
				}
				return c.body(page)
			})
			cl := newTestClient(t, srv, nil)
			all, _, err := collect(t, cl, Call{Method: wrappedMethod("files", c.pg)})
			if err != nil || items(t, all, "id") != "x0,x1,x2,x3,x4,x5" || *n != 3 {
				t.Fatalf("items %s, %d requests, err %v", items(t, all, "id"), *n, err)
			}
		})
	}
}

// Without a known paging, "page < pages" in the answer is a "more"
// signal: an error, never the first page as the whole.
func TestPagesSignalIsMore(t *testing.T) {
	srv, _ := bodyServer(t, func(r *http.Request) string {
		return `{"files":[{"id":"a"}],"paging":{"page":1,"pages":2}}`
	})
	cl := newTestClient(t, srv, nil)
	_, _, err := collect(t, cl, Call{Method: wrappedMethod("files", nil)})
	if err == nil || !strings.Contains(err.Error(), `"paging.page" 1 < "paging.pages" 2`) {
		t.Fatalf("err %v", err)
	}
}

// A method's partial marker (GitHub's git tree "truncated": true, a file
// over 1 MB "encoding": "none") makes its answer an error of kind
// incomplete naming the marker and the advice; another value is rows.
func TestPartialMarker(t *testing.T) {
	for _, c := range []struct {
		marker providers.PartialMarker
		body   string
		cut    bool
	}{
		{providers.PartialMarker{Property: "truncated", Value: "true", Reason: "cut", Advice: "walk it"}, `{"sha":"x","tree":[{"path":"a"}],"truncated":true}`, true},
		{providers.PartialMarker{Property: "truncated", Value: "true", Reason: "cut"}, `{"sha":"x","tree":[{"path":"a"}],"truncated":false}`, false},
		{providers.PartialMarker{Property: "encoding", Value: `"none"`, Reason: "big"}, `{"tree":[{"path":"a"}],"encoding":"none","content":""}`, true},
		{providers.PartialMarker{Property: "encoding", Value: `"none"`, Reason: "big"}, `{"tree":[{"path":"a"}],"encoding":"base64","content":"eA=="}`, false},
	} {
		srv, _ := bodyServer(t, func(*http.Request) string { return c.body })
		m := wrappedMethod("tree", nil)
		m.Partial = &c.marker
		all, _, err := collect(t, newTestClient(t, srv, nil), Call{Method: m})
		if !c.cut {
			if err != nil || len(all) != 1 {
				t.Fatalf("%s: %d items, err %v", c.body, len(all), err)
			}
			continue
		}
		pe := asProviderErrorAny(t, err)
		if pe.Kind != "incomplete" || pe.Retryable || !strings.Contains(pe.Message, c.marker.Property) || !strings.Contains(pe.Message, c.marker.Advice) {
			t.Fatalf("%s: error %+v", c.body, pe)
		}
	}
}
