package client

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Shared fetches (docs/check.md, "One request per URL per run"):
//
//   - In flight, process-wide: a GET whose URL, credential, headers and
//     Accept equal those of a GET this client is already sending is not
//     sent again; its asker waits for the one in flight and reads the same
//     answer (status, headers, body), an error answer included, which so
//     becomes the same error.
//   - Within a run (a Run opened by the caller with OpenRun: one `check`
//     run, one `exec -f` script, one statement when no run is open), an
//     answer is kept until the run closes and every later identical GET of
//     the run reads it without a request. Only answers received during the
//     run are kept or joined (a request in flight that was sent before the
//     run opened is not), so a run never reads an answer older than itself.
//   - What is not shared: the asker's own end (its context cancelled or
//     past its deadline) and its statement's request limit
//     (RequestLimitError) are the asker's; a waiter then asks again itself.
//   - Each page read from another asker's request counts as Stats.Shared
//     (not as a request, nor as fetched), on every surface.
//
// A run keeps at most MaxRunBytes of bodies (a statement's own run,
// StatementRunBytes: its pages stream into its table, and keeping them
// would hold the statement's whole answer in memory twice); past that,
// answers are still shared while in flight but no longer kept.

// MaxRunBytes bounds the bodies a Run opened with OpenRun keeps.
const MaxRunBytes = 64 << 20

// StatementRunBytes bounds the bodies a statement's own run keeps
// (OpenRunBytes).
const StatementRunBytes = 1 << 20

type runKey struct{}

// Run is the scope within which identical GETs are sent once (OpenRun).
// It is safe for concurrent use.
type Run struct {
	opened time.Time
	mu     sync.Mutex
	m      map[string]*flight
	bytes  int64
	max    int64
	closed bool
}

// OpenRun opens a run scope on ctx: the calls of every client made under
// the returned context send each identical GET once (see above) until
// Close. A context that already carries an open run keeps it (a statement
// inside a check run belongs to the run), and the returned Run is then
// that one; close is a no-op for the inner opener.
func OpenRun(ctx context.Context) (context.Context, func()) {
	return OpenRunBytes(ctx, MaxRunBytes)
}

// OpenRunBytes is OpenRun keeping at most maxBytes of answers.
func OpenRunBytes(ctx context.Context, maxBytes int64) (context.Context, func()) {
	if r := runOf(ctx); r != nil {
		return ctx, func() {}
	}
	r := &Run{opened: time.Now(), m: map[string]*flight{}, max: maxBytes}
	return context.WithValue(ctx, runKey{}, r), r.Close
}

// Close drops the answers the run kept; later GETs are sent again.
func (r *Run) Close() {
	r.mu.Lock()
	r.m, r.bytes, r.closed = nil, 0, true
	r.mu.Unlock()
}

func runOf(ctx context.Context) *Run {
	r, _ := ctx.Value(runKey{}).(*Run)
	return r
}

// flight is one GET, in flight or answered.
type flight struct {
	started time.Time
	done    chan struct{}
	// Set before done is closed.
	resp *response
	err  error
	mine bool // the leader's own end (not shared): ask again
	runs []*Run
}

// sharedFetch is fetch, sent once per identical GET in flight and per run.
func (c *Client) sharedFetch(ctx context.Context, call Call, rawURL string, stats *callStats) (*response, error) {
	key := c.shareKey(call, rawURL)
	run := runOf(ctx)
	for {
		f, lead := c.join(run, key)
		if lead {
			resp, err := c.fetch(ctx, call, rawURL, stats)
			c.land(key, f, resp, err, ctx.Err() != nil || isOwnEnd(err))
			return resp, err
		}
		c.waiting.Add(1)
		end := queueWait(ctx) // another asker's request: not this statement's work
		select {
		case <-f.done:
		case <-ctx.Done():
			c.waiting.Add(-1)
			end()
			return nil, ctx.Err()
		}
		end()
		c.waiting.Add(-1)
		if f.mine {
			continue // the leader's own end: ask again
		}
		c.logf("GET %s -> shared (sent once for this run)", c.sanitize(rawURL))
		if f.resp == nil {
			return nil, f.err
		}
		cp := *f.resp // the page is counted as shared where it is counted (getPage)
		cp.shared = true
		return &cp, f.err
	}
}

// isOwnEnd reports an error that belongs to its asker, not to the URL.
func isOwnEnd(err error) bool {
	var rl *RequestLimitError
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &rl)
}

// join returns the flight of key to wait for, or a new one to lead.
func (c *Client) join(run *Run, key string) (f *flight, lead bool) {
	if run != nil {
		run.mu.Lock()
		defer run.mu.Unlock()
		if f := run.m[key]; f != nil && !run.closed {
			return f, false
		}
	}
	c.flightMu.Lock()
	defer c.flightMu.Unlock()
	if f := c.flights[key]; f != nil && (run == nil || !f.started.Before(run.opened)) {
		if run != nil && !run.closed {
			f.runs = append(f.runs, run)
			run.m[key] = f
		}
		return f, false
	}
	f = &flight{started: time.Now(), done: make(chan struct{})}
	if c.flights == nil {
		c.flights = map[string]*flight{}
	}
	c.flights[key] = f
	if run != nil && !run.closed {
		f.runs = append(f.runs, run)
		run.m[key] = f
	}
	return f, true
}

// land records the answer of a flight this client led and wakes its
// waiters; the runs that hold it keep it, unless it is the leader's own
// end or over their byte bound.
func (c *Client) land(key string, f *flight, resp *response, err error, mine bool) {
	f.resp, f.err, f.mine = resp, err, mine
	c.flightMu.Lock()
	if c.flights[key] == f {
		delete(c.flights, key)
	}
	runs := f.runs
	f.runs = nil
	c.flightMu.Unlock()
	close(f.done)
	var size int64
	if resp != nil {
		size = int64(len(resp.body)) + 512
	}
	for _, r := range runs {
		r.mu.Lock()
		if r.m[key] == f {
			if mine || r.bytes+size > r.max {
				delete(r.m, key)
			} else {
				r.bytes += size
			}
		}
		r.mu.Unlock()
	}
}

// shareKey identifies a GET for sharing: the response cache's key (URL,
// credential identity, the provider's and the call's headers) and the
// method's Accept.
func (c *Client) shareKey(call Call, rawURL string) string {
	accept := ""
	if call.Method != nil {
		accept = call.Method.Accept
	}
	return c.cacheKey(call, rawURL) + "\x00" + accept
}
