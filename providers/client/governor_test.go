package client

import (
	"context"
	"net/http"
	"strconv"
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

// A secondary limit pauses every request, halves the concurrency cap and
// the rate once per episode (responses to requests sent before the pause
// join it), and the pause doubles when the limit comes back right after.
func TestGovernorSecondaryLimit(t *testing.T) {
	g := NewGovernor(GovernorOptions{Rate: Rate{600, time.Second}, MaxConcurrency: 8})
	ctx := context.Background()
	var sent []time.Time
	for i := 0; i < 3; i++ {
		at, err := g.Acquire(ctx, "core")
		if err != nil {
			t.Fatal(err)
		}
		sent = append(sent, at)
	}
	h := http.Header{"Retry-After": []string{"1"}}
	g.Done("core", sent[0], 403, h, []byte(`{"message":"You have exceeded a secondary rate limit"}`))
	g.Done("core", sent[1], 403, h, nil)
	g.Done("core", sent[2], 200, nil, nil)
	st := g.Stats()
	if st.Pauses != 1 || st.SecondaryLimits != 2 || st.Concurrency != 4 {
		t.Fatalf("stats %+v, want one pause, two limits, concurrency 4", st)
	}
	if until := g.PausedUntil(); time.Until(until) < 900*time.Millisecond {
		t.Fatalf("pause ends in %s, want about 1s", time.Until(until))
	}
	start := time.Now()
	at, err := g.Acquire(ctx, "core")
	if err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Fatalf("admitted after %s during a 1s pause", waited)
	}
	// Limited again right after the pause: a new episode, twice as long.
	g.Done("core", at, 429, http.Header{"Retry-After": []string{"1"}}, nil)
	if d := time.Until(g.PausedUntil()); d < 1500*time.Millisecond {
		t.Fatalf("second pause %s, want about 2s (exponential backoff)", d)
	}
	if st := g.Stats(); st.Concurrency != 2 || st.Pauses != 2 {
		t.Fatalf("stats %+v", st)
	}
}

// The search bucket is paced on its own: a waiting search request does not
// hold back core requests.
func TestGovernorSearchPacedSeparately(t *testing.T) {
	g := NewGovernor(GovernorOptions{Rate: Rate{6000, time.Minute}, SearchRate: Rate{2, time.Second}, MaxConcurrency: -1})
	ctx := context.Background()
	for i := 0; i < 2; i++ { // the burst, then one per second
		if _, err := g.Acquire(ctx, "search"); err != nil {
			t.Fatal(err)
		}
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
	h := http.Header{}
	h.Set("X-Ratelimit-Limit", "5000")
	h.Set("X-Ratelimit-Remaining", "42")
	h.Set("X-Ratelimit-Used", "4958")
	h.Set("X-Ratelimit-Reset", strconv.FormatInt(reset, 10))
	h.Set("X-Ratelimit-Resource", "core")
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
	if st := g.Stats(); st.Pauses != 1 || st.SecondaryLimits != 0 || st.Concurrency != 8 || time.Until(g.PausedUntil()) < 1500*time.Millisecond {
		t.Fatalf("stats %+v, pause %s", st, time.Until(g.PausedUntil()))
	}
	h := http.Header{}
	h.Set("X-Ratelimit-Limit", "5000")
	h.Set("X-Ratelimit-Remaining", "0")
	h.Set("X-Ratelimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
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
