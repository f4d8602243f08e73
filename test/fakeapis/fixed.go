package fakeapis

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
)

// Fixed is a loopback API that answers fixed bodies by path, for tests
// of a provider described by a document of their own: a body answers 200
// as JSON, an empty body 204, a path it lacks 404 {"message": "not
// found"}. It records the URI and the Authorization header of every
// request. It is safe for concurrent use.
type Fixed struct {
	URL string // base URL, for the document's servers[0]

	mu    sync.Mutex
	uris  []string
	auths []string
}

// NewFixed starts a Fixed answering bodies (by URL path) and stops it
// when the test ends.
func NewFixed(t interface{ Cleanup(func()) }, bodies map[string]string) *Fixed {
	f := &Fixed{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.uris = append(f.uris, r.URL.RequestURI())
		f.auths = append(f.auths, r.Header.Get("Authorization"))
		f.mu.Unlock()
		body, ok := bodies[r.URL.Path]
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
