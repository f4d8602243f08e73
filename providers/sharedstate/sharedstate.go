// Package sharedstate is what every user of the state that processes
// share (--state: the governor's windows, the response cache, MCP kept
// results) does alike: it bounds each call (Context) and says once when
// the state fails and once when it answers again (Health), as
// docs/orgscale.md ("When Redis is down") describes. The stores
// themselves are providers/sharedstate/redisstate's; this package knows none of them.
package sharedstate

import (
	"context"
	"sync"
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
// providers.SharedStateTimeout, plus 1 ms per 50 kB.
func Context(parent context.Context, n int64) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, providers.SharedStateTimeout+time.Duration(n/50_000)*time.Millisecond)
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

	mu     sync.Mutex
	down   bool
	failAt time.Time
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
	h.mu.Unlock()
	if first && h.Warnf != nil {
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
	}
	h.mu.Unlock()
	if back && h.Warnf != nil {
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
