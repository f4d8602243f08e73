package ratelimit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

const sprawlCount = "SELECT count(DISTINCT id) AS n FROM github.search.repos WHERE q = 'org:sprawl'"

// searchFake is a fake whose search bucket allows limit requests per
// window, left of them remaining at start.
func searchFake(t *testing.T, limit, left int, window time.Duration) *fakegithub.Server {
	return fakegithub.ForTest(t, fakegithub.WithLimits(fakegithub.Limits{Buckets: map[string]fakegithub.BucketLimit{
		"search": {Limit: limit, Remaining: &left, Window: window},
		"core":   {Limit: 5000, Window: time.Hour},
	}}))
}

func searchRequests(fake *fakegithub.Server) int {
	n := 0
	for _, q := range fake.Requests() {
		if strings.HasPrefix(q.Path, "/search/") {
			n++
		}
	}
	return n
}

// A search matching 2,500 (GitHub serves 1,000) needs at least 25 more
// search requests once its first page counts them. With 20 of GitHub's
// 30 a minute left and a statement time limit shorter than the minute to
// the reset, the split is refused right after the first page: one search
// request sent, a rate-limit error naming the bucket and the counts.
func TestSplitOverSearchBudgetRefused(t *testing.T) {
	fake := searchFake(t, 30, 20, time.Minute)
	// The default retry budget (60s) could wait for the reset: only the
	// statement's time limit (20s) makes the split impossible.
	r := run(t, env(t, fake, "ENGINE_QUERY_TIMEOUT=20s"), "exec", "-o", "json", sprawlCount)
	e := providerRefusal(t, r)
	for _, want := range []string{"2500", "1000", `"search" rate-limit bucket`, "19 of 30 left", "time limit", "nothing more was sent", "LIMIT"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message lacks %q: %s", want, e.Message)
		}
	}
	if e.Kind != engine.KindProvider {
		t.Errorf("error %+v", e)
	}
	if n := searchRequests(fake); n != 1 {
		t.Errorf("%d search requests, want only the first page", n)
	}
	// With a retry budget shorter than the minute to the reset, the
	// bucket's own check refuses it, saying why the split was needed.
	fake = searchFake(t, 30, 20, time.Minute)
	r = run(t, noRetryEnv(t, fake), "exec", "-o", "json", sprawlCount)
	if r.Code != 2 || !strings.Contains(r.Stderr, "must split it") || !strings.Contains(r.Stderr, "only 19 of 30 remain") || searchRequests(fake) != 1 {
		t.Fatalf("exit %d, %d search requests\n%s", r.Code, searchRequests(fake), r.Stderr)
	}
}

// With the governor on and a search budget that covers it, the split
// runs and its requests are counted against the search bucket.
func TestSplitWithinSearchBudget(t *testing.T) {
	fake := searchFake(t, 1000, 1000, time.Minute)
	r := run(t, noRetryEnv(t, fake, "ENGINE_SEARCH_RATE=600/1s"), "exec", "-o", "json", "--stats", sprawlCount)
	if r.Code != 0 || strings.Join(strings.Fields(r.Stdout), "") != `[{"n":2500}]` {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	var st struct {
		Stats struct {
			Parts     int `json:"parts"`
			RateLimit []struct {
				Bucket string `json:"bucket"`
				Used   int    `json:"used"`
			} `json:"rate_limit"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(r.Stderr), &st); err != nil {
		t.Fatalf("stats: %v\n%s", err, r.Stderr)
	}
	n := searchRequests(fake)
	if st.Stats.Parts < 2 || len(st.Stats.RateLimit) != 1 || st.Stats.RateLimit[0].Bucket != "search" || st.Stats.RateLimit[0].Used != n {
		t.Fatalf("stats %+v, %d search requests", st.Stats, n)
	}
}

// splitRate is a search rate window shorter than GitHub's 30 a minute,
// the same for the fake and the engine: the split of a search matching
// 2,500 (29 requests, issue 32) needs more requests than one window has, so
// it waits for the window some seconds instead of a minute. The window
// is long enough that the wait stays above client.NoticeMin however slow
// the 15 requests before it (a race-detector build, a busy machine).
const (
	splitLimit  = 15
	splitWindow = 10 * time.Second
	splitRate   = "ENGINE_SEARCH_RATE=15/10s"
)

// noticeWant is what the one notice of a split's wait says.
var noticeWant = []string{"waiting ", "search rate window (15 requests/10s)", "2500 results", "split into date ranges", "requests sent"}

// A search split past the 1,000-result cap that needs more requests than
// the search rate window has left waits for the window, and says so once
// on stderr: a line "notice: waiting Ns for github's search rate window
// (...); N of M requests sent" (with -o json, {"notice": ...}); stdout
// holds the result alone (docs/reliability.md, "Searches past 1,000
// results").
func TestSplitWaitIsNoticed(t *testing.T) {
	t.Parallel()
	for _, output := range []string{"csv", "json"} {
		t.Run(output, func(t *testing.T) {
			t.Parallel()
			fake := searchFake(t, splitLimit, splitLimit, splitWindow)
			r := run(t, env(t, fake, splitRate), "exec", "-o", output, sprawlCount)
			if r.Code != 0 || !strings.Contains(r.Stdout, "2500") || strings.Contains(r.Stdout, "notice") || strings.Contains(r.Stdout, "waiting") {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
			}
			lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
			if len(lines) != 1 {
				t.Fatalf("stderr has %d lines, want one notice:\n%s", len(lines), r.Stderr)
			}
			msg := strings.TrimPrefix(lines[0], "notice: ")
			if output == "json" {
				var n struct {
					Notice string `json:"notice"`
				}
				if err := json.Unmarshal([]byte(lines[0]), &n); err != nil {
					t.Fatalf("stderr is not a notice object: %v\n%s", err, r.Stderr)
				}
				msg = n.Notice
			} else if !strings.HasPrefix(lines[0], "notice: ") {
				t.Fatalf("stderr: %s", r.Stderr)
			}
			t.Logf("notice: %s", msg)
			for _, want := range noticeWant {
				if !strings.Contains(msg, want) {
					t.Errorf("notice lacks %q: %s", want, msg)
				}
			}
			if st := fake.LimiterStats(); st.PrimaryResponses != 0 {
				t.Errorf("the fake answered %d rate-limit 403s: the engine did not wait", st.PrimaryResponses)
			}
		})
	}
}

// The shell says the same on stderr.
func TestSplitWaitIsNoticedInShell(t *testing.T) {
	t.Parallel()
	fake := searchFake(t, splitLimit, splitLimit, splitWindow)
	r := testutil.Run(t, env(t, fake, splitRate), sprawlCount+";", "shell")
	if r.Code != 0 || !strings.Contains(r.Stdout, "2500") || strings.Contains(r.Stdout, "notice") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if n := strings.Count(r.Stderr, "notice: "); n != 1 || !strings.Contains(r.Stderr, noticeWant[1]) {
		t.Fatalf("%d notices on stderr:\n%s", n, r.Stderr)
	}
}

// Over MCP the notice is a progress notification's message (the call
// carries a progress token), between the page notifications, with a
// progress value that still increases.
func TestSplitWaitIsNoticedOverMCP(t *testing.T) {
	t.Parallel()
	fake := searchFake(t, splitLimit, splitLimit, splitWindow)
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	opts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.Params)
	}}
	c, _, stderr := mcptest.StdioWith(t, opts, "", env(t, fake, splitRate), "mcp")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := c.Call(t, ctx, "run_select_query", map[string]any{"sql": sprawlCount}, "split")
	if r.IsError || fmt.Sprint(r.Rows) != "[[2500]]" {
		t.Fatalf("%+v\n%s", r, stderr)
	}
	var notices []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && len(notices) == 0; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		notices = notices[:0]
		last := -1.0
		for _, p := range got {
			if p.Progress <= last {
				t.Fatalf("progress went from %g to %g", last, p.Progress)
			}
			last = p.Progress
			if strings.Contains(p.Message, "waiting") {
				notices = append(notices, p.Message)
			}
		}
		mu.Unlock()
	}
	if len(notices) != 1 {
		t.Fatalf("%d notices in the progress notifications: %q", len(notices), notices)
	}
	for _, want := range noticeWant {
		if !strings.Contains(notices[0], want) {
			t.Errorf("notice lacks %q: %s", want, notices[0])
		}
	}
	if strings.Contains(stderr.String(), "waiting") {
		t.Errorf("the server's stderr has the notice: %s", stderr)
	}
}
