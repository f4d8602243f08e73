package client

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/sharedstate"
)

// The governor keeps one credential's requests within the provider's
// documented limits, for the whole process: every fan-out, page worker,
// MCP session and check control that uses the credential shares it.
// docs/performance.md ("Rate-limit governor") explains the choices.
//
//   - Windows: a sliding-window log per rate: all requests ("points",
//     GitHub: 900 per minute, its secondary limit for REST), and in
//     addition the search bucket (30 per minute) and the code_search
//     bucket (10 per minute); the rates are the provider profile's data
//     (rate_limit.windows) unless --rate and friends override them. A
//     credential may spend a window's whole budget at once; only when the
//     window is full does the next request wait, until the oldest answer
//     leaves it (window.go).
//   - Concurrency: additive increase, multiplicative decrease. The cap on
//     requests in flight starts at StartConcurrency (default 4) and grows
//     while requests fill it and succeed: by one per success up to the
//     slow-start threshold (MaxConcurrency at first), then by one per cap's
//     worth of successes, never above MaxConcurrency (default 16; GitHub
//     allows 100). --concurrency stays the bound of one fan-out.
//   - Pause: a response with Retry-After, or a 403/429 secondary rate limit,
//     stops every request of the credential until the wait is over (Retry-
//     After, else at least a minute, doubled for each further limit hit
//     after a pause: exponential backoff). Requests already in flight when
//     the pause began do not count as new hits. A bucket reported spent
//     (x-ratelimit-remaining: 0) holds its requests until its reset.
//   - Adaptive: a new secondary limit (one per congestion event: answers
//     to requests sent before it join it) halves the requests in flight and
//     caps growth below the level that met it; only a limit met with no
//     other request in flight, which concurrency cannot explain, halves
//     the rate budgets. After each quiet RecoverAfter (default a minute)
//     the cap may grow to MaxConcurrency again and the rates double back
//     towards the configured ones.
//   - Budget: x-ratelimit-* headers of every response are recorded per
//     bucket (core, search, code_search, ...), so that a statement that
//     needs more requests than its bucket has left before the reset can be
//     refused before it starts (Client.CheckBudget).
//
// Requests to the profile's free probe (/rate_limit) bypass the governor.

// Bucket is what the provider last said about one primary rate-limit
// bucket (x-ratelimit-resource).
type Bucket struct {
	Name      string
	Limit     int
	Remaining int
	Used      int
	Reset     time.Time
	Seen      time.Time // when the headers were received
}

// GovernorStats are the governor's counters since the process started.
type GovernorStats struct {
	// SecondaryLimits counts secondary-limit responses; Pauses the pauses
	// they started (responses to requests sent before a pause began join
	// that pause); Cuts the concurrency cuts (one per congestion event).
	SecondaryLimits, Pauses, Cuts int
	// Concurrency is the current cap on requests in flight (0: none).
	Concurrency int
	// Rate is the current points budget per second (0: no pacing);
	// Budget the same per window.
	Rate   float64 // requests per second
	Budget int
}

// Governor paces and bounds the requests of one credential. See the
// comment at the top of governor.go.
type Governor struct {
	opts GovernorOptions
	logf func(string, ...any)
	now  func() time.Time

	mu         sync.Mutex
	inflight   int
	limit      int           // current concurrency cap (<=0: none)
	ssthresh   int           // slow start below it, additive growth above
	ceiling    int           // growth stops here until a quiet period
	acked      int           // successes towards the next additive step
	lastFull   time.Time     // last admission that filled the cap
	changed    chan struct{} // closed when a slot frees or a bound changes
	pauseUntil time.Time
	pauseStart time.Time
	backoff    time.Duration // last secondary pause (for doubling)
	lastLimit  time.Time     // last new secondary limit
	lastGrow   time.Time
	factor     float64 // current fraction of the configured rates
	points     *window
	search     *window
	codeSearch *window
	buckets    map[string]Bucket
	secondary  int
	pauses     int
	cuts       int
	probedAt   time.Time
	sharedKey  string                    // the credential's key in opts.Shared
	admitted   map[admitKey][]*Admission // shared admissions awaiting Done
	renewing   bool                      // renewLoop runs
	queued     map[string]bool           // statements with a place in the shared queue (admission.go)
	pauseAsked time.Time                 // last time sharedPaused asked
	shared     *sharedstate.Health       // says when opts.Shared fails and when it is back
}

// NewGovernor makes a governor (tests and embedding; clients share them
// through SharedGovernor).
func NewGovernor(opts GovernorOptions) *Governor {
	opts.setDefaults()
	g := &Governor{opts: opts, now: time.Now, changed: make(chan struct{}), factor: 1, buckets: map[string]Bucket{}, shared: &sharedstate.Health{
		Name:  "shared rate-limit state",
		Alone: "this process goes on pacing the credential alone, within its own --rate and --max-concurrency, until it answers again",
		Back:  "pacing the credential with the other processes",
		Warnf: opts.SharedWarnf,
	}}
	if opts.MaxConcurrency > 0 {
		g.limit = min(opts.StartConcurrency, opts.MaxConcurrency)
		g.ssthresh, g.ceiling = opts.MaxConcurrency, opts.MaxConcurrency
	}
	g.points = newWindow(opts.Rate)
	g.search = newWindow(opts.SearchRate)
	g.codeSearch = newWindow(opts.CodeSearchRate)
	return g
}

var (
	governorsMu sync.Mutex
	governors   = map[string]*Governor{}
)

// SharedGovernor returns the process's governor of key (a credential's
// origin and identity), creating it with opts on first use.
func SharedGovernor(key string, opts GovernorOptions, logf func(string, ...any)) *Governor {
	governorsMu.Lock()
	defer governorsMu.Unlock()
	if g, ok := governors[key]; ok {
		return g
	}
	g := NewGovernor(opts)
	g.logf = logf
	g.sharedKey = SharedKey(key)
	governors[key] = g
	return g
}

// MaxConcurrency is the most requests the credential may have in flight
// (0: no cap): what one call's page workers may use.
func (g *Governor) MaxConcurrency() int {
	return max(g.opts.MaxConcurrency, 0)
}

// windows returns the windows a request of bucket counts against.
func (g *Governor) windows(bucket string) []*window {
	ws := make([]*window, 0, 2)
	if g.points != nil {
		ws = append(ws, g.points)
	}
	switch bucket {
	case "search":
		if g.search != nil {
			ws = append(ws, g.search)
		}
	case "code_search":
		if g.codeSearch != nil {
			ws = append(ws, g.codeSearch)
		}
	}
	return ws
}

// Acquire waits until a request of bucket may be sent: no pause, a free
// concurrency slot, and room in every window that applies; slot and
// windows are taken at once. It returns the time the request was
// admitted; Done must be called once when the response (or failure) is
// in. A bucket of "" (free requests) is admitted at once.
func (g *Governor) Acquire(ctx context.Context, bucket string) (time.Time, error) {
	if bucket == "" {
		return g.now(), nil
	}
	var sharedWaited time.Time // the first refusal by the shared state
	for {
		if err := g.waitPause(ctx); err != nil {
			return time.Time{}, err
		}
		if err := g.waitSpent(ctx, bucket); err != nil {
			return time.Time{}, err
		}
		g.mu.Lock()
		now := g.now()
		if now.Before(g.pauseUntil) {
			g.mu.Unlock()
			continue
		}
		ok := g.limit <= 0 || g.inflight < g.limit
		var free time.Time
		full := false // a window, not only the concurrency cap, holds the request
		ws := g.windows(bucket)
		for _, w := range ws {
			if room, f := w.room(now, g.factor); !room {
				ok, full = false, true
				if f.After(free) {
					free = f
				}
			}
		}
		if ok {
			g.inflight++
			if g.limit > 0 && g.inflight >= g.limit {
				g.lastFull = now
			}
			for _, w := range ws {
				w.inflight++
			}
			adm := g.admissionLocked(bucket)
			g.mu.Unlock()
			if adm == nil {
				return now, nil
			}
			if st := statementFrom(ctx); st != nil {
				adm.Stmt = st.id
			}
			wait, admitted := g.sharedAdmit(ctx, bucket, adm, now)
			if admitted {
				return now, nil
			}
			if sharedWaited.IsZero() {
				sharedWaited = now
			} else if d := g.now().Sub(sharedWaited); d >= NoticeMin {
				noticeShared(ctx, g, d)
			}
			// Another process holds the room: give the local place back
			// and wait (shared.go).
			g.mu.Lock()
			g.inflight--
			for _, w := range ws {
				w.inflight--
			}
			g.signalLocked()
			g.mu.Unlock()
			t := time.NewTimer(wait)
			end := queueWait(ctx) // another process's room in the shared window
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				end()
				return time.Time{}, ctx.Err()
			}
			end()
			continue
		}
		ch := g.changed
		g.mu.Unlock()
		var timer <-chan time.Time
		var t *time.Timer
		if !free.IsZero() {
			t = time.NewTimer(free.Sub(now))
			timer = t.C
		}
		end := func() {}
		if full {
			end = queueWait(ctx)
		}
		var err error
		select {
		case <-ch:
		case <-timer:
		case <-ctx.Done():
			err = ctx.Err()
		}
		end()
		if t != nil {
			t.Stop()
		}
		if err != nil {
			return time.Time{}, err
		}
	}
}

func (g *Governor) waitPause(ctx context.Context) error {
	for {
		g.mu.Lock()
		d := g.pauseUntil.Sub(g.now())
		g.mu.Unlock()
		if d <= 0 {
			return nil
		}
		t := time.NewTimer(d)
		end := queueWait(ctx)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			end()
			return ctx.Err()
		}
		end()
	}
}

// waitSpent waits for the reset of a bucket the provider reported spent
// (x-ratelimit-remaining: 0): a request before it would only be refused.
func (g *Governor) waitSpent(ctx context.Context, bucket string) error {
	until := g.SpentUntil(bucket)
	if until.IsZero() {
		return nil
	}
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	defer queueWait(ctx)()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SpentUntil returns the reset of bucket when the provider last reported
// it spent, else the zero time.
func (g *Governor) SpentUntil(bucket string) time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	b, ok := g.buckets[bucket]
	if !ok || b.Remaining > 0 || b.Reset.IsZero() || !g.now().Before(b.Reset) {
		return time.Time{}
	}
	return b.Reset
}

func (g *Governor) signalLocked() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// Done releases the slot of a request admitted at sent and records what
// its response says: rate-limit headers, and a secondary limit (which
// pauses every request of the credential). resp may be nil (transport
// failure); body is the response body read so far (for the message).
func (g *Governor) Done(bucket string, sent time.Time, status int, h http.Header, body []byte) {
	if bucket == "" {
		return
	}
	g.mu.Lock()
	pause, rec := g.doneLocked(bucket, sent, status, h, body)
	g.mu.Unlock()
	g.sharedDone(bucket, sent, pause, rec)
}

// doneLocked is Done's local part; it returns the secondary-limit pause it
// started (0: none) and the bucket the response reported, for the shared
// state.
func (g *Governor) doneLocked(bucket string, sent time.Time, status int, h http.Header, body []byte) (pause time.Duration, rec *Bucket) {
	now := g.now()
	inflight := g.inflight // this request included
	g.inflight--
	full := !g.lastFull.Before(sent) // the cap was in use while it was out
	for _, w := range g.windows(bucket) {
		w.done(now)
	}
	defer g.signalLocked()
	if h != nil {
		rec = g.recordLocked(h, now)
	}
	wait := parseRetryAfter(h.Get("Retry-After"), now)
	if !secondaryLimit(*g.opts.RateLimit, status, h, body) {
		if status >= 400 && wait > 0 && !sent.Before(g.pauseStart) && now.Add(wait).After(g.pauseUntil) {
			// Any other error that asks to wait (503 with Retry-After):
			// every request waits, without adapting.
			g.pauseStart, g.pauseUntil = now, now.Add(wait)
			g.pauses++
			g.logfLocked("governor: HTTP %d with Retry-After: pausing every request of this credential for %s", status, wait)
			return wait, rec
		}
		g.recoverLocked(now)
		if status > 0 && status < 400 && full {
			g.growLocked()
		}
		return 0, rec
	}
	g.secondary++
	if sent.Before(g.pauseStart) {
		// In flight when the current pause began: the same episode.
		if until := now.Add(wait); wait > 0 && until.After(g.pauseUntil) && now.Before(g.pauseUntil) {
			g.pauseUntil = until
		}
		return 0, rec
	}
	secondaryWait := g.opts.RateLimit.SecondaryWait()
	if wait <= 0 {
		wait = secondaryWait
		if g.backoff > 0 && now.Sub(g.lastLimit) < 4*g.backoff {
			wait = min(2*g.backoff, 16*secondaryWait)
		}
	} else if g.backoff > 0 && now.Sub(g.lastLimit) < 4*g.backoff {
		wait = max(wait, min(2*g.backoff, 16*secondaryWait))
	}
	g.backoff = wait
	g.lastLimit = now
	g.pauseStart = now
	g.pauseUntil = now.Add(wait)
	g.lastGrow = g.pauseUntil // the quiet period starts after the pause
	g.pauses++
	g.cutLocked(inflight)
	g.logfLocked("governor: secondary rate limit: pausing every request of this credential for %s; concurrency now %d, rate %.3g/s", wait.Round(time.Millisecond), g.limit, g.rateLocked())
	return wait, rec
}

// growLocked is the increase after a success of a request out while the
// cap was full: only a cap in use grows.
func (g *Governor) growLocked() {
	if g.limit <= 0 || g.limit >= g.ceiling {
		return
	}
	if g.limit < g.ssthresh {
		g.limit++ // slow start: doubles per round trip
		return
	}
	if g.acked++; g.acked >= g.limit {
		g.acked = 0
		g.limit++
	}
}

// cutLocked is the multiplicative decrease of a new congestion event met
// with inflight requests out (this one included): half of what was in
// flight, and no growth to that level again before a quiet period. With
// no other request in flight concurrency cannot explain the limit: the
// rates are halved instead.
func (g *Governor) cutLocked(inflight int) {
	g.cuts++
	if g.limit > 0 {
		used := max(1, min(g.limit, inflight))
		g.ceiling = max(1, used-1)
		g.limit = max(1, used/2)
		g.ssthresh, g.acked = g.limit, 0
	}
	if inflight <= 1 {
		g.factor = max(g.factor/2, 1.0/64)
	}
}

// recoverLocked lifts the ceiling and doubles the rates back (up to the
// configured ones) after each quiet RecoverAfter since the last secondary
// limit.
func (g *Governor) recoverLocked(now time.Time) {
	if (g.factor >= 1 && g.ceiling >= g.opts.MaxConcurrency) || now.Sub(g.lastGrow) < g.opts.RecoverAfter {
		return
	}
	g.lastGrow = now
	g.factor = min(1, g.factor*2)
	if g.opts.MaxConcurrency > 0 {
		g.ceiling = g.opts.MaxConcurrency
	}
}

func (g *Governor) rateLocked() float64 {
	if g.points == nil {
		return 0
	}
	return float64(g.points.budget(g.factor)) / g.points.length.Seconds()
}

func (g *Governor) logfLocked(format string, args ...any) {
	if g.logf != nil {
		g.logf(format, args...)
	}
}

// secondaryLimit reports a secondary rate limit: a 403 or 429 with
// Retry-After, or whose body says one of the profile's secondary phrases
// (GitHub: "secondary rate limit", "abuse detection"). A primary limit
// (remaining 0 without Retry-After) is not one: it is tracked as the
// bucket's budget.
func secondaryLimit(rl providers.RateLimit, status int, h http.Header, body []byte) bool {
	if status != http.StatusForbidden && status != http.StatusTooManyRequests {
		return false
	}
	if h != nil && strings.TrimSpace(h.Get("Retry-After")) != "" {
		return true
	}
	if bodyMentions(body, rl.SecondaryPhrases...) {
		return true
	}
	return status == http.StatusTooManyRequests
}

// recordLocked stores the rate-limit headers (the profile's names) of a
// response.
func (g *Governor) recordLocked(h http.Header, now time.Time) *Bucket {
	rl := g.opts.RateLimit
	get := func(name string) string {
		if name == "" {
			return ""
		}
		return strings.TrimSpace(h.Get(name))
	}
	limit, err1 := strconv.Atoi(get(rl.Limit))
	remaining, err2 := strconv.Atoi(get(rl.Remaining))
	if err1 != nil || err2 != nil {
		return nil
	}
	b := Bucket{Name: get(rl.Resource), Limit: limit, Remaining: remaining, Seen: now}
	if b.Name == "" {
		b.Name = "core"
	}
	b.Used, _ = strconv.Atoi(get(rl.Used))
	if reset, ok := parseReset(get(rl.Reset)); ok {
		b.Reset = reset
	}
	if old, ok := g.buckets[b.Name]; ok && old.Reset.Equal(b.Reset) && old.Seen.After(now.Add(-time.Second)) && old.Remaining < b.Remaining {
		// Responses arrive out of order under concurrency: within one
		// reset window the smallest remaining is the latest truth.
		b.Remaining, b.Used = old.Remaining, max(old.Used, b.Used)
	}
	g.buckets[b.Name] = b
	return &b
}

// Record stores rate-limit facts learnt elsewhere (the /rate_limit
// endpoint).
func (g *Governor) Record(b Bucket) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if b.Seen.IsZero() {
		b.Seen = g.now()
	}
	g.buckets[b.Name] = b
}

// Bucket returns what is known of a bucket; ok is false when nothing is
// known or its reset time has passed (the budget was refilled).
func (g *Governor) Bucket(name string) (Bucket, bool) {
	g.sharedBucket(name)
	g.mu.Lock()
	defer g.mu.Unlock()
	b, ok := g.buckets[name]
	if !ok || (!b.Reset.IsZero() && !g.now().Before(b.Reset)) {
		return b, false
	}
	return b, true
}

// startProbe reports whether a /rate_limit probe may start (at most one a
// minute).
func (g *Governor) startProbe() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if !g.probedAt.IsZero() && now.Sub(g.probedAt) < time.Minute {
		return false
	}
	g.probedAt = now
	return true
}

// Stats returns the governor's counters.
func (g *Governor) Stats() GovernorStats {
	g.mu.Lock()
	defer g.mu.Unlock()
	st := GovernorStats{SecondaryLimits: g.secondary, Pauses: g.pauses, Cuts: g.cuts, Concurrency: max(g.limit, 0), Rate: g.rateLocked()}
	if g.points != nil {
		st.Budget = g.points.budget(g.factor)
	}
	return st
}

// PausedUntil returns the end of the current pause (zero when none).
func (g *Governor) PausedUntil() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.now().Before(g.pauseUntil) {
		return g.pauseUntil
	}
	return time.Time{}
}
