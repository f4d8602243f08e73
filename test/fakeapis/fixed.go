package fakeapis

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
)

// Fixed is a loopback API that answers fixed bodies by path, for tests
// of a provider described by a document of their own: a body answers 200
// as JSON, an empty body 204, a path it lacks 404 {"message": "not
// found"}. A key with a query ("/files.list?page=2") answers the requests
// to that path carrying those query values, the key with most of them
// winning over the bare path (numbered pages). It records the URI and the
// headers of every request. It is safe for concurrent use.
type Fixed struct {
	URL string // base URL, for the document's servers[0]

	mu      sync.Mutex
	uris    []string
	auths   []string
	headers []http.Header
}

// NewFixed starts a Fixed answering bodies (by URL path) and stops it
// when the test ends.
func NewFixed(t interface{ Cleanup(func()) }, bodies map[string]string) *Fixed {
	f := &Fixed{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.uris = append(f.uris, r.URL.RequestURI())
		f.auths = append(f.auths, r.Header.Get("Authorization"))
		f.headers = append(f.headers, r.Header.Clone())
		f.mu.Unlock()
		body, ok := match(bodies, r.URL)
		if !ok {
			http.Error(w, `{"message": "not found"}`, http.StatusNotFound)
			return
		}
		if body == "" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// match returns the body of the most specific key matching u: its path,
// and every query value the key names.
func match(bodies map[string]string, u *url.URL) (string, bool) {
	body, ok := bodies[u.Path]
	best := 0
	q := u.Query()
	for k, b := range bodies {
		path, raw, found := strings.Cut(k, "?")
		if !found || path != u.Path {
			continue
		}
		want, err := url.ParseQuery(raw)
		if err != nil {
			continue
		}
		all := true
		for name := range want {
			if q.Get(name) != want.Get(name) {
				all = false
			}
		}
		if all && len(want) > best {
			body, ok, best = b, true, len(want)
		}
	}
	return body, ok
}

// Headers returns the headers of each request received, in order.
func (f *Fixed) Headers() []http.Header {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]http.Header(nil), f.headers...)
}

// Requests returns the request URIs received, in order.
func (f *Fixed) Requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.uris...)
}

// LastAuth returns the Authorization header of the last request ("" when
// it had none), and false when no request came.
func (f *Fixed) LastAuth() (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.auths) == 0 {
		return "", false
	}
	return f.auths[len(f.auths)-1], true
}

// Auths returns the Authorization header of every request received, in
// order ("" for a request without one).
func (f *Fixed) Auths() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.auths...)
}
