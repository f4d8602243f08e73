package main

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/test/fakegithub"
)

// Rows of the rate-limit governor and of latency, every one with the
// default settings (docs/performance.md, "Rate-limit governor"): what a
// user gets against GitHub's limits.

// fanJoin is a dependent fan-out: the org's repository pages, then one
// contributors request per repository.
func fanJoin(org string) string {
	return fmt.Sprintf(`SELECT count(DISTINCT r.name) FROM github.repos.repos r
LEFT JOIN github.repos.contributors c ON c.owner = '%s' AND c.repo = r.name WHERE r.org = '%s'`, org, org)
}

// latencyRows measures, at 100 ms per request (a real API's latency), the
// 240-request fan-out (3 pages of an org's 237 repositories, then their
// contributors) and the 100-page list, each beside its minimum at 16 in
// flight, measured in the same run by a Go client that knows the
// requests in advance.
func (b *bench) latencyRows(add addRow) {
	const latency = 100 * time.Millisecond
	const conc = client.DefaultMaxConcurrency
	fake := fakegithub.New(fakegithub.WithRepos("fan", 237), fakegithub.WithLatency(latency))
	defer fake.Close()
	page := func(org string, p int) string {
		return fmt.Sprintf("%s/orgs/%s/repos?per_page=100&page=%d", fake.URL(), org, p)
	}
	// The minimum of the fan-out: page 1, pages 2-3, then the 237
	// contributors requests, 16 at a time.
	var contributors []string
	for i := range 237 {
		contributors = append(contributors, fmt.Sprintf("%s/repos/fan/%s/contributors?per_page=100", fake.URL(), fake.RepoName("fan", i)))
	}
	minFan := bestOf(3, func() {
		getAll(1, page("fan", 1))
		getAll(conc, page("fan", 2), page("fan", 3))
		getAll(conc, contributors...)
	})
	fake.ResetRequests()
	d, _ := b.run(b.env("ENGINE_BASE_URL_GITHUB="+fake.URL()), fanJoin("fan"))
	ok, other := count(fake)
	add("100 ms latency: 240-request fan-out (repos x contributors)", fmt.Sprintf("%s, %d ok, %d other; minimum at %d in flight %s: %.2fx", ms(d), ok, other, conc, ms(minFan), float64(d)/float64(minFan)), "<= 1.3x")

	// The 100-page list: page 1, then 99 pages 16 at a time.
	var pages []string
	for p := 2; p <= 100; p++ {
		pages = append(pages, page(org10k, p))
	}
	minList := bestOf(3, func() {
		getAll(1, page(org10k, 1))
		getAll(conc, pages...)
	})
	fake.ResetRequests()
	d, _ = b.run(b.env("ENGINE_BASE_URL_GITHUB="+fake.URL()), "SELECT count(*) FROM github.repos.repos WHERE org = 'scale-10000'")
	ok, other = count(fake)
	add("100 ms latency: 100-page list, count(*)", fmt.Sprintf("%s, %d ok, %d other; minimum at %d in flight %s: %.2fx", ms(d), ok, other, conc, ms(minList), float64(d)/float64(minList)), "<= 2x")
}

// governorRows measures the default settings against two limiters: one
// that serves 3 requests at once and refuses any further one with a
// secondary-limit 403 (Retry-After 1 s), and GitHub's 900 requests a
// minute with a 2,000-request fan-out (about two minutes: the limit
// allows 900 a minute).
func (b *bench) governorRows(add addRow) {
	fake := fakegithub.New(fakegithub.WithRepos("fan", 237), fakegithub.WithLatency(50*time.Millisecond),
		fakegithub.WithLimits(fakegithub.Limits{MaxConcurrent: 3, RetryAfter: 1}))
	d, _ := b.run(b.env("ENGINE_BASE_URL_GITHUB="+fake.URL()), fanJoin("fan"))
	ok, _ := count(fake)
	st := fake.LimiterStats()
	fake.Close()
	add("3-concurrent limiter, 50 ms latency: 240-request fan-out", fmt.Sprintf("%d ok, %d secondary-limit answers, %s", ok, st.SecondaryResponses, ms(d)), "<= 3 answers, <= 10 s")

	const points, window = 900, time.Minute
	fake = fakegithub.New(fakegithub.WithRepos("big", 1980), fakegithub.WithLimits(fakegithub.Limits{Points: points, Window: window}))
	// --max-requests and --query-timeout are raised: the statement needs
	// 2,000 requests, more than the default bound of 1,000, and at 900 a
	// minute more than the default timeout of 120 s (neither is a rate
	// setting).
	d, _ = b.run(b.env("ENGINE_BASE_URL_GITHUB="+fake.URL(), "ENGINE_MAX_REQUESTS=5000", "ENGINE_QUERY_TIMEOUT=10m"), fanJoin("big"))
	ok, _ = count(fake)
	st = fake.LimiterStats()
	fake.Close()
	// The limit lets request k+900 start a window after request k: the
	// last of n starts (n-1)/900 windows after the first.
	minimum := time.Duration((ok-1)/points) * window
	add("900/min limiter: 2,000-request fan-out (repos x contributors)", fmt.Sprintf("%d ok, %d limit answers, %s", ok, st.SecondaryResponses+st.PrimaryResponses, ms(d)), "2000 ok, 0 limit answers")
	add("  wall / minimum the limit allows", fmt.Sprintf("%.2fx (minimum %s)", float64(d)/float64(minimum), ms(minimum)), "<= 1.1x")
}

// getAll GETs every URL, conc at a time, bodies read and discarded.
func getAll(conc int, urls ...string) {
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	for _, u := range urls {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			resp, err := http.Get(u)
			if err != nil {
				fail("minimum: %v", err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				fail("minimum: GET %s: %d", u, resp.StatusCode)
			}
		})
	}
	wg.Wait()
}

// bestOf returns the best wall time of n runs of f.
func bestOf(n int, f func()) time.Duration {
	var best time.Duration
	for range n {
		start := time.Now()
		f()
		if d := time.Since(start); best == 0 || d < best {
			best = d
		}
	}
	return best
}

// count returns the fake's requests answered 200 and the others.
func count(f *fakegithub.Server) (ok, other int) {
	for _, r := range f.Requests() {
		if r.Status == 200 {
			ok++
		} else {
			other++
		}
	}
	return ok, other
}
