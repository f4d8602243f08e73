// Package sharedtest is the contract of client.SharedState, run against
// every backend (client.LocalState, providers/sharedstate/redisstate): one suite, so that
// the distributed backend behaves as the in-memory model does.
package sharedtest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/enginehq/engine/providers/client"
)

// Run runs the contract against the backends made by newState (a fresh,
// empty state each call).
func Run(t *testing.T, newState func(t *testing.T) client.SharedState) {
	ctx := context.Background()
	key := func(t *testing.T) string { return client.SharedKey(t.Name()) }
	adm := func(n int, length time.Duration, inflight int) client.Admission {
		return client.Admission{ID: fmt.Sprint(time.Now().UnixNano(), "-", seq.Add(1)), Bucket: "core",
			Windows: []client.SharedWindow{{Name: "points", N: n, Length: length}}, MaxInFlight: inflight, SlotTTL: time.Minute}
	}
	// admitted asks s to admit a under k; an error or a refusal fails the
	// test, saying what was asked.
	admitted := func(t *testing.T, s client.SharedState, k string, a client.Admission, what string) {
		t.Helper()
		if r, err := s.Admit(ctx, k, a); err != nil || !r.OK {
			t.Fatalf("%s: %+v, %v", what, r, err)
		}
	}
	// refused asks s to admit a under k and returns the answer; an error,
	// an admission or another reason than want fails the test.
	refused := func(t *testing.T, s client.SharedState, k string, a client.Admission, want, what string) client.Admit {
		t.Helper()
		r, err := s.Admit(ctx, k, a)
		if err != nil || r.OK || r.Reason != want {
			t.Fatalf("%s: %+v, %v; want a %s refusal", what, r, err, want)
		}
		return r
	}
	// holding admits under k a request that holds the one slot for ttl.
	holding := func(t *testing.T, s client.SharedState, k string, ttl time.Duration) client.Admission {
		t.Helper()
		a := adm(100, time.Minute, 1)
		a.SlotTTL = ttl
		admitted(t, s, k, a, "the one slot")
		return a
	}
	t.Run("window", func(t *testing.T) {
		s, k := newState(t), key(t)
		var held []client.Admission
		for i := 0; i < 3; i++ {
			a := adm(3, 400*time.Millisecond, 0)
			admitted(t, s, k, a, fmt.Sprint("admission ", i))
			held = append(held, a)
		}
		if r := refused(t, s, k, adm(3, 400*time.Millisecond, 0), "window", "a 4th request while 3 are in flight"); r.Wait != 0 {
			t.Fatalf("a 4th request while 3 are in flight: %+v; want no known wait", r)
		}
		if err := s.Release(ctx, k, held[0]); err != nil {
			t.Fatal(err)
		}
		r := refused(t, s, k, adm(3, 400*time.Millisecond, 0), "window", "a 4th request after one answer")
		if r.Wait <= 0 || r.Wait > 400*time.Millisecond {
			t.Fatalf("a 4th request after one answer: %+v; want a wait of at most the window's length", r)
		}
		time.Sleep(r.Wait + 30*time.Millisecond)
		admitted(t, s, k, adm(3, 400*time.Millisecond, 0), "once the answer left the window")
	})
	t.Run("slots", func(t *testing.T) {
		s, k := newState(t), key(t)
		a1, a2 := adm(100, time.Minute, 2), adm(100, time.Minute, 2)
		for _, a := range []client.Admission{a1, a2} {
			admitted(t, s, k, a, "admission")
		}
		refused(t, s, k, adm(100, time.Minute, 2), "slots", "a 3rd request in flight of 2")
		if err := s.Release(ctx, k, a1); err != nil {
			t.Fatal(err)
		}
		admitted(t, s, k, adm(100, time.Minute, 2), "after a release")
	})
	t.Run("slot expiry", func(t *testing.T) {
		s, k := newState(t), key(t)
		holding(t, s, k, 150*time.Millisecond)
		// Never released (a crashed process): the slot expires.
		time.Sleep(250 * time.Millisecond)
		admitted(t, s, k, adm(100, time.Minute, 1), "after the slot's expiry")
	})
	t.Run("lease renewed", func(t *testing.T) {
		s, k := newState(t), key(t)
		a := holding(t, s, k, 300*time.Millisecond)
		// A live process renews its lease: the slot outlives its first TTL.
		for i := 0; i < 4; i++ {
			time.Sleep(100 * time.Millisecond)
			must(t, s.Renew(ctx, k, []client.Admission{a}))
		}
		refused(t, s, k, adm(100, time.Minute, 1), "slots", "a slot renewed past its first lease")
		// Its process dies: no more renewals, the slot lapses.
		time.Sleep(400 * time.Millisecond)
		admitted(t, s, k, adm(100, time.Minute, 1), "after the lease lapsed")
		// Renewing a released admission takes nothing back.
		b := adm(100, time.Minute, 0)
		admitted(t, s, k, b, "admission")
		must(t, s.Release(ctx, k, b))
		must(t, s.Renew(ctx, k, []client.Admission{b}))
	})
	t.Run("reserve", func(t *testing.T) {
		s, k := newState(t), key(t)
		w := client.SharedWindow{Name: "points", N: 10, Length: time.Minute}
		res := func(stmt string, n int) client.Reserved {
			t.Helper()
			r, err := s.Reserve(ctx, k, client.Reservation{Stmt: stmt, N: n, Window: w, Left: 5 * time.Second, TTL: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		if r := res("a", 8); !r.OK {
			t.Fatalf("8 requests of an empty window of 10: %+v", r)
		}
		r := res("b", 8)
		if r.OK || r.Ahead != 8 || r.Wait < 5*time.Second {
			t.Fatalf("8 more while 8 are reserved, 5 s left: %+v; want refused, 8 ahead", r)
		}
		if r := res("c", 2); !r.OK {
			t.Fatalf("2 more, which fit: %+v", r)
		}
		// An admission takes one request off its statement's reservation.
		a := adm(10, time.Minute, 0)
		a.Stmt = "a"
		admitted(t, s, k, a, "admission")
		must(t, s.Unreserve(ctx, k, "a"))
		must(t, s.Unreserve(ctx, k, "c"))
		if r := res("b", 8); !r.OK {
			t.Fatalf("8 once the others ended (1 in flight): %+v", r)
		}
	})
	t.Run("pause bounded", func(t *testing.T) {
		s, k := newState(t), key(t)
		if d, err := s.Paused(ctx, k); err != nil || d != 0 {
			t.Fatalf("no pause: %s, %v", d, err)
		}
		must(t, s.Pause(ctx, k, 30*24*time.Hour))
		d, err := s.Paused(ctx, k)
		if err != nil || d <= client.MaxSharedPause-time.Minute || d > client.MaxSharedPause {
			t.Fatalf("a pause of 30 days: %s, %v; want it bounded by %s", d, err, client.MaxSharedPause)
		}
		if r := refused(t, s, k, adm(100, time.Minute, 0), "paused", "during a long pause"); r.Wait > client.MaxSharedPause {
			t.Fatalf("during a long pause: %+v; want a wait of at most %s", r, client.MaxSharedPause)
		}
	})
	t.Run("pause", func(t *testing.T) {
		s, k := newState(t), key(t)
		if err := s.Pause(ctx, k, 300*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if err := s.Pause(ctx, k, 10*time.Millisecond); err != nil { // a shorter one keeps the longer
			t.Fatal(err)
		}
		r := refused(t, s, k, adm(100, time.Minute, 0), "paused", "during a pause")
		if r.Wait < 150*time.Millisecond || r.Wait > 300*time.Millisecond {
			t.Fatalf("during a pause: %+v; want a wait of 150 to 300 ms", r)
		}
		time.Sleep(r.Wait + 20*time.Millisecond)
		admitted(t, s, k, adm(100, time.Minute, 0), "after the pause")
	})
	t.Run("buckets", func(t *testing.T) {
		s, k := newState(t), key(t)
		reset := time.Now().Add(time.Hour).Truncate(time.Second)
		if _, ok, err := s.Bucket(ctx, k, "core"); err != nil || ok {
			t.Fatalf("unknown bucket: ok %v, %v", ok, err)
		}
		must(t, s.RecordBucket(ctx, k, client.Bucket{Name: "core", Limit: 5000, Remaining: 40, Used: 4960, Reset: reset}))
		must(t, s.RecordBucket(ctx, k, client.Bucket{Name: "core", Limit: 5000, Remaining: 70, Used: 4930, Reset: reset}))
		b, ok, err := s.Bucket(ctx, k, "core")
		if err != nil || !ok || b.Remaining != 40 || b.Limit != 5000 || !b.Reset.Equal(reset) {
			t.Fatalf("bucket: %+v ok %v, %v; want remaining 40 (the smallest within one reset)", b, ok, err)
		}
		must(t, s.RecordBucket(ctx, k, client.Bucket{Name: "search", Limit: 30, Remaining: 0, Reset: time.Now().Add(300 * time.Millisecond)}))
		a := adm(100, time.Minute, 0)
		a.Bucket = "search"
		if r := refused(t, s, k, a, "spent", "a spent bucket"); r.Wait <= 0 {
			t.Fatalf("a spent bucket: %+v; want a wait", r)
		}
		admitted(t, s, k, adm(100, time.Minute, 0), "another bucket is not held")
		must(t, s.RecordBucket(ctx, k, client.Bucket{Name: "old", Limit: 30, Remaining: 3, Reset: time.Now().Add(-time.Second)}))
		if _, ok, err := s.Bucket(ctx, k, "old"); err != nil || ok {
			t.Fatalf("a bucket past its reset: ok %v, %v", ok, err)
		}
	})
	t.Run("credentials apart", func(t *testing.T) {
		s := newState(t)
		k1, k2 := client.SharedKey(t.Name()+"1"), client.SharedKey(t.Name()+"2")
		must(t, s.Pause(ctx, k1, time.Minute))
		admitted(t, s, k2, adm(1, time.Minute, 1), "another credential")
	})
	t.Run("atomic", func(t *testing.T) {
		s, k := newState(t), key(t)
		var ok atomic.Int32
		var wg sync.WaitGroup
		for i := 0; i < 40; i++ {
			wg.Go(func() {
				if r, err := s.Admit(ctx, k, adm(10, time.Minute, 0)); err == nil && r.OK {
					ok.Add(1)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 10 {
			t.Fatalf("40 concurrent requests in a window of 10: %d admitted", ok.Load())
		}
	})
}

var seq atomic.Int64

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
