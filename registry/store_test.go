package registry_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/registry"
)

func TestStoreIndexRoundTripAndCorruption(t *testing.T) {
	dir := t.TempDir()
	s, err := registry.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	key := registry.IndexKey("c1", "p", registry.SHA256([]byte("doc")), "")
	if _, _, err := s.Index(key); !errors.Is(err, registry.ErrNoIndex) {
		t.Fatalf("empty store: %v", err)
	}
	if _, err := os.Stat(s.Dir()); err == nil {
		t.Fatal("reading created the store")
	}
	body := []byte("{\"format\":2}\n")
	when := time.Unix(1700000000, 0)
	if err := s.PutIndex(key, body, when); err != nil {
		t.Fatal(err)
	}
	got, at, err := s.Index(key)
	if err != nil || string(got) != string(body) || !at.Equal(when) {
		t.Fatalf("Index = %q %v %v", got, at, err)
	}
	if k2 := registry.IndexKey("c2", "p", registry.SHA256([]byte("doc")), ""); k2 == key {
		t.Fatal("the compiler identity is not part of the key")
	}
	p := filepath.Join(s.Dir(), "index", key+".idx")
	raw, _ := os.ReadFile(p)
	raw[len(raw)-2] ^= 1
	os.WriteFile(p, raw, 0o600)
	if _, _, err := s.Index(key); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("corrupt index: %v", err)
	}
	for _, d := range []string{s.Dir(), filepath.Join(s.Dir(), "index")} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v", d, fi.Mode(), err)
		}
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: %v", p, err)
	}
}

func TestStoreRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, registry.StoreSubdir), 0o700)
	os.WriteFile(filepath.Join(dir, registry.StoreSubdir, "thesis.tex"), []byte("x"), 0o600)
	if _, err := registry.OpenStore(dir); err == nil || !strings.Contains(err.Error(), "marker") {
		t.Fatalf("foreign directory: %v", err)
	}
}

func TestStoreProvidersAndBlobs(t *testing.T) {
	s, err := registry.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	doc := []byte("openapi: 3.0.0")
	sum, err := s.PutBlob(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b"} {
		if err := s.Put(registry.Stored{Name: n, Kind: registry.StoredAdded, Origin: "/x", Document: sum, Fetched: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	srcs, err := s.Sources()
	if err != nil || len(srcs) != 2 || srcs[0].Name != "a" || srcs[0].Stored == nil || srcs[0].Kind != registry.KindOpenAPI {
		t.Fatalf("Sources = %+v %v", srcs, err)
	}
	if data, err := srcs[0].Data(); err != nil || string(data) != string(doc) {
		t.Fatalf("Data = %q %v", data, err)
	}
	s.Remove("a")
	if _, err := s.Blob(sum); err != nil {
		t.Fatalf("a blob still used by b was removed: %v", err)
	}
	s.Remove("b")
	if _, err := s.Blob(sum); err == nil {
		t.Fatal("an unused blob was kept")
	}
	if err := s.Put(registry.Stored{Name: "../x", Kind: registry.StoredAdded}); err == nil {
		t.Fatal("a bad name was accepted")
	}
}

func TestFetchBounds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Write([]byte(strings.Repeat("x", 2000)))
		case "/slow":
			time.Sleep(2 * time.Second)
		case "/ok":
			w.Write([]byte("{}"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	if b, err := registry.Fetch(ctx, srv.URL+"/ok", 1000, time.Second); err != nil || string(b) != "{}" {
		t.Fatalf("ok: %q %v", b, err)
	}
	for path, want := range map[string]string{"/big": "limit", "/slow": "within", "/nope": "404"} {
		if _, err := registry.Fetch(ctx, srv.URL+path, 1000, 300*time.Millisecond); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	if _, err := registry.Fetch(ctx, "file:///etc/passwd", 0, 0); err == nil {
		t.Error("a file URL was fetched")
	}
}
