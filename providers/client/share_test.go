package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitWaiters waits (no time assertion: a bound only against a hang)
// until n askers wait for a request of c in flight.
func waitWaiters(t *testing.T, c *Client, n int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); c.waiting.Load() < int64(n); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d askers waiting, want %d", c.waiting.Load(), n)
		}
	}
}

// gateHandler answers /orgs/acme/repos with one item, or status when not
// 200, once release is closed; it counts the requests it received.
func gateHandler(hits *atomic.Int32, arrived chan<- struct{}, release <-chan struct{}, status int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if arrived != nil {
			select {
			case arrived <- struct{}{}:
			default:
			}
		}
		if release != nil {
			<-release
		}
		w.Header().Set("Content-Type", "application/json")
		if status != http.StatusOK {
			w.WriteHeader(status)
			w.Write([]byte(`{"message":"Not Found"}`))
			return
		}
		w.Write([]byte(`[{"id":1}]`))
	}
}

// gatedClient is a test client of a server of gateHandler, and the
// server's count of requests.
func gatedClient(t *testing.T, arrived chan<- struct{}, release <-chan struct{}, status int) (*Client, *atomic.Int32) {
	t.Helper()
	hits := new(atomic.Int32)
	return newTestClient(t, serve(t, gateHandler(hits, arrived, release, status)), nil), hits
}

// callAsync makes orgCall on c in a goroutine; its error comes on the
// channel.
func callAsync(ctx context.Context, c *Client) <-chan error {
	done := make(chan error, 1)
	go func() { _, _, err := doCall(ctx, c, orgCall()); done <- err }()
	return done
}

func doCall(ctx context.Context, c *Client, call Call) (int, Stats, error) {
	n := 0
	st, err := c.Do(ctx, call, func(items []json.RawMessage) error { n += len(items); return nil })
	return n, st, err
}

// Concurrent identical GETs are sent once; the others read its answer
// and count it as shared.
func TestShareInFlight(t *testing.T) {
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	c, hits := gatedClient(t, arrived, release, http.StatusOK)
	const n = 5
	var wg sync.WaitGroup
	var shared, items atomic.Int32
	lead := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i > 0 {
				<-lead
			}
			got, st, err := doCall(context.Background(), c, orgCall())
			if err != nil {
				t.Error(err)
			}
			items.Add(int32(got))
			shared.Add(int32(st.Shared))
		}(i)
		if i == 0 {
			<-arrived // the first request is at the server
			close(lead)
		}
	}
	// Every asker joined before the answer: wait until the others wait.
	waitWaiters(t, c, n-1)
	close(release)
	wg.Wait()
	if hits.Load() != 1 || shared.Load() != n-1 || items.Load() != n {
		t.Fatalf("requests %d (want 1), shared %d (want %d), items %d (want %d)", hits.Load(), shared.Load(), n-1, items.Load(), n)
	}
	if c.Totals().Shared != n-1 {
		t.Errorf("totals: %+v", c.Totals())
	}
}

// Within a run an answer is kept: a later identical GET sends nothing;
// outside the run (or after it closes) it is sent again.
func TestShareWithinRun(t *testing.T) {
	c, hits := gatedClient(t, nil, nil, http.StatusOK)
	ctx, end := OpenRun(context.Background())
	for i := 0; i < 3; i++ {
		if _, _, err := doCall(ctx, c, orgCall()); err != nil {
			t.Fatal(err)
		}
	}
	if hits.Load() != 1 {
		t.Fatalf("within a run: %d requests, want 1", hits.Load())
	}
	// An inner OpenRun keeps the outer run.
	inner, endInner := OpenRun(ctx)
	endInner()
	if _, st, _ := doCall(inner, c, orgCall()); st.Shared != 1 || st.Requests != 0 {
		t.Fatalf("inner run: %+v", st)
	}
	end()
	if _, _, err := doCall(ctx, c, orgCall()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := doCall(context.Background(), c, orgCall()); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 3 {
		t.Fatalf("after the run: %d requests, want 3", hits.Load())
	}
}

// An error answer is shared as the same error.
func TestShareErrorWithinRun(t *testing.T) {
	c, hits := gatedClient(t, nil, nil, http.StatusNotFound)
	ctx, end := OpenRun(context.Background())
	defer end()
	_, _, err1 := doCall(ctx, c, orgCall())
	_, st, err2 := doCall(ctx, c, orgCall())
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Fatalf("errors %v / %v", err1, err2)
	}
	if pe := asProviderError(t, err2); pe.Status != http.StatusNotFound {
		t.Fatalf("status %d", pe.Status)
	}
	if hits.Load() != 1 || st.Requests != 0 {
		t.Fatalf("requests %d, stats %+v", hits.Load(), st)
	}
}

// The leader's own end (its context cancelled) is not the URL's: a
// waiter asks again itself, and the run keeps nothing of it.
func TestShareLeaderCancelled(t *testing.T) {
	var hits atomic.Int32
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	var once sync.Once
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			arrived <- struct{}{}
			<-r.Context().Done() // the leader gives up
			return
		}
		once.Do(func() { close(release) })
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"id":1}]`))
	}))
	c := newTestClient(t, srv, nil)
	run, end := OpenRun(context.Background())
	defer end()
	leadCtx, cancel := context.WithCancel(run)
	leadErr := callAsync(leadCtx, c)
	<-arrived
	waitErr := make(chan error, 1)
	var got int
	go func() {
		var err error
		got, _, err = doCall(run, c, orgCall())
		waitErr <- err
	}()
	waitWaiters(t, c, 1)
	cancel()
	if err := <-leadErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("leader: %v", err)
	}
	if err := <-waitErr; err != nil || got != 1 {
		t.Fatalf("waiter: %v, %d items", err, got)
	}
	if hits.Load() != 2 {
		t.Fatalf("requests %d, want 2", hits.Load())
	}
}

// A request in flight since before the run opened is not joined by it.
func TestShareRunNotOlderThanItself(t *testing.T) {
	arrived, release := make(chan struct{}, 2), make(chan struct{})
	c, hits := gatedClient(t, arrived, release, http.StatusOK)
	first := callAsync(context.Background(), c)
	<-arrived
	ctx, end := OpenRun(context.Background())
	defer end()
	second := callAsync(ctx, c)
	<-arrived // sent, not joined
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 2 {
		t.Fatalf("requests %d, want 2", hits.Load())
	}
}
