package check

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/enginehq/engine/engine"
)

// The run's time limit (--run-timeout; docs/check.md, "Time limits"):
// when it runs out, the controls still running and those not started end
// in error of kind timeout, never a pass. Given on the command line it is
// fixed; by default it is derived from the estimate (DefaultRunTimeout)
// and grows as the run learns its fan-outs' requests.

// runTimeoutError is the cause of a run stopped by its time limit.
type runTimeoutError struct{ limit time.Duration }

func (e *runTimeoutError) Error() string {
	return fmt.Sprintf("the run's time limit (%s %s) ran out", RunTimeoutFlag, roundDuration(e.limit))
}

// runDeadline cancels the run when its time limit passes; a default limit
// grows with the estimate (grow).
type runDeadline struct {
	bp     *BudgetPlan
	start  time.Time
	cancel context.CancelCauseFunc

	mu    sync.Mutex
	limit time.Duration
	timer *time.Timer
}

// bound puts the plan's time limit on the run's context (none for a nil
// plan or a limit of 0).
func (bp *BudgetPlan) bound(ctx context.Context) (context.Context, func()) {
	if bp == nil || bp.RunTimeout <= 0 {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	start := bp.Started
	if start.IsZero() {
		start = time.Now()
	}
	rd := &runDeadline{bp: bp, start: start, cancel: cancel, limit: bp.RunTimeout}
	rd.timer = time.AfterFunc(time.Until(start.Add(rd.limit)), rd.fire)
	bp.deadline = rd
	return ctx, func() {
		rd.timer.Stop()
		cancel(context.Canceled)
	}
}

func (rd *runDeadline) fire() {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if left := rd.limit - time.Since(rd.start); left > 0 {
		rd.timer.Reset(left) // the limit grew meanwhile
		return
	}
	rd.cancel(&runTimeoutError{limit: rd.limit})
}

// grow raises a default limit to the one the estimate now derives.
func (rd *runDeadline) grow() {
	if rd == nil || rd.bp.Explicit {
		return
	}
	d, _ := rd.bp.Estimate.Duration()
	l := defaultRunTimeout(rd.bp.Floor, d)
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if l > rd.limit {
		rd.limit = l
		rd.timer.Reset(time.Until(rd.start.Add(l)))
	}
}

// fetched is QueryOptions.Fetch of the run's controls: a fan-out's
// requests, once known, join the estimate.
func (bp *BudgetPlan) fetched() func(engine.Fetch) {
	if bp == nil {
		return nil
	}
	return func(f engine.Fetch) {
		if bp.Estimate.Add(f) {
			bp.deadline.grow()
		}
		bp.grown()
	}
}

// runTimedOut is the error of a control that the run's time limit
// stopped (started) or left unstarted, or nil when the run goes on.
func runTimedOut(ctx context.Context, started bool) *engine.ErrorBody {
	var rt *runTimeoutError
	if ctx.Err() == nil || !errors.As(context.Cause(ctx), &rt) {
		return nil
	}
	what := "before this control was started"
	if started {
		what = "before this control finished"
	}
	return &engine.ErrorBody{Kind: engine.KindTimeout, Message: fmt.Sprintf(
		"%s %s; it was not evaluated. Raise %s, or run fewer controls (--only ID,...) or split the file", rt.Error(), what, RunTimeoutFlag)}
}
