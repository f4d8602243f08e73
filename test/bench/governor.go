package main

import (
	"fmt"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
)

// Rate-limit governor rows (issue 13), against fakes that model GitHub's
// limiter scaled down (a "minute" of 900 points becomes a second of 200).

const govJoin = `SELECT count(DISTINCT r.name) FROM github.repos.repos r
LEFT JOIN github.pulls.pulls p ON p.owner = 'big' AND p.repo = r.name WHERE r.org = 'big'`

// governorRows measures: a 2,000-request dependent fan-out paced under a
// points-per-window limiter (wall time against the minimum the point rate
// allows, and zero secondary limits); the same kind of fan-out at 64
// concurrent requests against a limiter that trips on the 50th (it
// degrades and completes); and the throughput of the default
// --max-concurrency at 250 ms latency (what pacing at 900/min needs).
func (b *bench) governorRows(add func(name, value, target string)) {
	// The engine is given 95% of the fake's budget: on a 1 s window the
	// loopback's scheduling jitter is a few percent of the window (on
	// GitHub's minute it is negligible).
	const points, engineRate = 200, 190
	fake := fakegithub.New(fakegithub.WithRepos("big", 1980), fakegithub.WithLimits(fakegithub.Limits{Points: points, Window: time.Second}))
	d, _ := b.run(b.env("ENGINE_BASE_URL_GITHUB="+fake.URL(), "ENGINE_GOVERNOR=on", fmt.Sprintf("ENGINE_RATE=%d/1s", engineRate), "ENGINE_MAX_REQUESTS=5000", "ENGINE_RETRY_MAX=0"), govJoin)
	ok, _ := count(fake)
	st := fake.LimiterStats()
	fake.Close()
	minimum := time.Duration(float64(ok) / points * float64(time.Second))
	add(fmt.Sprintf("2,000-request fan-out, limiter %d points/s, --rate %d/1s", points, engineRate), fmt.Sprintf("%d ok, %d secondary limits, %s", ok, st.SecondaryResponses, ms(d)), "2000 ok, 0 limits")
	add("  wall / minimum the point rate allows", fmt.Sprintf("%.2fx (minimum %s)", float64(d)/float64(minimum), ms(minimum)), "<= 1.2x")

	fake = fakegithub.New(fakegithub.WithRepos("big", 600), fakegithub.WithLatency(25*time.Millisecond),
		fakegithub.WithLimits(fakegithub.Limits{TripConcurrent: 50, RetryAfter: 1}))
	d, _ = b.run(b.env("ENGINE_BASE_URL_GITHUB="+fake.URL(), "ENGINE_GOVERNOR=on", "ENGINE_RATE=0", "ENGINE_MAX_CONCURRENCY=64", "ENGINE_CONCURRENCY=64", "ENGINE_RETRY_MAX=3", "ENGINE_MAX_RETRY_WAIT=20s"), govJoin)
	ok, _ = count(fake)
	st = fake.LimiterStats()
	fake.Close()
	add("606 requests at 64 concurrent, limiter trips at 50", fmt.Sprintf("completed in %s: %d ok, %d trip(s), %d secondary-limit answers", ms(d), ok, st.Trips, st.SecondaryResponses), "completes, 1 trip")

	fake = fakegithub.New(fakegithub.WithRepos("big", 300), fakegithub.WithLatency(250*time.Millisecond))
	d, _ = b.run(b.env("ENGINE_BASE_URL_GITHUB="+fake.URL(), "ENGINE_GOVERNOR=on", "ENGINE_RATE=0", "ENGINE_CONCURRENCY=64"), govJoin)
	ok, _ = count(fake)
	fake.Close()
	add("default --max-concurrency 16 at 250 ms latency", fmt.Sprintf("%.0f requests/s (%d requests in %s)", float64(ok)/d.Seconds(), ok, ms(d)), ">= 15/s (900/min)")
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
