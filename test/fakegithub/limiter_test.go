package fakegithub

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLimiterPointsPerWindow(t *testing.T) {
	s := ForTest(t, WithLimits(Limits{Points: 3, Window: time.Hour, RetryAfter: 7}))
	for i := 0; i < 3; i++ {
		if resp, _ := get(t, s.URL()+"/orgs/acme"); resp.StatusCode != 200 {
			t.Fatalf("request %d: %d", i+1, resp.StatusCode)
		}
	}
	resp, body := get(t, s.URL()+"/orgs/acme")
	if resp.StatusCode != 403 || resp.Header.Get("Retry-After") != "7" || !strings.Contains(string(body), "secondary rate limit") {
		t.Fatalf("4th request: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	// During the penalty every request gets the same answer; /rate_limit is free.
	if resp, _ := get(t, s.URL()+"/rate_limit"); resp.StatusCode != 200 {
		t.Fatalf("/rate_limit during the penalty: %d", resp.StatusCode)
	}
	if resp, _ := get(t, s.URL()+"/users/octocat"); resp.StatusCode != 403 {
		t.Fatalf("request during the penalty: %d", resp.StatusCode)
	}
	if st := s.LimiterStats(); st.Trips != 1 || st.SecondaryResponses != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestLimiterConcurrency(t *testing.T) {
	s := ForTest(t, WithLatency(300*time.Millisecond), WithLimits(Limits{TripConcurrent: 3}))
	var wg sync.WaitGroup
	codes := make(chan int, 3)
	for i := 0; i < 3; i++ {
		wg.Go(func() {
			resp, err := http.Get(s.URL() + "/orgs/acme")
			if err == nil {
				resp.Body.Close()
				codes <- resp.StatusCode
			}
		})
		time.Sleep(50 * time.Millisecond)
	}
	wg.Wait()
	close(codes)
	n403 := 0
	for c := range codes {
		if c == 403 {
			n403++
		}
	}
	if st := s.LimiterStats(); n403 != 1 || st.Trips != 1 || st.MaxInFlight != 3 {
		t.Fatalf("%d answered 403, stats %+v; want the third concurrent request limited", n403, st)
	}
}

// MaxConcurrent answers only the requests beyond it, at once, and
// starts no penalty: the next request is served.
func TestLimiterMaxConcurrent(t *testing.T) {
	s := ForTest(t, WithLatency(300*time.Millisecond), WithLimits(Limits{MaxConcurrent: 2}))
	var wg sync.WaitGroup
	type answer struct {
		code int
		took time.Duration
	}
	answers := make(chan answer, 3)
	for i := 0; i < 3; i++ {
		wg.Go(func() {
			start := time.Now()
			resp, err := http.Get(s.URL() + "/orgs/acme")
			if err == nil {
				resp.Body.Close()
				answers <- answer{resp.StatusCode, time.Since(start)}
			}
		})
		time.Sleep(50 * time.Millisecond)
	}
	wg.Wait()
	close(answers)
	for a := range answers {
		if a.code == 403 && a.took > 200*time.Millisecond {
			t.Errorf("the refusal took %s, want at once", a.took)
		}
	}
	resp, err := http.Get(s.URL() + "/orgs/acme")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("after the burst: %v %v, want 200 (no penalty)", err, resp)
	}
	resp.Body.Close()
	if st := s.LimiterStats(); st.ConcurrentResponses != 1 || st.SecondaryResponses != 1 || st.Trips != 0 || st.MaxInFlight != 3 {
		t.Fatalf("stats %+v; want the third concurrent request refused, no trip", st)
	}
}

func TestLimiterPrimaryBuckets(t *testing.T) {
	one := 1
	s := ForTest(t, WithLimits(Limits{Buckets: map[string]BucketLimit{
		"core":   {Limit: 5000, Remaining: &one},
		"search": {Limit: 2, Window: time.Minute},
	}}))
	resp, _ := get(t, s.URL()+"/orgs/acme")
	if resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Remaining") != "0" || resp.Header.Get("X-RateLimit-Resource") != "core" {
		t.Fatalf("core: %d %v", resp.StatusCode, resp.Header)
	}
	resp, body := get(t, s.URL()+"/orgs/acme")
	if resp.StatusCode != 403 || !strings.Contains(string(body), "API rate limit exceeded") || resp.Header.Get("Retry-After") != "" {
		t.Fatalf("spent core: %d %s", resp.StatusCode, body)
	}
	// search is its own bucket.
	resp, _ = get(t, s.URL()+"/search/repositories?q=org:tiny")
	if resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Resource") != "search" || resp.Header.Get("X-RateLimit-Remaining") != "1" || resp.Header.Get("X-RateLimit-Limit") != "2" {
		t.Fatalf("search: %d %v", resp.StatusCode, resp.Header)
	}
	var rl struct {
		Resources map[string]struct{ Limit, Remaining int } `json:"resources"`
	}
	getJSON(t, s.URL()+"/rate_limit", &rl)
	if rl.Resources["core"].Remaining != 0 || rl.Resources["search"].Remaining != 1 || rl.Resources["search"].Limit != 2 {
		t.Fatalf("/rate_limit: %+v", rl.Resources)
	}
	if st := s.LimiterStats(); st.PrimaryResponses != 1 || st.Used["search"] != 1 {
		t.Fatalf("stats %+v", st)
	}
}
