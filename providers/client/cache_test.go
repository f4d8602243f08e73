package client

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/enginehq/engine/providers/httpcache"
)

// cacheServer answers /orgs/acme/repos with headers h (ETag handled when
// set) and counts requests and conditional requests.
type cacheServer struct {
	header      http.Header
	requests    atomic.Int32
	conditional atomic.Int32
}

func (s *cacheServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	for k, v := range s.header {
		w.Header()[k] = v
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		s.conditional.Add(1)
		if inm == s.header.Get("Etag") {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Write([]byte(`[{"id":1}]`))
}

func cachedCall() Call {
	return Call{Method: listMethod(), Params: map[string]string{"org": "acme"}}
}

func runCached(t *testing.T, h http.Header, ttl time.Duration, runs int, mod func(int, *Options)) (*cacheServer, []Stats) {
	t.Helper()
	cs := &cacheServer{header: h}
	srv := serve(t, cs)
	cache, err := httpcache.Open(t.TempDir(), ttl, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []Stats
	for i := 0; i < runs; i++ {
		c := newTestClient(t, srv, func(o *Options) {
			o.Cache = cache
			if mod != nil {
				mod(i, o)
			}
		})
		items, st, err := collect(t, c, cachedCall())
		if err != nil || len(items) != 1 {
			t.Fatalf("run %d: %v %v", i, items, err)
		}
		out = append(out, st)
	}
	return cs, out
}

func TestCacheRevalidatesByDefault(t *testing.T) {
	cs, st := runCached(t, http.Header{"Etag": {`W/"1"`}}, 0, 3, nil)
	if cs.requests.Load() != 3 || cs.conditional.Load() != 2 {
		t.Fatalf("TTL 0: %d requests, %d conditional; want 3 and 2", cs.requests.Load(), cs.conditional.Load())
	}
	if st[2].Revalidated != 1 || st[2].CacheHits != 0 {
		t.Fatalf("stats %+v", st[2])
	}
}

func TestCacheTTLServesWithoutAsking(t *testing.T) {
	cs, st := runCached(t, http.Header{"Etag": {`W/"1"`}}, time.Hour, 2, nil)
	if cs.requests.Load() != 1 || st[1].CacheHits != 1 {
		t.Fatalf("TTL 1h: %d requests, stats %+v", cs.requests.Load(), st[1])
	}
}

func TestCacheNoStore(t *testing.T) {
	cs, _ := runCached(t, http.Header{"Etag": {`W/"1"`}, "Cache-Control": {"private, no-store"}}, time.Hour, 2, nil)
	if cs.requests.Load() != 2 || cs.conditional.Load() != 0 {
		t.Fatalf("no-store: %d requests, %d conditional; want 2 unconditional", cs.requests.Load(), cs.conditional.Load())
	}
}

func TestCacheNoCache(t *testing.T) {
	// With a validator: stored, but revalidated every time even within the TTL.
	cs, st := runCached(t, http.Header{"Etag": {`W/"1"`}, "Cache-Control": {"no-cache"}}, time.Hour, 2, nil)
	if cs.requests.Load() != 2 || cs.conditional.Load() != 1 || st[1].Revalidated != 1 {
		t.Fatalf("no-cache with ETag: %d requests, %d conditional, %+v", cs.requests.Load(), cs.conditional.Load(), st[1])
	}
	// Without one (GitHub search): never reused.
	cs, st = runCached(t, http.Header{"Cache-Control": {"no-cache"}}, time.Hour, 2, nil)
	if cs.requests.Load() != 2 || cs.conditional.Load() != 0 || st[1].CacheHits != 0 {
		t.Fatalf("no-cache without validator: %d requests, %d conditional, %+v", cs.requests.Load(), cs.conditional.Load(), st[1])
	}
}

func TestCacheVary(t *testing.T) {
	// Vary: Accept. Same Accept: reused; another Accept: not.
	cs, st := runCached(t, http.Header{"Etag": {`W/"1"`}, "Vary": {"Accept, Authorization"}}, time.Hour, 2, nil)
	if cs.requests.Load() != 1 || st[1].CacheHits != 1 {
		t.Fatalf("same Vary values: %d requests", cs.requests.Load())
	}
	cs, _ = runCached(t, http.Header{"Etag": {`W/"1"`}, "Vary": {"User-Agent"}}, time.Hour, 2, func(i int, o *Options) {
		o.UserAgent = []string{"engine-a", "engine-b"}[i]
	})
	if cs.requests.Load() != 2 || cs.conditional.Load() != 0 {
		t.Fatalf("another User-Agent under Vary: User-Agent: %d requests, %d conditional; want 2 unconditional", cs.requests.Load(), cs.conditional.Load())
	}
	cs, _ = runCached(t, http.Header{"Etag": {`W/"1"`}, "Vary": {"*"}}, time.Hour, 2, nil)
	if cs.requests.Load() != 2 || cs.conditional.Load() != 0 {
		t.Fatalf("Vary: * was reused: %d requests, %d conditional", cs.requests.Load(), cs.conditional.Load())
	}
	// Another token under Vary: Authorization is another entry anyway
	// (the key holds the credentials' identity): not reused.
	cs, _ = runCached(t, http.Header{"Etag": {`W/"1"`}, "Vary": {"Authorization"}}, time.Hour, 2, func(i int, o *Options) {
		o.Credentials = bearer(t, []string{"token-a-1234567890", "token-b-1234567890"}[i])
	})
	if cs.requests.Load() != 2 || cs.conditional.Load() != 0 {
		t.Fatalf("another token was served this token's entry: %d requests", cs.requests.Load())
	}
}

// TestCacheEntriesHoldNoSecret: with Vary: Authorization the stored
// fingerprint is of the credentials' identity, never the token.
func TestCacheEntriesHoldNoSecret(t *testing.T) {
	cs := &cacheServer{header: http.Header{"Etag": {`W/"1"`}, "Vary": {"Accept, Authorization, Cookie"}}}
	srv := serve(t, cs)
	dir := t.TempDir()
	cache, err := httpcache.Open(dir, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, srv, func(o *Options) { o.Cache = cache })
	if _, _, err := collect(t, c, cachedCall()); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), testToken) || strings.Contains(string(b), "testSECRET") {
			t.Errorf("%s holds the token", p)
		}
		n++
		return nil
	})
	if n < 2 {
		t.Fatalf("expected a marker and an entry, found %d files", n)
	}
}
