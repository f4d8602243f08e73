package client

import (
	"context"
	"time"

	"github.com/enginehq/engine/providers/sharedstate"
)

// The governor's use of a SharedState (GovernorOptions.Shared): a request
// is admitted locally first (this process's bounds), then by the shared
// state (every process's requests of the credential together). The rule
// when the shared state fails (docs/orgscale.md, "When Redis is down"):
// each call is bounded by SharedOpTimeout; a failed call leaves that
// request to the local bounds alone, which still hold this process to the
// credential's limits, and the governor says so once (SharedWarnf), and
// once again when the shared state answers again.

// sharedPoll is how long a request waits before asking again when the
// shared state is full of requests in flight (their answers free it, but
// another process's answers are not signalled here).
const sharedPoll = 20 * time.Millisecond

// sharedMaxWait bounds one wait between two asks of the shared state.
const sharedMaxWait = time.Second

type admitKey struct {
	bucket string
	sent   time.Time
}

// admissionLocked describes a request of bucket for the shared state (nil
// without one).
func (g *Governor) admissionLocked(bucket string) *Admission {
	if g.opts.Shared == nil {
		return nil
	}
	a := &Admission{ID: newAdmissionID(), Bucket: bucket, MaxInFlight: g.opts.MaxConcurrency, SlotTTL: g.opts.SlotTTL}
	add := func(name string, w *window) {
		if w != nil {
			a.Windows = append(a.Windows, SharedWindow{Name: name, N: w.budget(g.factor), Length: w.length})
		}
	}
	add("points", g.points)
	switch bucket {
	case "search":
		add("search", g.search)
	case "code_search":
		add("code_search", g.codeSearch)
	}
	return a
}

func (g *Governor) key() string {
	if g.sharedKey == "" {
		return SharedKey("")
	}
	return g.sharedKey
}

// sharedAdmit asks the shared state to admit a (sent at sent); when it
// does not, it returns how long to wait before asking again. A failing
// shared state admits (the local bounds hold).
func (g *Governor) sharedAdmit(ctx context.Context, bucket string, a *Admission, sent time.Time) (time.Duration, bool) {
	start := time.Now()
	octx, cancel := sharedstate.Context(ctx, 0)
	res, err := g.opts.Shared.Admit(octx, g.key(), *a)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			// The caller gave up: not admitted (Acquire returns its error).
			return sharedPoll, false
		}
		g.shared.Failed(err)
		return 0, true
	}
	g.shared.OK(start)
	if res.OK {
		g.mu.Lock()
		if g.admitted == nil {
			g.admitted = map[admitKey][]*Admission{}
		}
		k := admitKey{bucket, sent}
		g.admitted[k] = append(g.admitted[k], a)
		start := !g.renewing
		g.renewing = true
		g.mu.Unlock()
		if start {
			go g.renewLoop()
		}
		return 0, true
	}
	wait := res.Wait
	now := g.now()
	switch res.Reason {
	case "paused":
		// Another process met a secondary limit: this one pauses too, so
		// that a wait past MaxRetryWait fails fast (pausedError).
		g.mu.Lock()
		if until := now.Add(wait); until.After(g.pauseUntil) {
			g.pauseStart, g.pauseUntil = now, until
		}
		g.mu.Unlock()
	case "spent":
		g.mu.Lock()
		b := g.buckets[bucket]
		if until := now.Add(wait); b.Remaining > 0 || b.Reset.Before(until) {
			b.Name, b.Remaining, b.Reset, b.Seen = bucket, 0, until, now
			g.buckets[bucket] = b
		}
		g.mu.Unlock()
	}
	if wait <= 0 {
		wait = sharedPoll
	}
	return min(wait, sharedMaxWait), false
}

// renewLoop renews the leases of the shared admissions awaiting Done
// every SlotTTL/3, so that a live process keeps its slots however long
// its requests take, and a killed one's lapse within SlotTTL. It ends
// when no admission is left (sharedAdmit starts it again).
func (g *Governor) renewLoop() {
	every := max(g.opts.SlotTTL/3, 10*time.Millisecond)
	for {
		time.Sleep(every)
		g.mu.Lock()
		var as []Admission
		for _, q := range g.admitted {
			for _, a := range q {
				as = append(as, *a)
			}
		}
		stmts := make([]string, 0, len(g.queued))
		for id := range g.queued {
			stmts = append(stmts, id)
		}
		if len(as) == 0 && len(stmts) == 0 {
			g.renewing = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		// A failed renewal is said by g.shared; the slots then lapse, and
		// the local bounds hold.
		if len(as) > 0 {
			g.shared.Do(context.Background(), 0, func(ctx context.Context) error { //nolint:errcheck
				return g.opts.Shared.Renew(ctx, g.key(), as)
			})
		}
		if len(stmts) > 0 {
			g.shared.Do(context.Background(), 0, func(ctx context.Context) error { //nolint:errcheck
				return g.opts.Shared.RenewStatements(ctx, g.key(), stmts, g.opts.SlotTTL)
			})
		}
	}
}

// sharedPaused merges a pause another process recorded in the shared
// state into the local one, so that a request that would wait it out
// past MaxRetryWait fails at once (pausedError), as after a pause of its
// own.
func (g *Governor) sharedPaused() {
	if g.opts.Shared == nil {
		return
	}
	// Asked at most every sharedPausePoll: a pause set since is met by the
	// admission itself (and its process's own requests fail fast after).
	g.mu.Lock()
	now := g.now()
	if now.Sub(g.pauseAsked) < sharedPausePoll {
		g.mu.Unlock()
		return
	}
	g.pauseAsked = now
	g.mu.Unlock()
	var d time.Duration
	if err := g.shared.Do(context.Background(), 0, func(ctx context.Context) (err error) {
		d, err = g.opts.Shared.Paused(ctx, g.key())
		return err
	}); err != nil || d <= 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	now = g.now()
	if until := now.Add(d); until.After(g.pauseUntil) {
		g.pauseStart, g.pauseUntil = now, until
	}
}

// sharedPausePoll is how often a governor asks the shared state for a
// pause another process recorded (sharedPaused).
const sharedPausePoll = 250 * time.Millisecond

// sharedDone tells the shared state that the request admitted at sent
// answered, the pause it started and the bucket it reported.
func (g *Governor) sharedDone(bucket string, sent time.Time, pause time.Duration, rec *Bucket) {
	if g.opts.Shared == nil {
		return
	}
	g.mu.Lock()
	k := admitKey{bucket, sent}
	var a *Admission
	if q := g.admitted[k]; len(q) > 0 {
		a = q[0]
		if len(q) == 1 {
			delete(g.admitted, k)
		} else {
			g.admitted[k] = q[1:]
		}
	}
	g.mu.Unlock()
	// A failed call is said by g.shared; the local state goes on.
	op := func(f func(ctx context.Context) error) { g.shared.Do(context.Background(), 0, f) } //nolint:errcheck
	if a != nil {
		op(func(ctx context.Context) error { return g.opts.Shared.Release(ctx, g.key(), *a) })
	}
	if pause > 0 {
		op(func(ctx context.Context) error { return g.opts.Shared.Pause(ctx, g.key(), pause) })
	}
	if rec != nil {
		b := *rec
		op(func(ctx context.Context) error { return g.opts.Shared.RecordBucket(ctx, g.key(), b) })
	}
}

// sharedBucket merges what the shared state knows of a bucket into the
// local record: a later reset, or a smaller remaining within one reset.
func (g *Governor) sharedBucket(name string) {
	if g.opts.Shared == nil {
		return
	}
	var b Bucket
	var ok bool
	if err := g.shared.Do(context.Background(), 0, func(ctx context.Context) (err error) {
		b, ok, err = g.opts.Shared.Bucket(ctx, g.key(), name)
		return err
	}); err != nil {
		return
	}
	if !ok {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	old, had := g.buckets[name]
	if !had || b.Reset.After(old.Reset) || (b.Reset.Equal(old.Reset) && b.Remaining < old.Remaining) {
		g.buckets[name] = b
	}
}
