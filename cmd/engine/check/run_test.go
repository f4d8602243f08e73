package check

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
)

// stubQuerier answers by SQL text: "rows N" returns N rows, "403" a
// provider error, "panic" panics.
type stubQuerier struct{}

func (stubQuerier) Query(ctx context.Context, sql string, _ engine.QueryOptions) (*result.Result, error) {
	switch {
	case sql == "panic":
		panic("boom")
	case sql == "403":
		pe := &providers.ProviderError{Provider: "github", URL: "https://api.github.com/orgs/acme/repos?page=2", Status: 403,
			Message: "API rate limit exceeded secret-token-xyz", Retryable: true, RateLimited: true, RetryAfter: 60e9}
		return nil, engine.Classify(fmt.Errorf("fetch: %w", pe))
	case strings.HasPrefix(sql, "rows "):
		var n int
		fmt.Sscan(strings.TrimPrefix(sql, "rows "), &n)
		r := &result.Result{Columns: []result.Column{{Name: "name", Type: "TEXT"}, {Name: "meta", Type: "JSON"}}}
		for i := range n {
			r.Rows = append(r.Rows, []any{fmt.Sprintf("r|%d, <x>", i), `{"a":1}`})
		}
		return r, nil
	}
	return nil, errors.New("unexpected " + sql)
}

func ctl(id, sql, expect string) *Control {
	e, err := ParseExpect(expect)
	if err != nil {
		panic(err)
	}
	return &Control{ID: id, Title: "Title of " + id, SQL: sql, Expect: e, Severity: "high"}
}

func stubReport() *Report {
	controls := []*Control{
		ctl("empty-ok", "rows 0", ""),
		ctl("empty-bad", "rows 25", "empty"),
		ctl("count-ok", "rows 3", "count <= 3"),
		ctl("nonempty-bad", "rows 0", "nonempty"),
		ctl("rate-limited", "403", ""),
		ctl("panics", "panic", ""),
	}
	controls[1].Remediation = "fix, it: now"
	return Run(context.Background(), stubQuerier{}, "ctl.yaml", controls, RunOptions{Parallel: 2, Secrets: func() []string { return []string{"secret-token-xyz"} }})
}

func TestRunOutcomes(t *testing.T) {
	r := stubReport()
	want := []Status{Pass, Fail, Pass, Fail, Error, Error}
	for i, o := range r.Outcomes {
		if o.Status != want[i] {
			t.Errorf("%s: %s, want %s", o.Control.ID, o.Status, want[i])
		}
	}
	bad := r.Outcomes[1]
	if bad.RowCount != 25 || len(bad.Rows) != DefaultMaxRows || !bad.RowsTruncated() {
		t.Errorf("rows: count %d kept %d", bad.RowCount, len(bad.Rows))
	}
	e := r.Outcomes[4].Err
	if e.Kind != engine.KindProvider || e.HTTPStatus != 403 || e.Provider != "github" || !e.Retryable || e.RetryAfterSeconds != 60 {
		t.Errorf("error body: %+v", e)
	}
	if strings.Contains(e.Message, "secret-token-xyz") {
		t.Errorf("secret in message: %s", e.Message)
	}
	if r.Outcomes[5].Err.Kind != engine.KindInternal {
		t.Errorf("panic: %+v", r.Outcomes[5].Err)
	}
	if tot := r.Totals(); tot != (Totals{Controls: 6, Pass: 2, Fail: 2, Error: 2}) {
		t.Errorf("totals %+v", tot)
	}
	if r.ExitCode() != ExitError {
		t.Errorf("exit %d", r.ExitCode())
	}
	r.Outcomes = r.Outcomes[:4]
	if r.ExitCode() != ExitFail {
		t.Errorf("fail only: exit %d", r.ExitCode())
	}
	r.Outcomes = []*Outcome{r.Outcomes[0], r.Outcomes[2]}
	if r.ExitCode() != ExitPass {
		t.Errorf("pass only: exit %d", r.ExitCode())
	}
	r.Outcomes = nil
	if r.ExitCode() != ExitError {
		t.Errorf("nothing run: exit %d", r.ExitCode())
	}
}

// gate counts concurrent queries and blocks each until released.
type gate struct {
	mu       sync.Mutex
	cur, max int
	entered  chan struct{}
	release  chan struct{}
}

func (g *gate) Query(ctx context.Context, sql string, _ engine.QueryOptions) (*result.Result, error) {
	g.mu.Lock()
	g.cur++
	g.max = max(g.max, g.cur)
	g.mu.Unlock()
	g.entered <- struct{}{}
	<-g.release
	g.mu.Lock()
	g.cur--
	g.mu.Unlock()
	return &result.Result{}, nil
}

func TestRunBoundsParallelism(t *testing.T) {
	g := &gate{entered: make(chan struct{}), release: make(chan struct{})}
	var controls []*Control
	for i := range 10 {
		controls = append(controls, ctl(fmt.Sprint("c", i), "x", ""))
	}
	done := make(chan *Report)
	go func() { done <- Run(context.Background(), g, "f", controls, RunOptions{Parallel: 3}) }()
	for range 3 {
		<-g.entered
	}
	// Three are in; a fourth must not enter until one leaves.
	select {
	case <-g.entered:
		t.Fatal("a fourth control ran concurrently")
	default:
	}
	go func() {
		for range 10 {
			g.release <- struct{}{}
		}
	}()
	for range 7 {
		<-g.entered
	}
	r := <-done
	if g.max != 3 {
		t.Errorf("max concurrency %d, want 3", g.max)
	}
	if r.ExitCode() != ExitPass {
		t.Errorf("exit %d", r.ExitCode())
	}
}

func TestRunCancelledIsError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := Run(ctx, stubQuerier{}, "f", []*Control{ctl("a", "rows 0", "")}, RunOptions{})
	if r.Outcomes[0].Status != Error || r.ExitCode() != ExitError {
		t.Fatalf("cancelled: %+v", r.Outcomes[0])
	}
}
