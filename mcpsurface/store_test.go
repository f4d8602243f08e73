package mcpsurface_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/mcpsurface"
	"github.com/enginehq/engine/test/testutil"
)

func TestStoreBounds(t *testing.T) {
	now := time.Unix(1000, 0)
	st, err := mcpsurface.OpenStore(mcpsurface.StoreOptions{MaxResults: 3, MaxBytes: 200, TTL: time.Minute, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	res := func(n int) *result.Result {
		r := &result.Result{Columns: []result.Column{{Name: "i", Type: result.TypeInteger}, {Name: "f", Type: result.TypeReal}, {Name: "s", Type: result.TypeText}, {Name: "b", Type: result.TypeBoolean}}}
		for i := 0; i < n; i++ {
			r.Rows = append(r.Rows, []any{int64(i), 2.0, "x", true})
		}
		return r
	}
	put := func(n int) string {
		id, kept, err := st.Put(ctx, res(n))
		if err != nil || !kept {
			t.Fatalf("put: %v kept %t", err, kept)
		}
		now = now.Add(time.Second)
		return id
	}
	a, b := put(1), put(1)
	k, err := st.Info(ctx, a, "") // a is now the most recently used
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Rows(ctx, k, 0, -1)
	if err != nil || len(rows) != 1 || rows[0][0] != int64(0) || rows[0][1] != 2.0 || rows[0][2] != "x" || rows[0][3] != true {
		t.Fatalf("round trip: %#v %v", rows, err)
	}
	put(1)
	put(1) // 4 > MaxResults: b (least recently used) goes
	if _, err := st.Info(ctx, b, ""); !errors.Is(err, mcpsurface.ErrUnknownResult) {
		t.Fatalf("LRU victim still kept: %v", err)
	}
	if _, err := st.Info(ctx, a, ""); err != nil {
		t.Fatalf("recently used result evicted: %v", err)
	}
	if _, kept, _ := st.Put(ctx, res(50)); kept {
		t.Fatal("a result over MaxBytes was kept")
	}
	now = now.Add(2 * time.Minute)
	if _, err := st.Info(ctx, a, ""); !errors.Is(err, mcpsurface.ErrUnknownResult) {
		t.Fatalf("expired result served: %v", err)
	}
}

// TestStoreOwner: a result kept for one owner is unknown to any other.
func TestStoreOwner(t *testing.T) {
	st, err := mcpsurface.OpenStore(mcpsurface.StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	sp, err := st.NewSpool()
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	sp.Owner = "token:alice"
	sp.Add([]any{int64(1)})
	id, kept, err := st.Keep(ctx, sp, []result.Column{{Name: "i", Type: result.TypeInteger}})
	if err != nil || !kept {
		t.Fatalf("keep: %v %t", err, kept)
	}
	if k, err := st.Info(ctx, id, "token:alice"); err != nil || k.RowCount != 1 {
		t.Fatalf("the owner: %+v %v", k, err)
	}
	for _, other := range []string{"", "token:bob", "oauth:alice"} {
		if _, err := st.Info(ctx, id, other); !errors.Is(err, mcpsurface.ErrUnknownResult) {
			t.Errorf("owner %q: %v, want ErrUnknownResult", other, err)
		}
	}
}

// TestStoreShared: a result kept by one store (replica) is read by another
// through the shared results, with its types; a failing shared store is
// said once.
func TestStoreShared(t *testing.T) {
	sh := testutil.NewMapBlobs()
	var warned []string
	open := func() *mcpsurface.Store {
		st, err := mcpsurface.OpenStore(mcpsurface.StoreOptions{TTL: time.Minute, Shared: sh, Warnf: func(f string, a ...any) { warned = append(warned, fmt.Sprintf(f, a...)) }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	one, two := open(), open()
	ctx := context.Background()
	r := &result.Result{Columns: []result.Column{{Name: "i", Type: result.TypeInteger}, {Name: "f", Type: result.TypeReal}, {Name: "s", Type: result.TypeText}}}
	for i := 0; i < 10; i++ {
		r.Rows = append(r.Rows, []any{int64(i), 1.5, "x\ny"})
	}
	id, kept, err := one.Put(ctx, r)
	if err != nil || !kept {
		t.Fatal(err)
	}
	k, err := two.Info(ctx, id, "")
	if err != nil || k.RowCount != 10 {
		t.Fatalf("the other replica: %+v, %v", k, err)
	}
	rows, err := two.Rows(ctx, k, 8, 5)
	if err != nil || len(rows) != 2 || rows[0][0] != int64(8) || rows[0][1] != 1.5 || rows[0][2] != "x\ny" {
		t.Fatalf("rows on the other replica: %#v, %v", rows, err)
	}
	// A result kept for a principal is that principal's on every replica.
	sp, err := one.NewSpool()
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	sp.Owner = "token:alice"
	sp.Add([]any{int64(1), 2.5, "z"})
	aliceID, kept, err := one.Keep(ctx, sp, r.Columns)
	if err != nil || !kept {
		t.Fatalf("keep for alice: %v %t", err, kept)
	}
	if _, err := two.Info(ctx, aliceID, "token:bob"); !errors.Is(err, mcpsurface.ErrUnknownResult) {
		t.Fatalf("bob on the other replica: %v, want ErrUnknownResult", err)
	}
	if k, err := two.Info(ctx, aliceID, "token:alice"); err != nil || k.RowCount != 1 {
		t.Fatalf("alice on the other replica: %+v, %v", k, err)
	}
	sh.SetFail(true)
	if _, err := two.Info(ctx, "0123456789abcdef01", ""); !errors.Is(err, mcpsurface.ErrUnknownResult) {
		t.Fatalf("an unknown id while the shared store is down: %v", err)
	}
	if _, kept, err := one.Put(ctx, r); err != nil || !kept {
		t.Fatalf("keeping while the shared store is down: %v", err)
	}
	if len(warned) != 2 || !strings.Contains(warned[0], "unavailable") {
		t.Fatalf("warnings %q; want one per replica", warned)
	}
}

// TestStoreFairEviction: when the store is full, a result the client saw
// whole goes first, then one of the session holding the most results,
// never the page another session is reading.
func TestStoreFairEviction(t *testing.T) {
	now := time.Unix(1000, 0)
	st, err := mcpsurface.OpenStore(mcpsurface.StoreOptions{MaxResults: 4, TTL: time.Hour, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	keep := func(session string) string {
		sp, err := st.NewSpool()
		if err != nil {
			t.Fatal(err)
		}
		defer sp.Close()
		sp.Session = session
		sp.Add([]any{int64(1)})
		id, kept, err := st.Keep(ctx, sp, []result.Column{{Name: "i", Type: result.TypeInteger}})
		if err != nil || !kept {
			t.Fatalf("keep: %v %t", err, kept)
		}
		now = now.Add(time.Second)
		return id
	}
	reader := keep("a")
	whole := keep("b")
	if err := st.MarkWhole(ctx, whole); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		keep("b")
	}
	if _, err := st.Info(ctx, whole, ""); !errors.Is(err, mcpsurface.ErrUnknownResult) {
		t.Fatalf("the result seen whole was kept: %v", err)
	}
	if _, err := st.Info(ctx, reader, ""); err != nil {
		t.Fatalf("another session's 7 results evicted the reader's page (the oldest): %v", err)
	}
}

// TestStoreSharedChunks: a shared result is written and read in chunks of
// at most SharedChunkBytes (never whole in memory); a chunk the store
// evicted makes the result unknown on another replica, not partial.
func TestStoreSharedChunks(t *testing.T) {
	sh := testutil.NewMapBlobs()
	open := func() *mcpsurface.Store {
		st, err := mcpsurface.OpenStore(mcpsurface.StoreOptions{TTL: time.Minute, Shared: sh})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	one := open()
	ctx := context.Background()
	r := &result.Result{Columns: []result.Column{{Name: "i", Type: result.TypeInteger}, {Name: "s", Type: result.TypeText}}}
	for i := 0; i < 2500; i++ {
		r.Rows = append(r.Rows, []any{int64(i), strings.Repeat("x", 1000)})
	}
	id, kept, err := one.Put(ctx, r)
	if err != nil || !kept {
		t.Fatal(err)
	}
	chunks := 0
	for k, n := range sh.Sizes() {
		if strings.HasPrefix(k, id+".") {
			chunks++
			if n > mcpsurface.SharedChunkBytes {
				t.Fatalf("chunk %s of %d bytes", k, n)
			}
		}
	}
	if chunks < 3 {
		t.Fatalf("%d chunks for a 2.5 MB result; want at least 3", chunks)
	}
	two := open()
	k, err := two.Info(ctx, id, "")
	if err != nil || k.RowCount != 2500 {
		t.Fatalf("another replica: %+v, %v", k, err)
	}
	if rows, err := two.Rows(ctx, k, 2400, 1); err != nil || len(rows) != 1 || rows[0][0] != int64(2400) || len(rows[0][1].(string)) != 1000 {
		t.Fatalf("row 2400 on another replica: %v", err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(sh.Delete(ctx, id+".1"))
	if _, err := open().Info(ctx, id, ""); !errors.Is(err, mcpsurface.ErrUnknownResult) {
		t.Fatalf("a result missing a chunk: %v, want ErrUnknownResult", err)
	}
}
