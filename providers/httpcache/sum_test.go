package httpcache

import (
	"bytes"
	"net/http"
	"os"
	"testing"
	"time"
)

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
