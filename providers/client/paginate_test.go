package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/enginehq/engine/providers"
)

func TestPaginationConcurrentInOrder(t *testing.T) {
	var hits atomic.Int32
	var seen sync.Map
	h := pagedHandler(3, 2, false, &hits)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.URL.Query().Get("page"), r.Header.Clone())
		if got := r.URL.Query().Get("type"); got != "public" {
			t.Errorf("type query = %q", got)
		}
		h(w, r)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	var progress []int
	call := orgCall()
	call.Params["type"] = "public"
	call.OnPage = func(p int) { progress = append(progress, p) }
	items, st, err := collect(t, c, call)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 6 {
		t.Fatalf("got %d items, want 6", len(items))
	}
	for i, it := range items {
		p, j := pageOf(t, it)
		if p != i/2+1 || j != i%2 {
			t.Errorf("item %d is page %d #%d: out of order", i, p, j)
		}
	}
	if st.Requests != 3 || st.Pages != 3 || hits.Load() != 3 {
		t.Errorf("stats %+v, hits %d; want 3 requests, 3 pages", st, hits.Load())
	}
	if fmt.Sprint(progress) != "[1 2 3]" {
		t.Errorf("OnPage progress %v", progress)
	}
	v, _ := seen.Load("")
	hdr := v.(http.Header)
	if hdr.Get("Authorization") != "Bearer "+testToken || hdr.Get("X-GitHub-Api-Version") != "2022-11-28" || hdr.Get("User-Agent") != "engine" {
		t.Errorf("first request headers: %v", hdr)
	}
	if tot := c.Totals(); tot != st {
		t.Errorf("Totals %+v != %+v", tot, st)
	}
}

func TestPaginationSequentialNextOnly(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(pagedHandler(4, 3, true, &hits))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	items, st, err := collect(t, c, orgCall())
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 12 || st.Pages != 4 || st.Requests != 4 {
		t.Fatalf("items %d stats %+v", len(items), st)
	}
	for i, it := range items {
		if p, _ := pageOf(t, it); p != i/3+1 {
			t.Fatalf("item %d from page %d", i, p)
		}
	}
}

func TestPerPageSent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "per_page=7" {
			t.Errorf("query %q", r.URL.RawQuery)
		}
		fmt.Fprint(w, "[]")
	}))
	defer srv.Close()
	c := newTestClient(t, srv, func(o *Options) { o.PerPage = 7 })
	if _, _, err := collect(t, c, orgCall()); err != nil {
		t.Fatal(err)
	}
}

func TestLimitStopsEarly(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(pagedHandler(5, 2, false, &hits))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	call := orgCall()
	call.Limit = 3
	items, st, err := collect(t, c, call)
	if err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 2 || st.Requests != 2 || len(items) != 4 {
		t.Fatalf("hits %d, stats %+v, items %d; want 2 requests and 4 items", hits.Load(), st, len(items))
	}
}

func TestMaxPages(t *testing.T) {
	for _, noLast := range []bool{false, true} {
		t.Run(fmt.Sprint("noLast=", noLast), func(t *testing.T) {
			var hits atomic.Int32
			srv := httptest.NewServer(pagedHandler(5, 1, noLast, &hits))
			defer srv.Close()
			c := newTestClient(t, srv, func(o *Options) { o.MaxPages = 3 })
			_, _, err := collect(t, c, orgCall())
			pe := asProviderError(t, err)
			if pe.Kind != "limit" || pe.ErrorSetting() != "max-pages" || strings.Contains(pe.Message, "--") || pe.Retryable {
				t.Fatalf("error %+v", pe)
			}
			want := int32(3)
			if !noLast {
				want = 1 // the page count is known from rel="last": fail before fetching
			}
			if hits.Load() != want {
				t.Errorf("hits %d, want %d", hits.Load(), want)
			}
		})
	}
	// Exactly MaxPages pages is fine.
	var hits atomic.Int32
	srv := httptest.NewServer(pagedHandler(3, 1, false, &hits))
	defer srv.Close()
	c := newTestClient(t, srv, func(o *Options) { o.MaxPages = 3 })
	if _, _, err := collect(t, c, orgCall()); err != nil {
		t.Fatal(err)
	}
}

func TestLinkLoop(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host + r.URL.Path
		if r.URL.Query().Get("page") == "2" {
			// Back to page 1, parameters in another order.
			w.Header().Set("Link", fmt.Sprintf(`<%s?per_page=100>; rel="next"`, base))
		} else {
			w.Header().Set("Link", fmt.Sprintf(`<%s?page=2&per_page=100>; rel="next"`, base))
		}
		fmt.Fprint(w, `[{"a":1}]`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	_, st, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if !strings.Contains(pe.Message, "pagination loop") || st.Requests != 2 {
		t.Fatalf("error %v, stats %+v", err, st)
	}
}

func TestNextOnOtherHostRefused(t *testing.T) {
	var otherHits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits.Add(1)
		fmt.Fprint(w, `[]`)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", fmt.Sprintf(`<%s/orgs/acme/repos?page=2>; rel="next"`, other.URL))
		fmt.Fprint(w, `[]`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	_, _, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if !strings.Contains(pe.Message, "refusing to follow") || otherHits.Load() != 0 {
		t.Fatalf("error %v, other hits %d", err, otherHits.Load())
	}
}

func TestRelativeNextLink(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "" {
			w.Header().Set("Link", `</orgs/acme/repos?page=2>; rel="next"`)
		}
		fmt.Fprint(w, `[{"a":1}]`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	items, _, err := collect(t, c, orgCall())
	if err != nil || len(items) != 2 {
		t.Fatalf("items %d, err %v", len(items), err)
	}
}

func TestEmitErrorStops(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(pagedHandler(6, 1, false, &hits))
	defer srv.Close()
	c := newTestClient(t, srv, func(o *Options) { o.PageConcurrency = 2 })
	stop := errors.New("stop")
	n := 0
	_, err := c.Do(context.Background(), orgCall(), func([]json.RawMessage) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("err %v", err)
	}
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name    string
		m       providers.Method
		status  int
		body    string
		want    []string
		wantErr string
	}{
		{"wrapped", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "workflow_runs"}, 200, `{"total_count":2,"workflow_runs":[{"id":1},{"id":2}]}`, []string{`{"id":1}`, `{"id":2}`}, ""},
		{"wrapped absent key total 0", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "workflow_runs"}, 200, `{"total_count": 0}`, nil, ""},
		{"wrapped absent key", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "workflow_runs"}, 200, `{"total_count":3}`, nil, `no "workflow_runs" array`},
		{"wrapped not array", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "runs"}, 200, `{"runs":{}}`, nil, "JSON array"},
		{"wrapped got array", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "runs"}, 200, `[]`, nil, "expected a JSON object"},
		{"object", providers.Method{Shape: providers.ShapeObject}, 200, ` {"id":7} `, []string{`{"id":7}`}, ""},
		{"object got array", providers.Method{Shape: providers.ShapeObject}, 200, `[{"id":7}]`, nil, "expected a JSON object, got an array"},
		{"none 204", providers.Method{Shape: providers.ShapeNone}, 204, ``, []string{`{}`}, ""},
		{"none 200 with body", providers.Method{Shape: providers.ShapeNone}, 200, `whatever`, []string{`{}`}, ""},
		{"array 204", providers.Method{Shape: providers.ShapeArray}, 204, ``, nil, ""},
		{"array", providers.Method{Shape: providers.ShapeArray}, 200, `[1,"x",{"a":[1]}]`, []string{`1`, `"x"`, `{"a":[1]}`}, ""},
		{"array got object", providers.Method{Shape: providers.ShapeArray}, 200, `{"message":"x"}`, nil, "expected response body to be a JSON array, got an object"},
		{"array truncated", providers.Method{Shape: providers.ShapeArray}, 200, `[{"a":1},{"b":`, nil, "response body is not valid JSON: unexpected EOF"},
		{"array malformed", providers.Method{Shape: providers.ShapeArray}, 200, `[{"a":1},}]`, nil, "response body is not valid JSON: invalid character"},
		{"array empty 200", providers.Method{Shape: providers.ShapeArray}, 200, ``, nil, "response body is empty"},
		{"undeclared shape array", providers.Method{}, 200, `[{"a":1}]`, []string{`{"a":1}`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			}))
			defer srv.Close()
			c := newTestClient(t, srv, nil)
			m := tt.m
			m.OperationID, m.Path = "repos/list-for-org", "/x"
			items, _, err := collect(t, c, Call{Method: &m})
			if tt.wantErr != "" {
				pe := asProviderError(t, err)
				if pe.Kind != "decode" || pe.Status != tt.status || !strings.Contains(pe.Message, tt.wantErr) || pe.Retryable {
					t.Fatalf("error %+v, want decode error containing %q", pe, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				got = append(got, string(it))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("items %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAbsentStatus(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Query().Get("page") == "2" {
			http.Error(w, `{"message":"Not Found"}`, 404)
			return
		}
		if r.URL.Path == "/repos/acme/x/branches/main/protection" {
			http.Error(w, `{"message":"Branch not protected"}`, 404)
			return
		}
		w.Header().Set("Link", `</p?page=2>; rel="next"`)
		fmt.Fprint(w, `[{"a":1}]`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	m := &providers.Method{OperationID: "repos/get-branch-protection", Path: "/repos/acme/x/branches/main/protection", Shape: providers.ShapeObject, Absent: []providers.AbsentRule{{Status: 404, Message: "Branch not protected"}}}
	items, st, err := collect(t, c, Call{Method: m})
	if err != nil || len(items) != 0 || st.Requests != 1 {
		t.Fatalf("absent: items %v stats %+v err %v", items, st, err)
	}
	// Absent statuses only apply to the first page.
	m2 := &providers.Method{OperationID: "x/list", Path: "/p", Shape: providers.ShapeArray, Absent: []providers.AbsentRule{{Status: 404, Message: "Not Found"}}}
	_, _, err = collect(t, c, Call{Method: m2})
	var pe *providers.ProviderError
	if !errors.As(err, &pe) || pe.Status != 404 || pe.Message != "Not Found" {
		t.Fatalf("404 on page 2: %v", err)
	}
}
