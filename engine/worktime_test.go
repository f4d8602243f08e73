package engine

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The work clock stops while a request of the statement waits in a
// queue (client.QueueClock) and runs out on the statement's own work.
// Only the order of events is asserted: the queued stretch is longer
// than the limit and the statement is still running after it; the limit
// then runs out on work, naming the time queued besides.
func TestWorkClockDoesNotCountQueueTime(t *testing.T) {
	ctx, qc, cancel := workBound(context.Background(), time.Second)
	defer cancel()
	end := qc.Queued()
	inner := qc.Queued() // two requests waiting at once
	time.Sleep(1500 * time.Millisecond)
	inner()
	if ctx.Err() != nil {
		t.Fatal("the statement timed out while only waiting in the queue")
	}
	end()
	<-ctx.Done()
	var qt *QueryTimeoutError
	if !errors.As(context.Cause(ctx), &qt) || qt.Queued < time.Second {
		t.Fatalf("cause %v, want a QueryTimeoutError with at least 1s queued", context.Cause(ctx))
	}
	if timedOut(ctx, ctx.Err()) != error(qt) {
		t.Error("timedOut does not name the limit")
	}
}
