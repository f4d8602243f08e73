package client

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// NoticeMin is the shortest wait a notice is given for: shorter pacing
// is not worth a line.
const NoticeMin = time.Second

// A statement's notices (WithNotice) tell its user, once, why it is
// waiting when the wait is the statement's own doing and long enough to
// look like a hang: today a search over the provider's result cap split
// into more requests than the search rate window has left (capsplit.go).
// The surfaces print them beside the result, never in it: exec and the
// shell on stderr, the MCP server as a progress notification's message.

type noticeKey struct{}

// notices is a statement's notice function, said at most once.
type notices struct {
	say  func(string)
	once sync.Once
}

// WithNotice returns ctx whose statement reports its long waits to say
// (at most one notice per statement; say must not block for long).
func WithNotice(ctx context.Context, say func(msg string)) context.Context {
	if say == nil {
		return ctx
	}
	return context.WithValue(ctx, noticeKey{}, &notices{say: say})
}

func noticesFrom(ctx context.Context) *notices {
	n, _ := ctx.Value(noticeKey{}).(*notices)
	return n
}

// splitProgress is what a split search has done and still needs, for
// its notice: requests sent and the total (at least, until the parts are
// known).
type splitProgress struct {
	provider      string
	total, served int // matches, and what one query serves
	sent, planned atomic.Int64
	exact         atomic.Bool
}

type splitKey struct{}

func withSplit(ctx context.Context, sp *splitProgress) context.Context {
	return context.WithValue(ctx, splitKey{}, sp)
}

// noticeWait says, once per statement, that a request of a split search
// waits d for the governor (why: governor.Delay's reason).
func noticeWait(ctx context.Context, d time.Duration, why string) {
	n := noticesFrom(ctx)
	sp, _ := ctx.Value(splitKey{}).(*splitProgress)
	if n == nil || sp == nil || d < NoticeMin {
		return
	}
	n.once.Do(func() {
		what := "at least "
		if sp.exact.Load() {
			what = ""
		}
		n.say(fmt.Sprintf("waiting %s for %s's %s: the search matched %d results, more than the %d served of one query, so it is split into date ranges; %d of %s%d requests sent",
			d.Round(time.Second), sp.provider, why, sp.total, sp.served, sp.sent.Load(), what, sp.planned.Load()))
	})
}

// noticeShared says, once per statement, that a request has waited d for
// the credential's window shared with other processes (--state).
func noticeShared(ctx context.Context, g *Governor, d time.Duration) {
	n := noticesFrom(ctx)
	if n == nil || g.points == nil {
		return
	}
	n.once.Do(func() {
		n.say(fmt.Sprintf("waiting (%s so far) for the credential's rate window (%d requests/%s), shared with the other processes using --state; the statement goes on as it has room",
			d.Round(time.Second), g.points.budget(1), per(g.points.length)))
	})
}

// Delay is how long a request of bucket would wait for its admission now
// (0: none), and what for: a pause after a secondary limit, the bucket
// spent until its reset, or a full rate window ("search rate window (30
// requests/min)"). It takes nothing.
func (g *Governor) Delay(bucket string) (time.Duration, string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	var d time.Duration
	why := ""
	if now.Before(g.pauseUntil) {
		d, why = g.pauseUntil.Sub(now), "pause after a secondary rate limit"
	}
	if b, ok := g.buckets[bucket]; ok && b.Remaining <= 0 && !b.Reset.IsZero() && now.Before(b.Reset) && b.Reset.Sub(now) > d {
		d, why = b.Reset.Sub(now), fmt.Sprintf("%q rate-limit bucket (spent until its reset)", bucket)
	}
	names := map[*window]string{g.points: "rate window of all requests", g.search: "search rate window", g.codeSearch: "code search rate window"}
	for _, w := range g.windows(bucket) {
		if ok, free := w.room(now, g.factor); !ok && !free.IsZero() && free.Sub(now) > d {
			d, why = free.Sub(now), fmt.Sprintf("%s (%d requests/%s)", names[w], w.budget(g.factor), per(w.length))
		}
	}
	return d, why
}

// per is a window length as a rate's unit: "min", "h", else "3s".
func per(d time.Duration) string {
	switch d {
	case time.Minute:
		return "min"
	case time.Hour:
		return "h"
	}
	return d.String()
}

// noticeSay says msg once per statement (a provider's documented window,
// such as GitHub's 300 events: paginate.go's countCapReached).
func noticeSay(ctx context.Context, msg string) {
	if n := noticesFrom(ctx); n != nil {
		n.once.Do(func() { n.say(msg) })
	}
}
