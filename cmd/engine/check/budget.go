package check

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/enginehq/engine/engine"
)

// The budget of a run (docs/check.md, "The budget of a run"): before
// anything is sent, the controls' first-page requests are counted over
// distinct URLs (identical GETs are sent once per run), compared with
// what the credential has left (its primary bucket, from the provider's
// free /rate_limit; the governor's windows: 900 per minute, search 30 per
// minute) and with the run's time limit (--run-timeout). A file that
// cannot fit is refused with the figures; one that will take a while
// says how long. A fan-out bound from another table's rows is counted
// once its bindings are known, during the run, and the default time
// limit grows with it.

// Budgeter tells what a credential has left (*engine.Engine).
type Budgeter interface {
	RateBudget(ctx context.Context, provider, path string) (engine.RateBudget, error)
}

// Run time limit defaults: RunTimeoutFloor plus RunTimeoutMargin times the
// time the windows need for the estimated requests, at most
// MaxDefaultRunTimeout.
const (
	RunTimeoutFloor      = 5 * time.Minute
	RunTimeoutMargin     = 2
	MaxDefaultRunTimeout = 6 * time.Hour
)

// NoticeAfter is the estimated duration from which the run says how long
// it will take.
const NoticeAfter = 5 * time.Second

// RunTimeoutFlag names the run's time limit on the command line.
const RunTimeoutFlag = "--run-timeout"

type bucketKey struct{ provider, bucket string }

// Estimate counts a run's distinct first-page requests per provider and
// rate-limit bucket. It is safe for concurrent use (Add during the run).
type Estimate struct {
	mu      sync.Mutex
	keys    map[string]bool
	counts  map[bucketKey]int
	paths   map[bucketKey]string
	order   []bucketKey
	fanOuts map[string]bool // dependent fan-outs whose bindings are not known yet
	windows map[string][]engine.Window
}

// NewEstimate counts the first-page requests of the prepared controls.
func NewEstimate(controls []*Control) *Estimate {
	e := &Estimate{keys: map[string]bool{}, counts: map[bucketKey]int{}, paths: map[bucketKey]string{}, fanOuts: map[string]bool{}, windows: map[string][]engine.Window{}}
	for _, c := range controls {
		if c.prepared == nil {
			continue
		}
		for _, f := range c.prepared.Fetches() {
			if f.Dependent {
				e.fanOuts[f.Source] = true
				continue
			}
			e.add(f)
		}
	}
	return e
}

// Add counts the requests of a fan-out whose bindings became known; it
// reports whether any was new to the run.
func (e *Estimate) Add(f engine.Fetch) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.fanOuts, f.Source)
	return e.add(f)
}

func (e *Estimate) add(f engine.Fetch) bool {
	if f.Bucket == "" {
		return false // free requests
	}
	k := bucketKey{f.Provider, f.Bucket}
	n := 0
	if f.Keys == nil {
		n = f.Count // too many to list: counted as distinct
	}
	for _, key := range f.Keys {
		if !e.keys[key] {
			e.keys[key] = true
			n++
		}
	}
	if n == 0 {
		return false
	}
	if _, ok := e.paths[k]; !ok {
		e.paths[k] = f.Path
		e.order = append(e.order, k)
	}
	e.counts[k] += n
	return true
}

// Pending is the number of fan-outs whose keys are not known yet.
func (e *Estimate) Pending() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.fanOuts)
}

// Requests is the distinct first-page requests counted so far.
func (e *Estimate) Requests() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := 0
	for _, c := range e.counts {
		n += c
	}
	return n
}

// Duration is the time the credentials' windows need for the requests
// counted so far: for each provider, its requests against its window of
// every request (GitHub: 900 per minute), and each bucket's against its
// own (search: 30 per minute); the longest. A window's budget goes at
// once and each further budget's worth waits one more window length, so
// 1,850 requests at 900/min need 2 min (the latency of the requests
// comes on top). rate names that window.
func (e *Estimate) Duration() (d time.Duration, rate string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	total := map[string]int{}
	for k, n := range e.counts {
		total[k.provider] += n
	}
	for provider, ws := range e.windows {
		for _, w := range ws {
			n := total[provider]
			if w.Bucket != "" {
				n = e.counts[bucketKey{provider, w.Bucket}]
			}
			if w.N <= 0 || n == 0 {
				continue
			}
			// A window's budget may be spent at once; each further
			// budget's worth waits one more window length.
			if t := time.Duration((n-1)/w.N) * w.Per; t > d {
				d, rate = t, windowName(w)
			}
		}
	}
	return d, rate
}

func windowName(w engine.Window) string {
	per := "/" + w.Per.String()
	if w.Per == time.Minute {
		per = "/min"
	}
	s := thousands(w.N) + per
	if w.Bucket != "" {
		s += " (" + w.Bucket + ")"
	}
	return s
}

// DefaultRunTimeout is the run's time limit when --run-timeout is not
// given: RunTimeoutFloor plus RunTimeoutMargin times d, at most
// MaxDefaultRunTimeout.
func DefaultRunTimeout(d time.Duration) time.Duration {
	return defaultRunTimeout(RunTimeoutFloor, d)
}

func defaultRunTimeout(floor, d time.Duration) time.Duration {
	return min(max(floor, RunTimeoutFloor)+RunTimeoutMargin*d, MaxDefaultRunTimeout)
}

// RunFloor is the floor of a default run time limit for controls run
// parallel at a time, each within queryTimeout of its own work: the time
// they could take one wave after another, each to its limit (a run that
// did not time out before the run had a limit does not now); no floor of
// its own (MaxDefaultRunTimeout) without a query timeout.
func RunFloor(controls, parallel int, queryTimeout time.Duration) time.Duration {
	if queryTimeout <= 0 {
		return MaxDefaultRunTimeout
	}
	waves := (controls + max(parallel, 1) - 1) / max(parallel, 1)
	return min(time.Duration(waves)*queryTimeout, MaxDefaultRunTimeout)
}

// BudgetPlan is what the budget decided before the run.
type BudgetPlan struct {
	Estimate *Estimate
	// Floor is the default time limit's floor (RunFloor).
	Floor time.Duration
	// RunTimeout is the run's time limit: the flag's, else the default.
	RunTimeout time.Duration
	// Explicit: RunTimeout is the flag's, and does not grow.
	Explicit bool
	// Notice says how long the run will take ("" when short).
	Notice string
	// Started is when the run began (the command's own start: the rate
	// limit probes before the controls count against the limit too); zero:
	// when the controls start.
	Started time.Time
	// Notify, when set, receives the notice of a run found long only once
	// its fan-outs' requests are known (at most one notice a run).
	Notify  func(string)
	noticed atomic.Bool
	// deadline is the run's, once it started (runtimeout.go).
	deadline *runDeadline
}

// grown tells Notify, once, that the run turned out long: once the keys
// of every fan-out are in, its requests need NoticeAfter or more.
func (bp *BudgetPlan) grown() {
	if bp.Notify == nil || bp.Notice != "" {
		return
	}
	if bp.Estimate.Pending() > 0 {
		return // said once every fan-out is counted
	}
	d, rate := bp.Estimate.Duration()
	if d < NoticeAfter || !bp.noticed.CompareAndSwap(false, true) {
		return
	}
	limit := "--run-timeout " + roundDuration(bp.RunTimeout)
	if rd := bp.deadline; rd != nil {
		rd.mu.Lock()
		limit = roundDuration(rd.limit)
		rd.mu.Unlock()
	}
	bp.Notify(fmt.Sprintf("notice: ~%s requests, the fan-outs' keys now known: about %s at %s (the run's time limit is %s)",
		thousands(bp.Estimate.Requests()), roundDuration(d), rate, limit))
}

// PlanBudget estimates the run of controls and checks it against the
// credentials' budgets and runTimeout (0: the default, derived from the
// estimate, at least floor plus the margin: RunFloor). It returns the
// problem that refuses the run, or the plan.
// Only the providers' free rate-limit endpoints are asked.
func PlanBudget(ctx context.Context, b Budgeter, file string, controls []*Control, runTimeout, floor time.Duration) (*BudgetPlan, *Problem) {
	est := NewEstimate(controls)
	bp := &BudgetPlan{Estimate: est, RunTimeout: runTimeout, Explicit: runTimeout > 0, Floor: floor}
	type known struct {
		k  bucketKey
		rb engine.RateBudget
	}
	var buckets []known
	for _, k := range est.order {
		rb, err := b.RateBudget(ctx, k.provider, est.paths[k])
		if err != nil {
			continue // the controls fail on it, each with its error
		}
		if _, ok := est.windows[k.provider]; !ok {
			est.windows[k.provider] = nil
		}
		for _, w := range rb.Windows {
			if !slices.Contains(est.windows[k.provider], w) {
				est.windows[k.provider] = append(est.windows[k.provider], w)
			}
		}
		if rb.Known {
			buckets = append(buckets, known{k, rb})
		}
	}
	d, rate := est.Duration()
	if !bp.Explicit {
		bp.RunTimeout = defaultRunTimeout(floor, d)
	}
	n := est.Requests()
	fanOuts := ""
	if len(est.fanOuts) > 0 {
		fanOuts = fmt.Sprintf(", besides %s bound from other tables' rows (one request per row, counted once the rows are in)", plural(len(est.fanOuts), "fan-out"))
	}
	refuse := func(format string, args ...any) (*BudgetPlan, *Problem) {
		return nil, &Problem{File: file, Message: fmt.Sprintf(format, args...)}
	}
	deadline := time.Now().Add(bp.RunTimeout)
	for _, kb := range buckets {
		need, bb := est.counts[kb.k], kb.rb.Bucket
		if need <= bb.Remaining {
			continue
		}
		reset := "at " + bb.Reset.UTC().Format(time.RFC3339) + " (in " + roundDuration(time.Until(bb.Reset)) + ")"
		switch {
		case need > bb.Limit:
			return refuse("budget: the controls need about %s requests of %s's %q rate-limit bucket (distinct URLs, first pages%s), more than it holds (%s per reset; %s remain until the reset %s); nothing was sent. Split the file into runs that each fit (--only ID,... or several files), or use a credential with a larger budget (a GitHub App installation)",
				thousands(need), kb.k.provider, bb.Bucket, fanOuts, thousands(bb.Limit), thousands(bb.Remaining), reset)
		case bb.Reset.IsZero() || bb.Reset.After(deadline):
			return refuse("budget: the controls need about %s requests of %s's %q rate-limit bucket (distinct URLs, first pages%s) but only %s of %s remain until the reset %s, after the run's time limit (%s %s); nothing was sent. Run after the reset, run fewer controls (--only ID,...) or split the file, raise %s past the reset to wait for it, or use another credential",
				thousands(need), kb.k.provider, bb.Bucket, fanOuts, thousands(bb.Remaining), thousands(bb.Limit), reset, RunTimeoutFlag, roundDuration(bp.RunTimeout), RunTimeoutFlag)
		}
		// The reset comes within the run's time: the run waits for it.
		if wait := time.Until(bb.Reset); wait > d {
			d, rate = wait, fmt.Sprintf("the reset of %q, %s", bb.Bucket, reset)
		}
	}
	if bp.Explicit && d > bp.RunTimeout {
		return refuse("budget: the controls need about %s requests (distinct URLs, first pages%s), about %s at %s, more than the run's time limit (%s %s); nothing was sent. Raise %s, or run fewer controls (--only ID,...) or split the file",
			thousands(n), fanOuts, roundDuration(d), rate, RunTimeoutFlag, roundDuration(bp.RunTimeout), RunTimeoutFlag)
	}
	if d >= NoticeAfter {
		bp.Notice = fmt.Sprintf("notice: ~%s requests%s: about %s at %s (the run's time limit is %s)", thousands(n), fanOuts, roundDuration(d), rate, roundDuration(bp.RunTimeout))
	}
	return bp, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return thousands(n) + " " + word + "s"
}

// thousands writes n with commas: 1,850.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// roundDuration writes d as people read it: 2 min 3 s, 1 h 5 min, 4 s.
func roundDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	var parts []string
	if h > 0 {
		parts = append(parts, strconv.Itoa(h)+" h")
	}
	if m > 0 {
		parts = append(parts, strconv.Itoa(m)+" min")
	}
	if s > 0 && h == 0 || len(parts) == 0 {
		parts = append(parts, strconv.Itoa(s)+" s")
	}
	return strings.Join(parts, " ")
}
