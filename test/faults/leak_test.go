package faults

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/test/fakegithub"
)

// arrivals wraps the fake's handler and reports each request for a page
// that is faulted, so that the test cancels exactly while it is in flight.
func arrivals(fake *fakegithub.Server, page string) (*httptest.Server, <-chan struct{}) {
	ch := make(chan struct{}, 16)
	h := fake.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Query().Get("page"); p == page || (p == "" && page == "1") {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
		h.ServeHTTP(w, r)
	}))
	return srv, ch
}

// settle waits until the goroutine count is back at or below base, and
// reports the stacks when it is not.
func settle(t *testing.T, base int, closeIdle func()) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		closeIdle()
		n := runtime.NumGoroutine()
		if n <= base {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("%d goroutines, %d before the query: leaked\n%s", n, base, bytes.TrimSpace(buf))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCancelledQueryLeavesNoGoroutines cancels in-process queries while a
// request hangs (on page 1, and on the last page while pages are fetched
// concurrently) and while SQLite runs a recursive CTE: Query returns at
// once with a timeout-kind error, and every goroutine it started is gone.
func TestCancelledQueryLeavesNoGoroutines(t *testing.T) {
	fake := fakegithub.NewUnstarted()
	cases := []struct {
		name, page, sql string
		slow            bool
	}{
		{"slow page 1", "1", query, true},
		{"slow last page", "3", query, true},
		{"sqlite recursive CTE", "", `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c, github.repos.repos r WHERE r.org = 'tiny'`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, arrived := arrivals(fake, c.page)
			defer srv.Close()
			eng, err := engine.New(engine.Options{
				BaseURLs: map[string]string{"github": srv.URL},
				Getenv:   func(k string) string { return map[string]string{"GITHUB_TOKEN": token}[k] },
				Client:   client.Options{RetryMax: -1, RequestTimeout: time.Minute},
			})
			if err != nil {
				t.Fatal(err)
			}
			hc, err := eng.Client("github")
			if err != nil {
				t.Fatal(err)
			}
			closeIdle := func() {
				hc.CloseIdleConnections()
				srv.CloseClientConnections()
			}
			// A complete query first, so that lazily started state
			// (clients, pools, the SQL driver) is part of the baseline.
			if res, err := eng.Query(context.Background(), query, engine.QueryOptions{}); err != nil || len(res.Rows) != wantRows {
				t.Fatalf("warm-up: %v", err)
			}
			closeIdle()
			base := runtime.NumGoroutine()

			fake.ClearFaults()
			defer fake.ClearFaults()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.slow {
				page, _ := strconv.Atoi(c.page)
				fake.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Page: page, Kind: fakegithub.KindSlow, Delay: time.Minute})
				go func() {
					select {
					case <-arrived:
						cancel()
					case <-ctx.Done():
					}
				}()
			} else {
				ctx, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
				defer cancel()
			}
			start := time.Now()
			_, err = eng.Query(ctx, c.sql, engine.QueryOptions{})
			took := time.Since(start)
			want := engine.KindTimeout // the deadline ran out
			if c.slow {
				want = engine.KindCancelled // the caller cancelled
			}
			var ee *engine.Error
			if !errors.As(err, &ee) || ee.Kind != want {
				t.Fatalf("cancelled query: %v (%T), want a %s-kind error", err, err, want)
			}
			if took > 3*time.Second {
				t.Fatalf("the cancelled query took %v to return", took)
			}
			settle(t, base, closeIdle)
		})
	}
}
