package httpcache

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestPutGetFreshAndTouch(t *testing.T) {
	c, err := Open(t.TempDir(), time.Minute, 0)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	c.nowFunc = func() time.Time { return now }
	k := Key("GET", "https://api.github.com/orgs/acme/repos", "identity")
	if _, ok := c.Get(k); ok {
		t.Fatal("hit on an empty cache")
	}
	h := http.Header{"Etag": {`"abc"`}, "Link": {`<x>; rel="next"`}}
	if err := c.Put(k, h, []byte(`[{"id":1}]`)); err != nil {
		t.Fatal(err)
	}
	e, ok := c.Get(k)
	if !ok || string(e.Body) != `[{"id":1}]` || e.Header.Get("Etag") != `"abc"` || e.Header.Get("Link") == "" {
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
	fi, _ := os.Stat(filepath.Join(c.dir, k[:2], k))
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
	c, err := Open(t.TempDir(), time.Minute, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	body := make([]byte, 1000)
	for i := 0; i < 50; i++ {
		if err := c.Put(Key(fmt.Sprint(i)), http.Header{}, body); err != nil {
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
	a, _ := Open(dir, time.Minute, 0)
	b, _ := Open(dir, time.Minute, 0)
	k := Key("same")
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = 'x'
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() { defer wg.Done(); a.Put(k, http.Header{}, big) }()
		go func() {
			defer wg.Done()
			if e, ok := b.Get(k); ok && len(e.Body) != len(big) {
				t.Errorf("read a partial entry: %d bytes", len(e.Body))
			}
		}()
	}
	wg.Wait()
}
