package engine

import (
	"context"
	"sync"
	"time"

	"github.com/enginehq/engine/providers/client"
)

// workClock bounds a statement by its own work (Options.QueueNotCounted):
// its time limit runs while the statement works and stops while any of
// its requests waits in a queue that is not its work (client.QueueClock:
// the credential's rate window, a pause after a secondary limit, a spent
// bucket's reset, another statement's request for the same URL). When the
// work passes the limit, the statement's context is cancelled with a
// *QueryTimeoutError as its cause. The context carries no deadline of the
// limit's: the retry and split budgets that read a deadline see the
// caller's (a check run's --run-timeout).
type workClock struct {
	limit  time.Duration
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	used    time.Duration // work before since
	since   time.Time     // start of the stretch being counted (waiting == 0)
	waiting int           // queue waits under way
	queued  time.Duration // time not counted, for the message
	paused  time.Time     // start of the current queue stretch (waiting > 0)
	timer   *time.Timer
	ended   bool
}

func (e *Engine) workBounded(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, _, cancel := workBound(ctx, e.opts.QueryTimeout)
	return ctx, cancel
}

// workBound puts a work clock of limit on ctx.
func workBound(ctx context.Context, limit time.Duration) (context.Context, *workClock, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	c := &workClock{limit: limit, cancel: cancel, since: time.Now()}
	c.timer = time.AfterFunc(c.limit, c.fire)
	return client.WithQueueClock(ctx, c), c, func() {
		c.mu.Lock()
		c.ended = true
		c.timer.Stop()
		c.mu.Unlock()
		cancel(context.Canceled)
	}
}

// Queued stops the clock until every wait under way has ended.
func (c *workClock) Queued() func() {
	now := time.Now()
	c.mu.Lock()
	if c.waiting == 0 && !c.ended {
		c.used += now.Sub(c.since)
		c.paused = now
		c.timer.Stop()
	}
	c.waiting++
	c.mu.Unlock()
	var once sync.Once
	return func() { once.Do(c.resume) }
}

func (c *workClock) resume() {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waiting--
	if c.waiting == 0 && !c.ended {
		c.queued += now.Sub(c.paused)
		c.since = now
		c.timer.Reset(c.limit - c.used)
	}
}

// fire ends the statement when its work has reached the limit; a timer
// that fired while a wait began, or before a resume moved it, is late
// news and is set again.
func (c *workClock) fire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended || c.waiting > 0 {
		return
	}
	if left := c.limit - c.used - time.Since(c.since); left > 0 {
		c.timer.Reset(left)
		return
	}
	c.ended = true
	c.cancel(&QueryTimeoutError{Limit: c.limit, Queued: c.queued.Round(time.Second)})
}
