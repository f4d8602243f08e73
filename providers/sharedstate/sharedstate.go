// Package sharedstate is what every user of the state that processes
// share (--state: the governor's windows, the response cache, MCP kept
// results) does alike: it bounds each call (Context) and says once when
// the state fails and once when it answers again (Health), as
// docs/orgscale.md ("When Redis is down") describes. The stores
// themselves are providers/sharedstate/redisstate's; this package knows none of them.
package sharedstate

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/enginehq/engine/providers"
)

// Blobs is a store of values by key that processes share, bounded in
// bytes and age by the store itself (providers/sharedstate/redisstate's Blobs): the
// response cache's entries (httpcache.Shared) and the MCP server's kept
// results (mcpsurface.SharedResults).
type Blobs interface {
	// Get returns the value of key; ok is false when there is none.
	Get(ctx context.Context, key string) (data []byte, ok bool, err error)
	// Put stores data as the value of key.
	Put(ctx context.Context, key string, data []byte) error
}

// Context bounds one call to the shared state that moves n bytes:
// Bound(), plus 1 ms per 50 kB.
func Context(parent context.Context, n int64) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, Bound()+time.Duration(n/50_000)*time.Millisecond)
}

// The per-call bound adapts to the server: a busy but healthy Redis (20
// processes on 2 cores) answers in hundreds of milliseconds, and a fixed
// bound of a second would push a process out of the shared governor
// while the server is up. The bound is the base (--state-timeout,
// providers.SharedStateTimeout by default), or 4 times the slowest recent
// answer when that is more, at most MaxBoundFactor times the base. Only
// answers raise it: a frozen server, which answers nothing, is given up
// after the base bound.
var latency struct {
	mu   sync.Mutex
	base time.Duration
	slow time.Duration // the slowest recent answer, decaying
}

// MaxBoundFactor bounds the adaptive bound: at most this many times the
// base.
const MaxBoundFactor = 10

// SetTimeout sets the base bound of a call (<= 0: the default).
func SetTimeout(d time.Duration) {
	latency.mu.Lock()
	defer latency.mu.Unlock()
	latency.base = d
}

func baseLocked() time.Duration {
	if latency.base <= 0 {
		return providers.SharedStateTimeout
	}
	return latency.base
}

// MaxBound is the most Bound can be.
func MaxBound() time.Duration {
	latency.mu.Lock()
	defer latency.mu.Unlock()
	return MaxBoundFactor * baseLocked()
}

// Bound is the current bound of one call.
func Bound() time.Duration {
	latency.mu.Lock()
	defer latency.mu.Unlock()
	base := baseLocked()
	return min(max(base, 4*latency.slow), MaxBoundFactor*base)
}

// Observe records how long a call that the server answered took.
func Observe(d time.Duration) {
	latency.mu.Lock()
	defer latency.mu.Unlock()
	if d >= latency.slow {
		latency.slow = d
	} else {
		latency.slow -= (latency.slow - d) / 16
	}
}

// Churn counts, for the whole process, how often a user of the shared
// state left it (a call failed while it was up) and rejoined it. Each
// Health says its first leave and first return; the later ones are only
// counted, and said once at the end (Summary).
var churn struct{ leaves, rejoins atomic.Int64 }

// Summary says how often the process left the shared state and rejoined
// it, when it left more than once ("" otherwise: the warnings said it).
func Summary() string {
	leaves := churn.leaves.Load()
	if leaves <= 1 {
		return ""
	}
	return fmt.Sprintf("this process left the shared state %d times (a call failed or passed its bound, now %s) and rejoined it %d times; a busy server may need a larger --state-timeout", leaves, Bound().Round(time.Millisecond), churn.rejoins.Load())
}

// Health tracks whether the shared state answers. Its first failure is
// said ("NAME unavailable (ERR): ALONE"), and so is the first success
// of a call that started after the last failure ("NAME reachable
// again", then ": BACK" when Back is set); a call that started before
// may have been answered just before the failure. Safe for concurrent
// use.
type Health struct {
	Name  string                           // what is shared, e.g. "shared response cache"
	Alone string                           // what the process does while it fails
	Back  string                           // what it does again once it answers (may be empty)
	Warnf func(format string, args ...any) // where it is said (nil: nowhere)

	mu      sync.Mutex
	down    bool
	failAt  time.Time
	leaves  int
	rejoins int
}

// Do runs f, one call to the shared state that moves n bytes, bounded
// by Context(parent, n), and records its outcome.
func (h *Health) Do(parent context.Context, n int64, f func(ctx context.Context) error) error {
	start := time.Now()
	ctx, cancel := Context(parent, n)
	defer cancel()
	err := f(ctx)
	h.Result(start, err)
	return err
}

// Result records the outcome of a call that started at start.
func (h *Health) Result(start time.Time, err error) {
	if err != nil {
		h.Failed(err)
	} else {
		h.OK(start)
	}
}

// Failed records a failed call, said when the state was up.
func (h *Health) Failed(err error) {
	h.mu.Lock()
	first := !h.down
	h.down, h.failAt = true, time.Now()
	if first {
		h.leaves++
		churn.leaves.Add(1)
	}
	say := first && h.leaves == 1
	h.mu.Unlock()
	if say && h.Warnf != nil {
		h.Warnf("%s unavailable (%v): %s", h.Name, err, h.Alone)
	}
}

// OK records a call that started at start and succeeded, said when it
// is the first to start after the last failure.
func (h *Health) OK(start time.Time) {
	h.mu.Lock()
	back := h.down && start.After(h.failAt)
	if back {
		h.down = false
		h.rejoins++
		churn.rejoins.Add(1)
	}
	say := back && h.rejoins == 1
	h.mu.Unlock()
	if say && h.Warnf != nil {
		say := h.Name + " reachable again"
		if h.Back != "" {
			say += ": " + h.Back
		}
		h.Warnf("%s", say)
	}
}

// ValidID reports whether id is n lowercase hex digits: the form of the
// keys and ids the stores share (a response's key, a kept result's id),
// checked before one names a file or a key.
func ValidID(id string, n int) bool {
	if len(id) != n {
		return false
	}
	for i := 0; i < len(id); i++ {
		if ch := id[i]; !(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f') {
			return false
		}
	}
	return true
}
