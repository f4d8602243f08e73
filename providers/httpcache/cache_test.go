package httpcache

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestPutGetFreshAndTouch(t *testing.T) {
	c := openCache(t, t.TempDir(), time.Minute, 0)
	now := time.Now()
	c.nowFunc = func() time.Time { return now }
	k := Key("GET", "https://api.github.com/orgs/acme/repos", "identity")
	if _, ok := c.Get(k); ok {
		t.Fatal("hit on an empty cache")
	}
	h := http.Header{"Etag": {`"abc"`}, "Link": {`<x>; rel="next"`}}
	if err := c.Put(k, &Entry{Header: h, Body: []byte(`[{"id":1}]`), Vary: "v"}); err != nil {
		t.Fatal(err)
	}
	e, ok := c.Get(k)
	if !ok || string(e.Body) != `[{"id":1}]` || e.Header.Get("Etag") != `"abc"` || e.Header.Get("Link") == "" || e.Vary != "v" {
		t.Fatalf("entry: %+v %v", e, ok)
	}
	if !c.Fresh(e) {
		t.Fatal("a new entry is not fresh")
	}
	c.nowFunc = func() time.Time { return now.Add(2 * time.Minute) }
	if c.Fresh(e) {
		t.Fatal("an entry older than the TTL is fresh")
	}
	if err := c.Touch(k); err != nil {
		t.Fatal(err)
	}
	e, _ = c.Get(k)
	if !c.Fresh(e) {
		t.Fatal("a touched entry is not fresh")
	}
	fi, _ := os.Stat(filepath.Join(c.root, k[:2], k))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("entry mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestKeyDependsOnEveryPart(t *testing.T) {
	if Key("a", "b") == Key("a", "c") || Key("ab", "") == Key("a", "b") {
		t.Fatal("keys collide")
	}
}

func TestBoundedSize(t *testing.T) {
	c := openCache(t, t.TempDir(), time.Minute, 10_000)
	body := make([]byte, 1000)
	for i := 0; i < 50; i++ {
		if err := c.Put(Key(fmt.Sprint(i)), &Entry{Header: http.Header{}, Body: body}); err != nil {
			t.Fatal(err)
		}
	}
	if total := c.scan(nil); total > 10_000 {
		t.Fatalf("store holds %d bytes, bound 10000", total)
	}
	if _, ok := c.Get(Key("49")); !ok {
		t.Fatal("the newest entry was evicted")
	}
}

func TestConcurrentWritersNeverShowHalfEntries(t *testing.T) {
	dir := t.TempDir()
	a, b := openCache(t, dir, time.Minute, 0), openCache(t, dir, time.Minute, 0)
	k := Key("same")
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = 'x'
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() { defer wg.Done(); a.Put(k, &Entry{Header: http.Header{}, Body: big}) }()
		go func() {
			defer wg.Done()
			if e, ok := b.Get(k); ok && len(e.Body) != len(big) {
				t.Errorf("read a partial entry: %d bytes", len(e.Body))
			}
		}()
	}
	wg.Wait()
}

func TestZeroTTLIsNeverFresh(t *testing.T) {
	c := openCache(t, t.TempDir(), 0, 0)
	k := Key("x")
	c.Put(k, &Entry{Header: http.Header{}, Body: []byte("[]")})
	e, ok := c.Get(k)
	if !ok || c.Fresh(e) {
		t.Fatalf("with TTL 0 an entry must be stored (%v) and never fresh", ok)
	}
}

// TestEvictionTouchesOnlyOwnEntries: user files next to the cache, however
// large and old, and files inside it that do not have the entry layout
// are neither counted nor evicted.
func TestEvictionTouchesOnlyOwnEntries(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-24 * time.Hour)
	user := []string{
		filepath.Join(dir, "thesis.tex"),
		filepath.Join(dir, "ab", "ab"+strings.Repeat("0", 62)),
		filepath.Join(dir, "sub", "deep", "file"),
	}
	for _, p := range user {
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, make([]byte, 50_000), 0o600)
		os.Chtimes(p, old, old)
	}
	c := openCache(t, dir, time.Minute, 10_000)
	// Files in the cache's own directory that are not entries.
	odd := []string{
		filepath.Join(c.Dir(), "notes.txt"),
		filepath.Join(c.Dir(), "zz", "zz"+strings.Repeat("0", 62)),
		filepath.Join(c.Dir(), "ab", "cd"+strings.Repeat("0", 62)),
	}
	for _, p := range odd {
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, make([]byte, 50_000), 0o600)
		os.Chtimes(p, old, old)
	}
	for i := 0; i < 30; i++ {
		if err := c.Put(Key(fmt.Sprint(i)), &Entry{Header: http.Header{}, Body: make([]byte, 1000)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range append(user, odd...) {
		if fi, err := os.Stat(p); err != nil || fi.Size() != 50_000 {
			t.Fatalf("%s was touched: %v", p, err)
		}
	}
	if total := c.scan(nil); total > 10_000 || total == 0 {
		t.Fatalf("own entries hold %d bytes, bound 10000", total)
	}
}

func TestOpenRefusesUnsafeDirectories(t *testing.T) {
	shared := t.TempDir()
	os.Chmod(shared, 0o777)
	if _, err := Open(shared, 0, 0); err == nil || !strings.Contains(err.Error(), "writable by group or others") {
		t.Fatalf("group/world-writable directory: %v", err)
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, []byte("x"), 0o600)
	if _, err := Open(file, 0, 0); err == nil {
		t.Fatal("a file was accepted as cache directory")
	}
	foreign := t.TempDir()
	os.Mkdir(filepath.Join(foreign, Subdir), 0o700)
	os.WriteFile(filepath.Join(foreign, Subdir, "data"), []byte("x"), 0o600)
	if _, err := Open(foreign, 0, 0); err == nil || !strings.Contains(err.Error(), "marker") {
		t.Fatalf("a non-empty directory without the marker: %v", err)
	}
	forged := t.TempDir()
	os.Mkdir(filepath.Join(forged, Subdir), 0o700)
	os.WriteFile(filepath.Join(forged, Subdir, Marker), []byte("Signature: something else\n"), 0o600)
	if _, err := Open(forged, 0, 0); err == nil {
		t.Fatal("a directory with another marker was accepted")
	}
	open := t.TempDir()
	os.Mkdir(filepath.Join(open, Subdir), 0o755)
	os.Chmod(filepath.Join(open, Subdir), 0o755)
	if _, err := Open(open, 0, 0); err == nil {
		t.Fatal("a cache directory readable by others was accepted")
	}
	link := t.TempDir()
	os.Symlink(t.TempDir(), filepath.Join(link, Subdir))
	if _, err := Open(link, 0, 0); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a symlinked cache directory: %v", err)
	}
	// An empty one (a process stopped between mkdir and marker) is adopted,
	// and reopening a claimed directory works.
	empty := t.TempDir()
	os.Mkdir(filepath.Join(empty, Subdir), 0o700)
	for i := 0; i < 2; i++ {
		if _, err := Open(empty, 0, 0); err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
	}
}

// TestEntriesProveThemselves: an entry altered, truncated or moved to
// another key, or read with another secret, is a miss, and dropped.
func TestEntriesProveThemselves(t *testing.T) {
	c := openCache(t, t.TempDir(), time.Minute, 0)
	k1, k2 := Key("GET", "u1", "id"), Key("GET", "u2", "id")
	e := &Entry{Header: http.Header{"Etag": {`"e"`}}, Body: []byte(`[{"n":1}]`)}
	put := func(k string) {
		if err := c.Put(k, e); err != nil {
			t.Fatal(err)
		}
	}
	damage := []struct {
		name string
		f    func(k string)
	}{
		{"altered", func(k string) {
			b, _ := os.ReadFile(c.path(k))
			os.WriteFile(c.path(k), bytes.Replace(b, []byte(`"n":1`), []byte(`"n":2`), 1), 0o600)
		}},
		{"truncated", func(k string) {
			b, _ := os.ReadFile(c.path(k))
			os.WriteFile(c.path(k), b[:len(b)-3], 0o600)
		}},
		{"moved", func(k string) {
			put(k2)
			os.Rename(c.path(k2), c.path(k))
		}},
		{"another secret", func(string) { c.SetSecret([]byte("s")) }},
	}
	for i, d := range damage {
		c.SetSecret(nil)
		put(k1)
		if _, ok := c.Get(k1); !ok {
			t.Fatalf("%s: the intact entry is a miss", d.name)
		}
		d.f(k1)
		if _, ok := c.Get(k1); ok {
			t.Fatalf("%s: served", d.name)
		}
		if _, err := os.Stat(c.path(k1)); err == nil {
			t.Fatalf("%s: not dropped", d.name)
		}
		if c.Dropped() != int64(i+1) {
			t.Fatalf("%s: Dropped %d", d.name, c.Dropped())
		}
	}
}

// openCache opens the cache in dir (Open's arguments); an error fails the
// test.
func openCache(t *testing.T, dir string, ttl time.Duration, maxBytes int64) *Cache {
	t.Helper()
	c, err := Open(dir, ttl, maxBytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
