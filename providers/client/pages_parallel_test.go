package client

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The pages of every call of a client share one budget of requests in
// flight or waiting to be emitted (PageConcurrency): two calls at once
// never hold more; a call that fails gives its slots back, so the next
// call gets the whole budget again; and pages are still emitted in order.
func TestPageBudgetSharedAndReleased(t *testing.T) {
	var hits, inflight, most atomic.Int32
	var failPage5 atomic.Bool
	h := pagedHandler(12, 2, false, &hits)
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "" {
			h(w, r)
			return
		}
		n := inflight.Add(1)
		defer inflight.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
		if failPage5.Load() && r.URL.Query().Get("page") == "5" {
			http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
			return
		}
		h(w, r)
	}))
	c := newTestClient(t, srv, func(o *Options) { o.PageConcurrency = 3 })

	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			items, _, err := collect(t, c, orgCall())
			if err != nil || len(items) != 24 {
				t.Errorf("%d items, %v; want 24", len(items), err)
			}
		})
	}
	wg.Wait()
	if m := most.Load(); m > 3 || m < 2 {
		t.Fatalf("%d page requests in flight at most across two calls, want at most the budget of 3 (and more than 1)", m)
	}

	failPage5.Store(true)
	if _, _, err := collect(t, c, orgCall()); err == nil {
		t.Fatal("no error for a 404 on page 5")
	}
	if n := len(c.pageSlots); n != 0 {
		t.Fatalf("%d page slots still held after the failed call", n)
	}
	failPage5.Store(false)
	items, _, err := collect(t, c, orgCall())
	if err != nil || len(items) != 24 {
		t.Fatalf("%d items, %v after a failed call; want 24", len(items), err)
	}
	for i, it := range items {
		if p, j := pageOf(t, it); p != i/2+1 || j != i%2 {
			t.Fatalf("item %d is page %d #%d: out of order", i, p, j)
		}
	}
}
