package client

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/enginehq/engine/providers"
)

// Statement admission across processes (--state; docs/orgscale.md,
// "Admission"). Processes that share a credential's rate window also
// share a queue of statements: before a statement sends a known number
// of requests (a fan-out, the numbered pages after the first), it
// reserves them in the queue. When the requests the admitted statements
// still hold and its own cannot be served by the shared window before its
// deadline, or before the earliest deadline of those admitted (a new
// statement never pushes an admitted one past its limit), it is refused
// at once (retryable, with the time the window
// will have room), instead of starting and timing out after spending its
// share: the statements admitted finish. A failing shared state admits
// (the local bounds hold).

// admitMargin is the part of a statement's time left that its requests
// may be planned into: the rest is for the answers' latency and SQLite.
const admitMargin = 0.75

// Reservation is a statement's request for N more requests of the
// window of a credential (SharedState.Reserve).
type Reservation struct {
	Stmt   string        // the statement's id (unique per run)
	N      int           // requests it is about to send
	Window SharedWindow  // the window of all requests ("points")
	Left   time.Duration // the time it may plan into (0: no deadline)
	TTL    time.Duration // the lease of its place in the queue
}

// Reserved is SharedState.Reserve's answer: OK, or the time after which
// the requests ahead will have been sent (RetryAfter); Ahead is how many
// requests older statements still hold, Wait how long its last request
// is expected to wait.
type Reserved struct {
	OK         bool
	Ahead      int
	Wait       time.Duration
	RetryAfter time.Duration
}

// Statement is one statement's place in the shared queues of the
// credentials it uses (WithStatement).
type Statement struct {
	id   string
	mu   sync.Mutex
	govs map[*Governor]bool
}

type statementKey struct{}

// WithStatement returns ctx for one statement's run, and the function
// that ends it (its places in the shared queues are given up).
func WithStatement(ctx context.Context) (context.Context, func()) {
	s := &Statement{id: newAdmissionID(), govs: map[*Governor]bool{}}
	return context.WithValue(ctx, statementKey{}, s), s.end
}

func statementFrom(ctx context.Context) *Statement {
	s, _ := ctx.Value(statementKey{}).(*Statement)
	return s
}

func (s *Statement) end() {
	s.mu.Lock()
	govs := s.govs
	s.govs = nil
	s.mu.Unlock()
	for g := range govs {
		g.unreserve(s.id)
	}
}

// reserve places n requests of path's bucket in the shared queue of its
// credential, or refuses the statement (a retryable *ProviderError of
// Kind "budget") when the window cannot serve them before its deadline.
func (c *Client) reserve(ctx context.Context, path string, n int) error {
	gov := c.govFor(path)
	st := statementFrom(ctx)
	if gov == nil || gov.opts.Shared == nil || gov.points == nil || st == nil || n <= 0 || c.BucketOf(path) == "" {
		return nil
	}
	var left time.Duration
	if dl, ok := ctx.Deadline(); ok {
		left = time.Duration(float64(time.Until(dl)) * admitMargin)
		if left <= 0 {
			return nil // the deadline says the rest
		}
	}
	res, ok := gov.reserve(st, n, left)
	if !ok || res.OK {
		return nil
	}
	w := gov.points
	retry := max(res.RetryAfter, time.Second).Round(time.Second)
	pe := &providers.ProviderError{
		Provider:    c.provider,
		Method:      http.MethodGet,
		URL:         c.redact(c.baseStr + path),
		Kind:        "budget",
		Retryable:   true,
		RateLimited: true,
		RetryAfter:  retry,
		Message: fmt.Sprintf("not sent: the credential's rate window (%d requests/%s) is shared with other processes (--state) and busy: %d requests of statements already admitted are queued besides this one's %d, which would wait about %s, past this statement's time limit; nothing more was sent. Retry in about %s, when the window has room",
			w.budget(1), per(w.length), res.Ahead, n, res.Wait.Round(time.Second), retry),
	}
	return pe
}

// reserve asks the shared state for n requests of the statement; ok is
// false when it failed (said by g.shared: the statement goes on).
func (g *Governor) reserve(st *Statement, n int, left time.Duration) (Reserved, bool) {
	g.mu.Lock()
	r := Reservation{Stmt: st.id, N: n, Window: SharedWindow{Name: "points", N: g.points.budget(g.factor), Length: g.points.length}, Left: left, TTL: g.opts.SlotTTL}
	g.mu.Unlock()
	var res Reserved
	if err := g.shared.Do(context.Background(), 0, func(ctx context.Context) (err error) {
		res, err = g.opts.Shared.Reserve(ctx, g.key(), r)
		return err
	}); err != nil {
		return Reserved{}, false
	}
	if res.OK {
		st.mu.Lock()
		if st.govs != nil {
			st.govs[g] = true
		}
		st.mu.Unlock()
		g.mu.Lock()
		if g.queued == nil {
			g.queued = map[string]bool{}
		}
		g.queued[st.id] = true
		start := !g.renewing
		g.renewing = true
		g.mu.Unlock()
		if start {
			go g.renewLoop()
		}
	}
	return res, true
}

func (g *Governor) unreserve(id string) {
	g.mu.Lock()
	delete(g.queued, id)
	g.mu.Unlock()
	g.shared.Do(context.Background(), 0, func(ctx context.Context) error { //nolint:errcheck // said by g.shared; the lease lapses
		return g.opts.Shared.Unreserve(ctx, g.key(), id)
	})
}
