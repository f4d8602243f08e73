package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

// SharedState is where the governors of several processes that use one
// credential meet (docs/orgscale.md): its windows, the requests in flight,
// a secondary-limit pause and what the provider said of each bucket. The
// process's own governor still applies every bound locally; SharedState
// adds the other processes' requests to the count. The embedded default
// is no SharedState (one process); LocalState is the in-memory model of
// the contract (tests, embedding), and providers/sharedstate/redisstate the distributed
// one.
//
// Keys are hashes of the credential's origin and identity (SharedKey),
// never a token. Every call is bounded by ctx; a call that fails leaves
// the governor on its local state for that request (the implementation
// says so once, see docs/orgscale.md, "When Redis is down").
type SharedState interface {
	// Admit takes, at once, a slot among the credential's requests in
	// flight and a place in each window of a, or takes nothing and says
	// why not (Admit.Reason) and how long to wait (0: a request in flight
	// must answer first; poll).
	Admit(ctx context.Context, key string, a Admission) (Admit, error)
	// Release turns the admitted request a.ID into an answer now: its
	// slot is freed and its windows count it from now for their length.
	Release(ctx context.Context, key string, a Admission) error
	// Pause stops every request of the credential for d from now (a
	// longer pause already set stays).
	Pause(ctx context.Context, key string, d time.Duration) error
	// RecordBucket stores what the provider said of a bucket (within one
	// reset, the smallest remaining wins).
	RecordBucket(ctx context.Context, key string, b Bucket) error
	// Bucket returns what is known of a bucket whose reset has not passed.
	Bucket(ctx context.Context, key, name string) (Bucket, bool, error)
	// Renew extends the leases of the admitted requests as (not yet
	// released) to SlotTTL from now: a live process renews its slots and
	// places in flight, a dead one's lapse within a lease.
	Renew(ctx context.Context, key string, as []Admission) error
	// Paused returns how long every request of the credential is still
	// paused (0: not paused), at most MaxSharedPause.
	Paused(ctx context.Context, key string) (time.Duration, error)
	// Reserve places r.N more requests of statement r.Stmt in the
	// credential's queue of statements (oldest first, admission.go), or
	// refuses them when the requests queued ahead and its own cannot be
	// served by r.Window within r.Left.
	Reserve(ctx context.Context, key string, r Reservation) (Reserved, error)
	// Unreserve gives up a statement's place in the queue (it ended).
	Unreserve(ctx context.Context, key string, stmt string) error
	// RenewStatements extends the leases of the statements' places in
	// the queue to ttl from now.
	RenewStatements(ctx context.Context, key string, stmts []string, ttl time.Duration) error
}

// MaxSharedPause bounds a pause that one process records for the others
// (a far Retry-After, a stale or hostile key): the longest wait the
// engine accepts of a provider, GitHub's primary reset period.
const MaxSharedPause = time.Hour

// SharedWindow is one sliding window of an Admission: at most N requests
// in flight or answered within Length.
type SharedWindow struct {
	Name   string
	N      int
	Length time.Duration
}

// Admission describes one request for SharedState.Admit and Release.
type Admission struct {
	ID      string // unique per attempt
	Bucket  string // its rate-limit bucket: a spent one holds it until the reset
	Windows []SharedWindow
	// MaxInFlight bounds the credential's requests in flight across every
	// process (<= 0: no bound).
	MaxInFlight int
	// Stmt is the statement it belongs to (WithStatement; "" for none):
	// its admission takes one request off the statement's reservation.
	Stmt string
	// SlotTTL is the lease of a slot or a place in flight: how long it is
	// held without a Release or a Renew (a crashed process's slots lapse
	// within it; a live one renews them every SlotTTL/3).
	SlotTTL time.Duration
}

// Admit is SharedState.Admit's answer.
type Admit struct {
	OK     bool
	Wait   time.Duration
	Reason string // "paused", "spent", "slots", "window" when not OK
}

// DefaultSlotTTL is Admission.SlotTTL when the governor's options give
// none: a lease short enough that a killed process's slots are free in
// seconds, renewed by the live ones (governor_shared.go, renewLoop).
const DefaultSlotTTL = 6 * time.Second

// SharedOpTimeout bounds each call of the governor to its SharedState.
const SharedOpTimeout = providers.SharedStateTimeout

// SharedKey is the key of a credential in a SharedState: a hash of the
// governor's key (origin and identity, itself a hash).
func SharedKey(governorKey string) string {
	return registry.SHA256([]byte("engine-governor-v1\x00" + governorKey))[:32]
}

func newAdmissionID() string {
	var b [12]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand never fails
	return hex.EncodeToString(b[:])
}

// ErrSharedDown is what a SharedState may return while it is known to be
// unreachable (it skips the network for a while after a failure).
var ErrSharedDown = errors.New("shared state unreachable; not asked again for a few seconds")

var _ SharedState = (*LocalState)(nil)

// LocalState is SharedState in this process's memory: the reference model
// of the contract, and a way for several governors of one process to
// share (tests).
type LocalState struct {
	mu    sync.Mutex
	now   func() time.Time
	creds map[string]*localCred
}

type localCred struct {
	pause   time.Time
	slots   map[string]time.Time            // id -> expiry
	fly     map[string]map[string]time.Time // window -> id -> expiry
	ends    map[string][]time.Time          // window -> answer times
	buckets map[string]Bucket
	queue   map[string]*queued // statement -> its place (admission.go)
}

type queued struct {
	start, lease, deadline time.Time
	n                      int
}

// NewLocalState makes an empty LocalState.
func NewLocalState() *LocalState {
	return &LocalState{now: time.Now, creds: map[string]*localCred{}}
}

func (s *LocalState) cred(key string) *localCred {
	c, ok := s.creds[key]
	if !ok {
		c = &localCred{queue: map[string]*queued{}, slots: map[string]time.Time{}, fly: map[string]map[string]time.Time{}, ends: map[string][]time.Time{}, buckets: map[string]Bucket{}}
		s.creds[key] = c
	}
	return c
}

// locked runs f on key's state under the lock, with the time of the
// call, unless ctx is already done.
func locked[T any](ctx context.Context, s *LocalState, key string, f func(c *localCred, now time.Time) (T, error)) (T, error) {
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return f(s.cred(key), s.now())
}

// lockedErr is locked for the methods that only answer an error.
func lockedErr(ctx context.Context, s *LocalState, key string, f func(c *localCred, now time.Time) error) error {
	_, err := locked(ctx, s, key, func(c *localCred, now time.Time) (struct{}, error) { return struct{}{}, f(c, now) })
	return err
}

// Admit implements SharedState.
func (s *LocalState) Admit(ctx context.Context, key string, a Admission) (Admit, error) {
	return locked(ctx, s, key, func(c *localCred, now time.Time) (Admit, error) {
		if now.Before(c.pause) {
			return Admit{Wait: min(c.pause.Sub(now), MaxSharedPause), Reason: "paused"}, nil
		}
		if b, ok := c.buckets[a.Bucket]; ok && b.Remaining <= 0 && now.Before(b.Reset) {
			return Admit{Wait: b.Reset.Sub(now), Reason: "spent"}, nil
		}
		expire(c.slots, now)
		if a.MaxInFlight > 0 && len(c.slots) >= a.MaxInFlight {
			return Admit{Reason: "slots"}, nil
		}
		wait := time.Duration(-1)
		for _, w := range a.Windows {
			fly := c.fly[w.Name]
			expire(fly, now)
			ends := c.ends[w.Name]
			i := 0
			for i < len(ends) && !ends[i].After(now.Add(-w.Length)) {
				i++
			}
			ends = ends[i:]
			c.ends[w.Name] = ends
			if n := len(fly) + len(ends); n >= w.N {
				d := time.Duration(0)
				if over := n - w.N; over < len(ends) {
					d = ends[over].Add(w.Length).Sub(now)
				}
				wait = max(wait, d)
			}
		}
		if wait >= 0 {
			return Admit{Wait: wait, Reason: "window"}, nil
		}
		ttl := leaseOr(a.SlotTTL)
		if q := c.queue[a.Stmt]; q != nil && q.n > 0 {
			q.n--
		}
		c.slots[a.ID] = now.Add(ttl)
		for _, w := range a.Windows {
			if c.fly[w.Name] == nil {
				c.fly[w.Name] = map[string]time.Time{}
			}
			c.fly[w.Name][a.ID] = now.Add(ttl)
		}
		return Admit{OK: true}, nil
	})
}

// leaseOr is d, or DefaultSlotTTL when d is unset.
func leaseOr(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultSlotTTL
	}
	return d
}

func expire(m map[string]time.Time, now time.Time) {
	for id, t := range m {
		if !now.Before(t) {
			delete(m, id)
		}
	}
}

// Release implements SharedState.
func (s *LocalState) Release(ctx context.Context, key string, a Admission) error {
	return lockedErr(ctx, s, key, func(c *localCred, now time.Time) error {
		delete(c.slots, a.ID)
		for _, w := range a.Windows {
			if _, ok := c.fly[w.Name][a.ID]; !ok {
				continue // never admitted, or expired: nothing to count
			}
			delete(c.fly[w.Name], a.ID)
			c.ends[w.Name] = append(c.ends[w.Name], now)
		}
		return nil
	})
}

// Renew implements SharedState.
func (s *LocalState) Renew(ctx context.Context, key string, as []Admission) error {
	return lockedErr(ctx, s, key, func(c *localCred, now time.Time) error {
		for _, a := range as {
			ttl := leaseOr(a.SlotTTL)
			if _, ok := c.slots[a.ID]; ok {
				c.slots[a.ID] = now.Add(ttl)
			}
			for _, w := range a.Windows {
				if _, ok := c.fly[w.Name][a.ID]; ok {
					c.fly[w.Name][a.ID] = now.Add(ttl)
				}
			}
		}
		return nil
	})
}

// Reserve implements SharedState (the model of redisstate's script).
func (s *LocalState) Reserve(ctx context.Context, key string, r Reservation) (Reserved, error) {
	return locked(ctx, s, key, func(c *localCred, now time.Time) (Reserved, error) {
		for id, q := range c.queue {
			if !now.Before(q.lease) {
				delete(c.queue, id)
			}
		}
		mine := c.queue[r.Stmt]
		own := 0
		if mine != nil {
			own = mine.n
		}
		// Admitted statements share the window as they go: every one's
		// requests count, and none may be pushed past its deadline.
		ahead := 0
		minLeft := r.Left
		for id, q := range c.queue {
			if id == r.Stmt {
				continue
			}
			ahead += q.n
			if !q.deadline.IsZero() && (minLeft <= 0 || q.deadline.Sub(now) < minLeft) {
				minLeft = max(q.deadline.Sub(now), 0)
			}
		}
		w := r.Window
		fly := c.fly[w.Name]
		expire(fly, now)
		var ends []time.Time
		for _, e := range c.ends[w.Name] {
			if e.After(now.Add(-w.Length)) {
				ends = append(ends, e)
			}
		}
		room := max(w.N-len(fly)-len(ends), 0)
		wait := func(x int) time.Duration {
			if x <= 0 {
				return 0
			}
			if x <= len(ends) {
				return ends[x-1].Add(w.Length).Sub(now)
			}
			return w.Length * time.Duration((x+w.N-1)/max(w.N, 1))
		}
		t := wait(ahead + own + r.N - room)
		if (r.Left > 0 || minLeft > 0) && t > minLeft {
			return Reserved{Ahead: ahead, Wait: t, RetryAfter: wait(ahead - room)}, nil
		}
		ttl := leaseOr(r.TTL)
		if mine == nil {
			mine = &queued{start: now}
			if r.Left > 0 {
				mine.deadline = now.Add(r.Left)
			}
			c.queue[r.Stmt] = mine
		}
		mine.n += r.N
		mine.lease = now.Add(ttl)
		return Reserved{OK: true, Ahead: ahead, Wait: t}, nil
	})
}

// Unreserve implements SharedState.
func (s *LocalState) Unreserve(ctx context.Context, key string, stmt string) error {
	return lockedErr(ctx, s, key, func(c *localCred, _ time.Time) error {
		delete(c.queue, stmt)
		return nil
	})
}

// RenewStatements implements SharedState.
func (s *LocalState) RenewStatements(ctx context.Context, key string, stmts []string, ttl time.Duration) error {
	return lockedErr(ctx, s, key, func(c *localCred, now time.Time) error {
		for _, id := range stmts {
			if q := c.queue[id]; q != nil {
				q.lease = now.Add(ttl)
			}
		}
		return nil
	})
}

// Paused implements SharedState.
func (s *LocalState) Paused(ctx context.Context, key string) (time.Duration, error) {
	return locked(ctx, s, key, func(c *localCred, now time.Time) (time.Duration, error) {
		return min(max(c.pause.Sub(now), 0), MaxSharedPause), nil
	})
}

// Pause implements SharedState.
func (s *LocalState) Pause(ctx context.Context, key string, d time.Duration) error {
	return lockedErr(ctx, s, key, func(c *localCred, now time.Time) error {
		if until := now.Add(min(d, MaxSharedPause)); until.After(c.pause) {
			c.pause = until
		}
		return nil
	})
}

// RecordBucket implements SharedState.
func (s *LocalState) RecordBucket(ctx context.Context, key string, b Bucket) error {
	return lockedErr(ctx, s, key, func(c *localCred, _ time.Time) error {
		if old, ok := c.buckets[b.Name]; ok && old.Reset.Equal(b.Reset) && old.Remaining < b.Remaining {
			b.Remaining, b.Used = old.Remaining, max(old.Used, b.Used)
		}
		c.buckets[b.Name] = b
		return nil
	})
}

// Bucket implements SharedState.
func (s *LocalState) Bucket(ctx context.Context, key, name string) (Bucket, bool, error) {
	if err := ctx.Err(); err != nil {
		return Bucket{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.cred(key).buckets[name]
	if !ok || (!b.Reset.IsZero() && !s.now().Before(b.Reset)) {
		return Bucket{}, false, nil
	}
	return b, true, nil
}
