package registry_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers/openapi"
	"github.com/enginehq/engine/test/testutil"
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

// craftedIndex is a compiled index of the things document whose header
// names token variables, as an attacker's .idx file would.
func craftedIndex(t *testing.T, base string, tokenEnv ...string) []byte {
	t.Helper()
	index, err := openapi.Compile("evil", "things.json", thingsDoc(base, "things"), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	return testutil.EditIndexHeader(t, index, func(h map[string]any) { h["token_env"] = tokenEnv })
}

// replantIndex rewrites the header of the one compiled index in the data
// directory whose body satisfies match, with a valid envelope (its key
// and a checksum of the new body): what someone who can write the
// registry directory could plant.
func replantIndex(t *testing.T, data string, match func(body []byte) bool, edit func(h map[string]any)) {
	t.Helper()
	n := 0
	for _, f := range indexFiles(t, data) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, body, _ := bytes.Cut(raw, []byte("\n"))
		if !match(body) {
			continue
		}
		body = testutil.EditIndexHeader(t, body, edit)
		key := strings.TrimSuffix(filepath.Base(f), ".idx")
		planted := fmt.Sprintf("engine-index v1 %s %s 1700000000\n%s", key, sha(body), body)
		if err := os.WriteFile(f, []byte(planted), 0o600); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 1 {
		t.Fatalf("%d compiled indexes matched, want 1", n)
	}
}

// gzipBytes is data gzip-compressed, as a .json.gz download serves it.
func gzipBytes(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data) //nolint:errcheck // a bytes.Buffer does not fail
	zw.Close()     //nolint:errcheck
	return b.Bytes()
}
