package load

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

const (
	calls    = 64
	sessions = 8
	// raceCalls is the load against the race-built server: each call
	// there costs about ten times the CPU, and 24 calls over 8 sessions
	// still run every fault kind of plans concurrently.
	raceCalls = 24
	// maxRSS bounds the server's peak resident set (the race detector
	// multiplies memory use, hence its own bound).
	maxRSS     = 500 << 20
	maxRSSRace = 1500 << 20
)

// plan is what call i queries and what it must end in. Each call lists
// its own org scale-N (N = 201+i: three pages of 100). About one request
// in ten is faulted: some faults are transient (Times 1, recovered by the
// server's retries: the exact result), others persist past the retry
// budget (a retryable error with the injected status).
type plan struct {
	org    string
	rows   int
	fault  *fakegithub.Fault
	status int // 0: the exact result is expected
}

func plans(calls int) []plan {
	ps := make([]plan, calls)
	for i := range ps {
		n := 201 + i
		p := plan{org: fmt.Sprintf("scale-%d", n), rows: n}
		path := "^/orgs/" + p.org + "/repos$"
		switch {
		case i%32 == 0: // persistent 429 on page 1
			p.fault = &fakegithub.Fault{Path: path, Page: 1, Kind: fakegithub.KindTooManyRequests, RetryAfter: 1}
			p.status = 429
		case i%16 == 3: // persistent 503 on page 2
			p.fault = &fakegithub.Fault{Path: path, Page: 2, Kind: fakegithub.KindStatus, Status: 503}
			p.status = 503
		case i%16 == 6: // one 429 on page 3, retried
			p.fault = &fakegithub.Fault{Path: path, Page: 3, Times: 1, Kind: fakegithub.KindTooManyRequests, RetryAfter: 1}
		case i%16 == 9: // one 503 on page 2, retried
			p.fault = &fakegithub.Fault{Path: path, Page: 2, Times: 1, Kind: fakegithub.KindStatus, Status: 503}
		}
		ps[i] = p
	}
	return ps
}

type figures struct {
	ok, retryable     int
	p50, p95, max     time.Duration
	requests, faulted int
	peakRSS           int64
}

// runLoad fires all calls at once over sessions HTTP sessions and checks
// each outcome against its plan.
func runLoad(t *testing.T, race bool, bound int64) figures {
	fake := fakegithub.ForTest(t)
	calls := calls
	if race {
		calls = raceCalls
	}
	ps := plans(calls)
	for _, p := range ps {
		if p.fault != nil {
			fake.Inject(*p.fault)
		}
	}
	srv := startServer(t, engine(t, race), fake)
	clients := make([]*mcptest.Client, sessions)
	for k := range clients {
		clients[k] = mcptest.ConnectHTTP(t, srv.Endpoint)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		f       figures
		lat     []time.Duration
		start   = make(chan struct{})
		results = make([]mcptest.Result, calls)
	)
	for i, p := range ps {
		wg.Go(func() {
			<-start
			t0 := time.Now()
			r := clients[i%sessions].Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT name, id FROM github.repos.repos WHERE org = '" + p.org + "'"})
			d := time.Since(t0)
			mu.Lock()
			lat = append(lat, d)
			results[i] = r
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()

	for i, p := range ps {
		r := results[i]
		switch {
		case p.status == 0 && !r.IsError && r.RowCount == p.rows && len(r.Rows) > 0 && r.Rows[0][0] != nil:
			f.ok++
		case p.status != 0 && r.IsError && r.Error.Retryable && r.Error.HTTPStatus == p.status && r.Error.Kind == "provider":
			f.retryable++
		default:
			t.Errorf("call %d (%s, want status %d, %d rows): %+v", i, p.org, p.status, p.rows, r)
		}
	}
	slices.Sort(lat)
	f.p50, f.p95, f.max = lat[len(lat)/2], lat[len(lat)*95/100], lat[len(lat)-1]
	for _, r := range fake.Requests() {
		f.requests++
		if r.Fault != "" {
			f.faulted++
		}
	}
	rss := srv.PeakRSS(t)
	f.peakRSS = rss
	if rss > bound {
		t.Errorf("peak RSS %d MiB, bound %d MiB", rss>>20, bound>>20)
	}
	stopClean(t, srv)
	t.Logf("%d calls over %d sessions: %d exact results, %d retryable errors; latency p50 %v p95 %v max %v; "+
		"%d API requests, %d faulted (%.1f%%); server peak RSS %.1f MiB",
		calls, sessions, f.ok, f.retryable, f.p50.Round(time.Millisecond), f.p95.Round(time.Millisecond), f.max.Round(time.Millisecond),
		f.requests, f.faulted, 100*float64(f.faulted)/float64(max(f.requests, 1)), float64(f.peakRSS)/(1<<20))
	return f
}

func TestLoadHTTP(t *testing.T) {
	f := runLoad(t, false, maxRSS)
	if f.ok+f.retryable != calls || f.retryable == 0 {
		t.Errorf("%d results + %d retryable errors of %d calls", f.ok, f.retryable, calls)
	}
	if pct := float64(f.faulted) / float64(f.requests); pct < 0.05 || pct > 0.2 {
		t.Errorf("%.1f%% of requests faulted; the test is meant for about 10%%", 100*pct)
	}
}

// TestLoadHTTPRace is the same load against a server built with -race:
// its stderr must carry no race report.
func TestLoadHTTPRace(t *testing.T) {
	runLoad(t, true, maxRSSRace)
}
