package client

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/enginehq/engine/providers"
)

// The governor keeps one credential's requests within GitHub's documented
// limits, for the whole process: every fan-out, page worker, MCP session
// and check control that uses the credential shares it.
//
//   - Pacing: a token bucket per rate: all requests ("points", default 900
//     per minute, GitHub's secondary limit for REST), and in addition the
//     search bucket (30 per minute) and the code_search bucket (10 per
//     minute). The bucket's burst is 2% of the window's budget and its rate
//     the other 98% spread over the window, so that no window of that
//     length ever holds more than the budget.
//   - Concurrency: at most MaxConcurrency requests in flight (default 16;
//     GitHub allows 100 and asks for serial requests where possible).
//     --concurrency stays the bound of one fan-out, under this cap.
//   - Pause: a response with Retry-After, or a 403/429 secondary rate limit,
//     stops every request of the credential until the wait is over (Retry-
//     After, else at least a minute, doubled for each further limit hit
//     after a pause: exponential backoff). Requests already in flight when
//     the pause began do not count as new hits. A bucket reported spent
//     (x-ratelimit-remaining: 0) holds its requests until its reset.
//   - Adaptive: each new secondary limit halves the concurrency cap and the
//     rate for the rest of the run; after each quiet RecoverAfter (default
//     a minute) an eighth of the configured values comes back.
//   - Budget: x-ratelimit-* headers of every response are recorded per
//     bucket (core, search, code_search, ...), so that a statement that
//     needs more requests than its bucket has left before the reset can be
//     refused before it starts (Client.CheckBudget).
//
// /rate_limit requests are free on GitHub and bypass the governor.

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
	// that pause).
	SecondaryLimits, Pauses int
	// Concurrency and Rate are the current (possibly halved) bounds.
	Concurrency int
	Rate        float64 // requests per second
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
	changed    chan struct{} // closed when a slot frees or the cap changes
	pauseUntil time.Time
	pauseStart time.Time
	backoff    time.Duration // last secondary pause (for doubling)
	lastLimit  time.Time     // last new secondary limit
	lastGrow   time.Time
	factor     float64 // current fraction of the configured rate
	points     *rate.Limiter
	search     *rate.Limiter
	codeSearch *rate.Limiter
	buckets    map[string]Bucket
	secondary  int
	pauses     int
	probedAt   time.Time
}

// NewGovernor makes a governor (tests and embedding; clients share them
// through SharedGovernor).
func NewGovernor(opts GovernorOptions) *Governor {
	opts.setDefaults()
	g := &Governor{opts: opts, now: time.Now, changed: make(chan struct{}), factor: 1, buckets: map[string]Bucket{}}
	g.limit = opts.MaxConcurrency
	g.points = newLimiter(opts.Rate, 1)
	g.search = newLimiter(opts.SearchRate, 1)
	g.codeSearch = newLimiter(opts.CodeSearchRate, 1)
	return g
}

// newLimiter returns a token bucket that never lets more than r.N requests
// into any window of r.Window (burst 2%, rate 98% of the budget), or nil
// when pacing is off.
func newLimiter(r Rate, factor float64) *rate.Limiter {
	if r.N <= 0 {
		return nil
	}
	burst := max(1, r.N/50)
	return rate.NewLimiter(limitOf(r, burst, factor), burst)
}

func limitOf(r Rate, burst int, factor float64) rate.Limit {
	per := float64(r.N-burst) / r.Window.Seconds()
	if per <= 0 {
		per = float64(r.N) / r.Window.Seconds()
	}
	return rate.Limit(per * factor)
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
	governors[key] = g
	return g
}

// Acquire waits until a request of bucket may be sent: no pause, a free
// concurrency slot, and a token of every rate that applies. It returns
// the time the request was admitted and a release function that must be
// called once when the response (or failure) is in. A bucket of "" (free
// requests) is admitted at once.
func (g *Governor) Acquire(ctx context.Context, bucket string) (time.Time, error) {
	if bucket == "" {
		return g.now(), nil
	}
	for {
		if err := g.waitPause(ctx); err != nil {
			return time.Time{}, err
		}
		if err := g.waitSpent(ctx, bucket); err != nil {
			return time.Time{}, err
		}
		if err := g.acquireSlot(ctx); err != nil {
			return time.Time{}, err
		}
		var err error
		switch bucket {
		case "search":
			err = wait(ctx, g.limiter(&g.search))
		case "code_search":
			err = wait(ctx, g.limiter(&g.codeSearch))
		}
		if err == nil {
			err = wait(ctx, g.limiter(&g.points))
		}
		if err != nil {
			g.releaseSlot()
			return time.Time{}, err
		}
		// A pause may have begun while waiting for a token: wait it out
		// without sending.
		g.mu.Lock()
		now := g.now()
		paused := now.Before(g.pauseUntil)
		g.mu.Unlock()
		if !paused {
			return now, nil
		}
		g.releaseSlot()
	}
}

func (g *Governor) limiter(l **rate.Limiter) *rate.Limiter {
	g.mu.Lock()
	defer g.mu.Unlock()
	return *l
}

func wait(ctx context.Context, l *rate.Limiter) error {
	if l == nil {
		return nil
	}
	return l.Wait(ctx)
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
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
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

func (g *Governor) acquireSlot(ctx context.Context) error {
	for {
		g.mu.Lock()
		if g.limit <= 0 || g.inflight < g.limit {
			g.inflight++
			g.mu.Unlock()
			return nil
		}
		ch := g.changed
		g.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// releaseSlot frees a slot; callers hold no lock.
func (g *Governor) releaseSlot() {
	g.mu.Lock()
	g.inflight--
	g.signalLocked()
	g.mu.Unlock()
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
	defer g.mu.Unlock()
	g.inflight--
	defer g.signalLocked()
	now := g.now()
	if h != nil {
		g.recordLocked(h, now)
	}
	wait := parseRetryAfter(h.Get("Retry-After"), now)
	if !secondaryLimit(*g.opts.RateLimit, status, h, body) {
		if status >= 400 && wait > 0 && !sent.Before(g.pauseStart) && now.Add(wait).After(g.pauseUntil) {
			// Any other error that asks to wait (503 with Retry-After):
			// every request waits, without adapting.
			g.pauseStart, g.pauseUntil = now, now.Add(wait)
			g.pauses++
			g.logfLocked("governor: HTTP %d with Retry-After: pausing every request of this credential for %s", status, wait)
			return
		}
		g.recoverLocked(now)
		return
	}
	g.secondary++
	if sent.Before(g.pauseStart) {
		// In flight when the current pause began: the same episode.
		if until := now.Add(wait); wait > 0 && until.After(g.pauseUntil) && now.Before(g.pauseUntil) {
			g.pauseUntil = until
		}
		return
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
	g.lastGrow = now
	g.pauseStart = now
	g.pauseUntil = now.Add(wait)
	g.pauses++
	// Adapt: halve concurrency and rate for the rest of the run.
	if g.opts.MaxConcurrency > 0 {
		g.limit = max(1, g.limit/2)
	}
	g.factor = max(g.factor/2, 1.0/64)
	g.setRatesLocked()
	g.logfLocked("governor: secondary rate limit: pausing every request of this credential for %s; concurrency now %d, rate %.3g/s", wait.Round(time.Millisecond), g.limit, g.rateLocked())
}

// recoverLocked gives back an eighth of the configured bounds after each
// quiet RecoverAfter since the last secondary limit.
func (g *Governor) recoverLocked(now time.Time) {
	if g.factor >= 1 || now.Sub(g.lastGrow) < g.opts.RecoverAfter {
		return
	}
	g.lastGrow = now
	g.factor = min(1, g.factor+1.0/8)
	if g.opts.MaxConcurrency > 0 {
		g.limit = min(g.opts.MaxConcurrency, g.limit+max(1, g.opts.MaxConcurrency/8))
	}
	g.setRatesLocked()
}

func (g *Governor) setRatesLocked() {
	for _, x := range []struct {
		l *rate.Limiter
		r Rate
	}{{g.points, g.opts.Rate}, {g.search, g.opts.SearchRate}, {g.codeSearch, g.opts.CodeSearchRate}} {
		if x.l != nil {
			x.l.SetLimit(limitOf(x.r, x.l.Burst(), g.factor))
		}
	}
}

func (g *Governor) rateLocked() float64 {
	if g.points == nil {
		return 0
	}
	return float64(g.points.Limit())
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
func (g *Governor) recordLocked(h http.Header, now time.Time) {
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
		return
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
	return GovernorStats{SecondaryLimits: g.secondary, Pauses: g.pauses, Concurrency: g.limit, Rate: g.rateLocked()}
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
