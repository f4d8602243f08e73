package redisstate_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/enginehq/engine/test/testutil"
)

// TestBlobsBounded: values come back, and the namespace holds at most its
// bound, the least recently used going first.
func TestBlobsBounded(t *testing.T) {
	r := testutil.StartRedis(t)
	s := open(t, r)
	ctx := context.Background()
	b := s.Blobs("t", 1000, time.Minute)
	val := bytes.Repeat([]byte("x"), 300)
	for i := 0; i < 3; i++ {
		if err := b.Put(ctx, fmt.Sprint("k", i), val); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, err := b.Get(ctx, "k0"); err != nil || !ok { // k0 is now the most recent
		t.Fatalf("k0: ok %v, %v", ok, err)
	}
	if err := b.Put(ctx, "k3", val); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for i := 0; i < 4; i++ {
		_, ok, err := b.Get(ctx, fmt.Sprint("k", i))
		if err != nil {
			t.Fatal(err)
		}
		got[fmt.Sprint("k", i)] = ok
	}
	if !got["k0"] || got["k1"] || !got["k2"] || !got["k3"] {
		t.Fatalf("after a 4th value of 300 bytes in 1000: %v; want k1 (least recently used) evicted", got)
	}
	if err := b.Put(ctx, "big", bytes.Repeat([]byte("x"), 1001)); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := b.Get(ctx, "big"); ok {
		t.Fatal("a value over the bound was stored")
	}
}
