package client

import "time"

// window is a sliding-window log of one rate (e.g. 900 requests per
// minute): the requests in flight plus the end times of the requests
// answered within the last window length. A request is admitted while
// that count is below the budget, so the budget may be spent at once; once
// the window is full, the next request waits until the oldest answer
// leaves it (docs/performance.md, "Rate-limit governor").
//
// An answer's end time is used rather than its send time because the
// provider counts a request when it arrives, somewhere between the two:
// counting from the answer, any budget+1 requests reach the provider more
// than one window length apart, whatever the latency and its jitter.
type window struct {
	n        int           // configured budget per length (> 0)
	length   time.Duration // window length
	inflight int           // admitted, not answered
	ends     []time.Time   // answer times within the last length, ascending
}

func newWindow(r Rate) *window {
	if r.N <= 0 {
		return nil
	}
	return &window{n: r.N, length: r.Window}
}

// budget is the budget scaled by factor (at least 1).
func (w *window) budget(factor float64) int {
	return max(1, int(float64(w.n)*factor))
}

// prune drops the answers that left the window at now.
func (w *window) prune(now time.Time) {
	cut := now.Add(-w.length)
	i := 0
	for i < len(w.ends) && !w.ends[i].After(cut) {
		i++
	}
	if i > 0 {
		w.ends = append(w.ends[:0], w.ends[i:]...)
	}
}

// room reports whether a request may start at now; when not, free is when
// the oldest answer leaves the window (zero when only requests in flight
// fill it: their answers will tell).
func (w *window) room(now time.Time, factor float64) (ok bool, free time.Time) {
	w.prune(now)
	b := w.budget(factor)
	if w.inflight+len(w.ends) < b {
		return true, time.Time{}
	}
	// The window holds b or more: the request may start when enough of
	// the oldest answers have left it.
	if over := w.inflight + len(w.ends) - b; over < len(w.ends) {
		return false, w.ends[over].Add(w.length)
	}
	return false, time.Time{}
}

// done turns a request in flight into an answer at now.
func (w *window) done(now time.Time) {
	w.inflight--
	if n := len(w.ends); n > 0 && now.Before(w.ends[n-1]) {
		now = w.ends[n-1] // keep the log ascending
	}
	w.ends = append(w.ends, now)
}
