package check

import (
	"context"
	"sync"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
)

// Status is how a control ended.
type Status string

// The three outcomes. There is no other: a control that could not be
// evaluated is an error, never a pass.
const (
	Pass  Status = "pass"
	Fail  Status = "fail"
	Error Status = "error"
)

// DefaultMaxRows caps the offending rows kept per failed control.
const DefaultMaxRows = 20

// Querier runs one statement (*engine.Engine): Run uses it only for a
// control that Validate did not prepare.
type Querier interface {
	Query(ctx context.Context, sql string, qo engine.QueryOptions) (*result.Result, error)
}

// Outcome is the result of one control.
type Outcome struct {
	Control *Control
	Status  Status
	// RowCount is the statement's true row count; Rows holds at most
	// MaxRows of them (set on fail only).
	RowCount int
	Columns  []result.Column
	Rows     [][]any
	// Waived are the failed rows that waivers cover (Waivers.Apply), with
	// each one's reason; they are not in Rows.
	Waived        [][]any
	WaivedReasons []string
	// Err is set when Status is Error.
	Err      *engine.ErrorBody
	Stats    result.Stats
	Duration time.Duration
}

// RowsTruncated reports whether rows were left out of Rows.
func (o *Outcome) RowsTruncated() bool { return o.Status == Fail && len(o.Rows) < o.RowCount }

// Report is every outcome of one run, in file order.
type Report struct {
	File     string
	Outcomes []*Outcome
	Started  time.Time
	Duration time.Duration
}

// Totals counts outcomes.
type Totals struct {
	Controls int `json:"controls"`
	Pass     int `json:"pass"`
	Fail     int `json:"fail"`
	Waived   int `json:"waived,omitempty"`
	Error    int `json:"error"`
}

// Totals counts the report's outcomes.
func (r *Report) Totals() Totals {
	t := Totals{Controls: len(r.Outcomes)}
	for _, o := range r.Outcomes {
		switch o.Status {
		case Pass:
			t.Pass++
		case Fail:
			t.Fail++
		case Waived:
			t.Waived++
		default:
			t.Error++
		}
	}
	return t
}

// Exit codes of check (docs/architecture.md, "Exit codes").
const (
	ExitPass  = 0
	ExitFail  = 1
	ExitError = 2
)

// ExitCode is 0 when every control passed, 2 when any errored (error
// outranks fail), else 1. A report without outcomes is an error: nothing
// was shown to hold.
func (r *Report) ExitCode() int {
	t := r.Totals()
	switch {
	case t.Error > 0 || t.Controls == 0:
		return ExitError
	case t.Fail > 0:
		return ExitFail
	}
	return ExitPass
}

// RunOptions tune Run.
type RunOptions struct {
	// Parallel bounds the controls running at once (default 4).
	Parallel int
	// MaxRows caps the offending rows kept per failed control (default 20).
	MaxRows int
	// Secrets are scrubbed from error messages and from the offending
	// rows kept for reports (engine.Secrets).
	Secrets func() []string
	// Budget, when set, bounds the run by its time limit and counts its
	// fan-outs' requests as they become known (budget.go, runtimeout.go).
	Budget *BudgetPlan
}

// Run evaluates the controls concurrently through one Querier, so that
// they share its HTTP clients and rate-limit state, within one run
// (engine.OpenRun): each identical GET of the controls is sent once.
func Run(ctx context.Context, q Querier, file string, controls []*Control, o RunOptions) *Report {
	ctx, end := engine.OpenRun(ctx)
	defer end()
	ctx, stop := o.Budget.bound(ctx)
	defer stop()
	if o.Parallel <= 0 {
		o.Parallel = 4
	}
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	r := &Report{File: file, Outcomes: make([]*Outcome, len(controls)), Started: time.Now()}
	if o.Budget != nil && !o.Budget.Started.IsZero() {
		r.Started = o.Budget.Started // the probes before the controls are part of the run
	}
	sem := make(chan struct{}, o.Parallel)
	var wg sync.WaitGroup
	for i, c := range controls {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r.Outcomes[i] = evaluate(ctx, q, c, o)
		})
	}
	wg.Wait()
	r.Duration = time.Since(r.Started)
	return r
}

func evaluate(ctx context.Context, q Querier, c *Control, o RunOptions) (out *Outcome) {
	start := time.Now()
	out = &Outcome{Control: c}
	defer func() {
		// A panic anywhere below is an error outcome, never a pass.
		if p := recover(); p != nil {
			out = &Outcome{Control: c, Status: Error, Err: &engine.ErrorBody{Kind: engine.KindInternal, Message: "internal error while evaluating the control"}}
		}
		out.Duration = time.Since(start)
	}()
	if err := ctx.Err(); err != nil {
		b := engine.Classify(err).Body()
		if rt := runTimedOut(ctx, false); rt != nil {
			b = *rt
		}
		out.Status, out.Err = Error, &b
		return out
	}
	var res *result.Result
	var err error
	// An errored control reports what it cost too.
	// A column NULL in every row read that WHERE or HAVING does not
	// decide for is an error, never a pass (docs/check.md).
	qo := engine.QueryOptions{NullIsError: true, FailedStats: func(st result.Stats) { out.Stats = st }, Fetch: o.Budget.fetched()}
	if c.prepared != nil {
		res, err = c.prepared.Run(ctx, qo)
	} else {
		res, err = q.Query(ctx, c.SQL, qo)
	}
	if err != nil {
		b := engine.Classify(err).Body()
		if rt := runTimedOut(ctx, true); rt != nil {
			b = *rt
		}
		if o.Secrets != nil {
			b.Message = scrub(b.Message, o.Secrets())
		}
		out.Status, out.Err = Error, &b
		return out
	}
	if res == nil {
		out.Status, out.Err = Error, &engine.ErrorBody{Kind: engine.KindInternal, Message: "no result"}
		return out
	}
	out.Stats, out.RowCount, out.Columns = res.Stats, len(res.Rows), res.Columns
	if c.Expect.Met(out.RowCount) {
		out.Status = Pass
		return out
	}
	out.Status = Fail
	out.Rows = res.Rows[:min(len(res.Rows), o.MaxRows)]
	if o.Secrets != nil {
		out.Columns, out.Rows = scrubRows(out.Columns, out.Rows, o.Secrets())
	}
	return out
}
