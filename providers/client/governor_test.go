package client

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	for in, want := range map[string]Rate{"900": {900, time.Minute}, "60/1s": {60, time.Second}, "30/m": {30, time.Minute}, "0": {0, time.Minute}} {
		got, err := ParseRate(in)
		if err != nil || got != want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1", "10/0s", "10/abc"} {
		if _, err := ParseRate(in); err == nil {
			t.Errorf("ParseRate(%q): no error", in)
		}
	}
}

func TestBucketOf(t *testing.T) {
	for path, want := range map[string]string{"/search/code": "code_search", "/api/v3/search/issues": "search", "/rate_limit": "", "/orgs/x/repos": "core"} {
		if got := githubProfile().BucketOf(path); got != want {
			t.Errorf("BucketOf(%q) = %q, want %q", path, got, want)
		}
	}
}

// A secondary limit pauses every request and cuts the concurrency cap once
// per episode (responses to requests sent before the pause join it), and
// the pause doubles when the limit comes back right after.
func TestGovernorSecondaryLimit(t *testing.T) {
	g := NewGovernor(GovernorOptions{Rate: Rate{600, time.Second}, MaxConcurrency: 8, StartConcurrency: 8})
	sent := acquireN(t, g, "core", 6)
	h := http.Header{"Retry-After": []string{"1"}}
	g.Done("core", sent[0], 403, h, []byte(`{"message":"You have exceeded a secondary rate limit"}`))
	g.Done("core", sent[1], 403, h, nil)
	for _, at := range sent[2:] {
		g.Done("core", at, 200, nil, nil)
	}
	st := g.Stats()
	if st.Pauses != 1 || st.SecondaryLimits != 2 || st.Cuts != 1 || st.Concurrency != 3 {
		t.Fatalf("stats %+v, want one pause, two limits, one cut to 3 (half of the 6 in flight)", st)
	}
	if st.Budget != 600 {
		t.Fatalf("rate budget %d after a limit met with 6 in flight, want 600 (a concurrency limit does not lower the rate)", st.Budget)
	}
	if until := g.PausedUntil(); time.Until(until) < 900*time.Millisecond {
		t.Fatalf("pause ends in %s, want about 1s", time.Until(until))
	}
	start := time.Now()
	at := acquire(t, g, "core")
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Fatalf("admitted after %s during a 1s pause", waited)
	}
	// Limited again right after the pause, with nothing else in flight: a
	// new episode, twice as long, and concurrency cannot explain it, so
	// the rate is halved.
	g.Done("core", at, 429, http.Header{"Retry-After": []string{"1"}}, nil)
	if d := time.Until(g.PausedUntil()); d < 1500*time.Millisecond {
		t.Fatalf("second pause %s, want about 2s (exponential backoff)", d)
	}
	if st := g.Stats(); st.Concurrency != 1 || st.Pauses != 2 || st.Budget != 300 {
		t.Fatalf("stats %+v, want concurrency 1, 2 pauses, rate budget 300", st)
	}
}

// A window's budget may be spent at once; the next request waits until
// the oldest answer leaves the window, not a pace of budget/window.
func TestGovernorWindowBurstThenSlide(t *testing.T) {
	g := NewGovernor(GovernorOptions{Rate: Rate{50, 500 * time.Millisecond}, MaxConcurrency: -1})
	ctx := context.Background()
	start := time.Now()
	for i := 0; i < 50; i++ {
		g.Done("core", acquire(t, g, "core"), 200, nil, nil)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("50 requests of a 50-per-500ms budget took %s, want at once", d)
	}
	answered := time.Now()
	at := acquire(t, g, "core")
	if d := time.Since(answered); d < 350*time.Millisecond {
		t.Fatalf("51st request admitted after %s, want when the first answer leaves the window (about 500ms)", d)
	}
	g.Done("core", at, 200, nil, nil)
	// Requests in flight count: a full window of unanswered requests
	// holds the next one until an answer comes and leaves the window.
	g = NewGovernor(GovernorOptions{Rate: Rate{3, 200 * time.Millisecond}, MaxConcurrency: -1})
	sent := acquireN(t, g, "core", 3)
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := g.Acquire(short, "core"); err == nil {
		t.Fatal("admitted a 4th request while 3 of a budget of 3 were in flight")
	}
	g.Done("core", sent[0], 200, nil, nil)
	done := time.Now()
	if _, err := g.Acquire(ctx, "core"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(done); d < 150*time.Millisecond {
		t.Fatalf("admitted %s after the first answer, want a window length (200ms) later", d)
	}
}

// The concurrency cap grows while requests fill it and succeed: by one
// per success (doubling per round trip) up to MaxConcurrency; an idle cap
// does not grow. After a cut it grows back only to below the level that
// met the limit, until a quiet period lifts that ceiling.
func TestGovernorConcurrencyAIMD(t *testing.T) {
	g := NewGovernor(GovernorOptions{Rate: Rate{-1, time.Minute}, MaxConcurrency: 16, RecoverAfter: 300 * time.Millisecond})
	if c := g.Stats().Concurrency; c != DefaultStartConcurrency {
		t.Fatalf("starts at %d in flight, want %d", c, DefaultStartConcurrency)
	}
	for i := 0; i < 10; i++ { // one at a time: the cap is not in use
		g.Done("core", acquire(t, g, "core"), 200, nil, nil)
	}
	if c := g.Stats().Concurrency; c != DefaultStartConcurrency {
		t.Fatalf("cap %d after serial requests, want %d (unused, not grown)", c, DefaultStartConcurrency)
	}
	round := func() int { // fill the cap, answer every request
		for _, at := range acquireN(t, g, "core", g.Stats().Concurrency) {
			g.Done("core", at, 200, nil, nil)
		}
		return g.Stats().Concurrency
	}
	if c := round(); c != 8 {
		t.Fatalf("cap %d after a full round of 4, want 8 (slow start)", c)
	}
	if c := round(); c != 16 {
		t.Fatalf("cap %d, want 16", c)
	}
	if c := round(); c != 16 {
		t.Fatalf("cap %d, want MaxConcurrency 16", c)
	}
	// A limit met with 6 in flight: cut to 3, growth up to 5 only.
	sent := acquireN(t, g, "core", 6)
	g.Done("core", sent[5], 403, http.Header{"Retry-After": []string{"1"}}, []byte("You have exceeded a secondary rate limit"))
	for _, at := range sent[:5] {
		g.Done("core", at, 200, nil, nil)
	}
	if st := g.Stats(); st.Concurrency != 3 || st.Cuts != 1 {
		t.Fatalf("stats %+v after a limit with 6 in flight, want cap 3, one cut", st)
	}
	for i := 0; i < 10; i++ {
		round()
	}
	if c := g.Stats().Concurrency; c != 5 {
		t.Fatalf("cap %d after the pause and 10 rounds, want 5 (below the 6 that met the limit)", c)
	}
	time.Sleep(350 * time.Millisecond)
	for i := 0; i < 30; i++ {
		round()
	}
	if c := g.Stats().Concurrency; c <= 6 {
		t.Fatalf("cap %d after a quiet period and 30 rounds, want it past 6 again", c)
	}
}

// The search bucket is paced on its own: a waiting search request does not
// hold back core requests.
func TestGovernorSearchPacedSeparately(t *testing.T) {
	g := NewGovernor(GovernorOptions{Rate: Rate{6000, time.Minute}, SearchRate: Rate{2, time.Second}, MaxConcurrency: -1})
	ctx := context.Background()
	for i := 0; i < 2; i++ { // the budget at once, then when the first answer leaves the window
		g.Done("search", acquire(t, g, "search"), 200, nil, nil)
	}
	done := make(chan time.Duration)
	go func() {
		start := time.Now()
		g.Acquire(ctx, "search") //nolint:errcheck
		done <- time.Since(start)
	}()
	start := time.Now()
	for i := 0; i < 20; i++ {
		if _, err := g.Acquire(ctx, "core"); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Fatalf("20 core requests took %s while search waited", d)
	}
	if d := <-done; d < 300*time.Millisecond {
		t.Fatalf("third search request admitted after %s, want paced (about 1s)", d)
	}
}

func TestGovernorRecordsBuckets(t *testing.T) {
	g := NewGovernor(GovernorOptions{})
	reset := time.Now().Add(time.Hour).Unix()
	h := header("X-Ratelimit-Limit", "5000", "X-Ratelimit-Remaining", "42", "X-Ratelimit-Used", "4958",
		"X-Ratelimit-Reset", strconv.FormatInt(reset, 10), "X-Ratelimit-Resource", "core")
	at, _ := g.Acquire(context.Background(), "core")
	g.Done("core", at, 200, h, nil)
	b, ok := g.Bucket("core")
	if !ok || b.Remaining != 42 || b.Limit != 5000 || b.Reset.Unix() != reset {
		t.Fatalf("bucket %+v %v", b, ok)
	}
	if _, ok := g.Bucket("search"); ok {
		t.Fatal("search bucket known without a response")
	}
	// A reset given in milliseconds is read as the same instant, as the
	// retry wait reads it (parseReset).
	h.Set("X-Ratelimit-Reset", strconv.FormatInt(reset*1000, 10))
	at, _ = g.Acquire(context.Background(), "core")
	g.Done("core", at, 200, h, nil)
	if b, _ := g.Bucket("core"); b.Reset.Unix() != reset {
		t.Fatalf("millisecond reset read as %v, want %v", b.Reset, time.Unix(reset, 0))
	}
}

// A 503 with Retry-After pauses every request without adapting; a bucket
// reported spent holds its requests until the reset.
func TestGovernorRetryAfterAndSpentBucket(t *testing.T) {
	g := NewGovernor(GovernorOptions{MaxConcurrency: 8})
	at, _ := g.Acquire(context.Background(), "core")
	g.Done("core", at, 503, http.Header{"Retry-After": []string{"2"}}, nil)
	if st := g.Stats(); st.Pauses != 1 || st.SecondaryLimits != 0 || st.Cuts != 0 || st.Concurrency != DefaultStartConcurrency || time.Until(g.PausedUntil()) < 1500*time.Millisecond {
		t.Fatalf("stats %+v, pause %s", st, time.Until(g.PausedUntil()))
	}
	h := header("X-Ratelimit-Limit", "5000", "X-Ratelimit-Remaining", "0", "X-Ratelimit-Reset", unixSeconds(time.Now().Add(time.Hour)))
	g.Done("core", at, 200, h, nil)
	if d := time.Until(g.SpentUntil("core")); d < 59*time.Minute {
		t.Fatalf("core spent for %s, want until the reset", d)
	}
	if !g.SpentUntil("search").IsZero() {
		t.Fatal("search held by core's reset")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := g.Acquire(ctx, "core"); err == nil {
		t.Fatal("admitted on a spent bucket")
	}
}

// Delay tells how long the next request of a bucket would wait and for
// which limit, taking nothing: a full search window, then a spent
// bucket's reset.
func TestGovernorDelay(t *testing.T) {
	g := NewGovernor(GovernorOptions{SearchRate: Rate{N: 2, Window: time.Minute}})
	ctx := context.Background()
	if d, why := g.Delay("search"); d != 0 || why != "" {
		t.Fatalf("empty: %s %q", d, why)
	}
	for i := 0; i < 2; i++ {
		at, err := g.Acquire(ctx, "search")
		if err != nil {
			t.Fatal(err)
		}
		g.Done("search", at, 200, nil, nil)
	}
	d, why := g.Delay("search")
	if d <= 50*time.Second || d > time.Minute || why != "search rate window (2 requests/min)" {
		t.Fatalf("full window: %s %q", d, why)
	}
	if d, _ := g.Delay("core"); d != 0 {
		t.Fatalf("core waits %s", d)
	}
	g.Record(Bucket{Name: "core", Limit: 10, Remaining: 0, Reset: time.Now().Add(time.Hour)})
	if d, why := g.Delay("core"); d < 59*time.Minute || !strings.Contains(why, `"core" rate-limit bucket`) {
		t.Fatalf("spent: %s %q", d, why)
	}
}

// A notice is said once per statement, and only for a split's wait.
func TestNoticeWaitOnce(t *testing.T) {
	var got []string
	ctx := WithNotice(context.Background(), func(m string) { got = append(got, m) })
	noticeWait(ctx, time.Minute, "search rate window (30 requests/min)")
	if len(got) != 0 {
		t.Fatalf("notice without a split: %q", got)
	}
	sp := &splitProgress{provider: "github", total: 2500, served: 1000}
	sp.sent.Store(30)
	sp.planned.Store(40)
	ctx = withSplit(ctx, sp)
	noticeWait(ctx, 500*time.Millisecond, "x")
	noticeWait(ctx, 41*time.Second, "search rate window (30 requests/min)")
	noticeWait(ctx, 42*time.Second, "search rate window (30 requests/min)")
	want := "waiting 41s for github's search rate window (30 requests/min): the search matched 2500 results, more than the 1000 served of one query, so it is split into date ranges; 30 of at least 40 requests sent"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("notices %q, want [%q]", got, want)
	}
}
