package client

import "context"

// Queue time (docs/check.md, "Time limits"): a statement's requests may
// wait for things that are not its own work: the credential's rate window
// filled by other statements' requests (or its own), a pause after a
// secondary limit, a spent primary bucket's reset, another process's
// room in the shared window, or another statement's request in flight
// for the same URL (share.go). A caller that times statements by their
// own work (engine check's --query-timeout) puts a QueueClock on the
// statement's context; the client tells it when each such wait starts
// and ends. A wait for a concurrency slot is not queue time: the slots
// are held by requests in flight, which is work.

// QueueClock is told of a statement's waits in queues not its own work.
// Queued is called when a wait starts, and the function it returns when
// that wait ends (once). Waits of concurrent requests overlap; the clock
// decides what that means (engine: no time counts while any waits).
type QueueClock interface {
	Queued() (end func())
}

type queueClockKey struct{}

// WithQueueClock returns ctx whose requests report their queue waits to
// qc.
func WithQueueClock(ctx context.Context, qc QueueClock) context.Context {
	return context.WithValue(ctx, queueClockKey{}, qc)
}

// queueWait reports the start of a queue wait of ctx's statement and returns
// its end (a no-op without a clock).
func queueWait(ctx context.Context) func() {
	if qc, ok := ctx.Value(queueClockKey{}).(QueueClock); ok && qc != nil {
		return qc.Queued()
	}
	return func() {}
}
