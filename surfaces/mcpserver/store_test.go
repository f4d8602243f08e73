package mcpserver_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/surfaces/mcpserver"
)

func TestStoreBounds(t *testing.T) {
	now := time.Unix(1000, 0)
	st, err := mcpserver.OpenStore(mcpserver.StoreOptions{MaxResults: 3, MaxBytes: 200, TTL: time.Minute, Now: func() time.Time { return now }})
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
	if _, err := st.Info(ctx, b, ""); !errors.Is(err, mcpserver.ErrUnknownResult) {
		t.Fatalf("LRU victim still kept: %v", err)
	}
	if _, err := st.Info(ctx, a, ""); err != nil {
		t.Fatalf("recently used result evicted: %v", err)
	}
	if _, kept, _ := st.Put(ctx, res(50)); kept {
		t.Fatal("a result over MaxBytes was kept")
	}
	now = now.Add(2 * time.Minute)
	if _, err := st.Info(ctx, a, ""); !errors.Is(err, mcpserver.ErrUnknownResult) {
		t.Fatalf("expired result served: %v", err)
	}
}

// TestStoreOwner: a result kept for one owner is unknown to any other.
func TestStoreOwner(t *testing.T) {
	st, err := mcpserver.OpenStore(mcpserver.StoreOptions{})
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
		if _, err := st.Info(ctx, id, other); !errors.Is(err, mcpserver.ErrUnknownResult) {
			t.Errorf("owner %q: %v, want ErrUnknownResult", other, err)
		}
	}
}
