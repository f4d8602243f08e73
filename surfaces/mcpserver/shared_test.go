package mcpserver_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/surfaces/mcpserver"
)

type mapResults struct {
	mu   sync.Mutex
	m    map[string][]byte
	fail bool
}

func (s *mapResults) Get(_ context.Context, id string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return nil, false, errors.New("down")
	}
	v, ok := s.m[id]
	return v, ok, nil
}

func (s *mapResults) Put(_ context.Context, id string, v []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		return errors.New("down")
	}
	s.m[id] = v
	return nil
}

// TestStoreShared: a result kept by one store (replica) is read by another
// through the shared results, with its types; a failing shared store is
// said once.
func TestStoreShared(t *testing.T) {
	sh := &mapResults{m: map[string][]byte{}}
	var warned []string
	open := func() *mcpserver.Store {
		st, err := mcpserver.OpenStore(mcpserver.StoreOptions{TTL: time.Minute, Shared: sh, Warnf: func(f string, a ...any) { warned = append(warned, fmt.Sprintf(f, a...)) }})
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
	if _, err := two.Info(ctx, aliceID, "token:bob"); !errors.Is(err, mcpserver.ErrUnknownResult) {
		t.Fatalf("bob on the other replica: %v, want ErrUnknownResult", err)
	}
	if k, err := two.Info(ctx, aliceID, "token:alice"); err != nil || k.RowCount != 1 {
		t.Fatalf("alice on the other replica: %+v, %v", k, err)
	}
	sh.fail = true
	if _, err := two.Info(ctx, "0123456789abcdef01", ""); !errors.Is(err, mcpserver.ErrUnknownResult) {
		t.Fatalf("an unknown id while the shared store is down: %v", err)
	}
	if _, kept, err := one.Put(ctx, r); err != nil || !kept {
		t.Fatalf("keeping while the shared store is down: %v", err)
	}
	if len(warned) != 2 || !strings.Contains(warned[0], "unavailable") {
		t.Fatalf("warnings %q; want one per replica", warned)
	}
}
