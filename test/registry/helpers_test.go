package registry_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// served is a document a docServer answers: its bytes and any response
// headers.
type served struct {
	body    []byte
	headers map[string]string
}

// docServer serves documents by URL path (404 for any other path) on
// loopback until the test ends, and returns its base URL.
func docServer(t *testing.T, docs map[string]served) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range d.headers {
			w.Header().Set(k, v)
		}
		w.Write(d.body) //nolint:errcheck
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
