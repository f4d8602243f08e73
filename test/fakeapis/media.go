package fakeapis

import (
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Body is one answer of a Media server: its media type and text.
type Body struct {
	Type string // e.g. "application/jwk-set+json", "text/plain; charset=utf-8"
	Text string
}

// Media is a loopback API that negotiates content as strict servers do:
// it answers a path's body only to a request whose Accept admits the
// body's media type (the type itself, type/*, */* or no Accept at all),
// and 406 Not Acceptable otherwise, as the Kubernetes API and JWKS
// endpoints do. It records the Accept header of every request. It is
// safe for concurrent use.
type Media struct {
	URL string

	mu      sync.Mutex
	accepts []string
}

// NewMedia starts a Media answering bodies (by URL path) and stops it when
// the test ends.
func NewMedia(t interface{ Cleanup(func()) }, bodies map[string]Body) *Media {
	m := &Media{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept := r.Header.Get("Accept")
		m.mu.Lock()
		m.accepts = append(m.accepts, accept)
		m.mu.Unlock()
		b, ok := bodies[r.URL.Path]
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message": "not found"}`))
			return
		}
		if !admits(accept, b.Type) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotAcceptable)
			w.Write([]byte(`{"message": "Not Acceptable: this resource answers ` + b.Type + `"}`))
			return
		}
		w.Header().Set("Content-Type", b.Type)
		w.Write([]byte(b.Text))
	}))
	t.Cleanup(srv.Close)
	m.URL = srv.URL
	return m
}

// Accepts returns the Accept headers received, in order.
func (m *Media) Accepts() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.accepts...)
}

// admits reports whether an Accept header admits media type typ.
func admits(accept, typ string) bool {
	if strings.TrimSpace(accept) == "" {
		return true
	}
	want, _, err := mime.ParseMediaType(typ)
	if err != nil {
		return false
	}
	major, _, _ := strings.Cut(want, "/")
	for _, part := range strings.Split(accept, ",") {
		got, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || params["q"] == "0" {
			continue
		}
		if got == "*/*" || got == want || got == major+"/*" {
			return true
		}
	}
	return false
}
