package main

import (
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"
)

// streamRows measures the streaming and throughput rows of docs/performance.md against
// the in-process fake: count(*) and SELECT * -o json of 10k rows against
// the sequential fetch floor measured in the same run, a 100k-row
// SELECT * -o json and a fan-out over 4 large orgs by peak RSS.
func (b *bench) streamRows(add addRow) {
	// The floor and the two statements take turns, 5 rounds, best of
	// each: on a shared machine a burst of load then hits all three.
	var floor, count, all time.Duration
	var how string
	least := func(cur *time.Duration, d time.Duration) {
		if *cur == 0 || d < *cur {
			*cur = d
		}
	}
	for range 5 {
		var f time.Duration
		f, how = b.sequentialFloor(org10k, 100)
		least(&floor, f)
		least(&count, b.best(1, "csv", fmt.Sprintf("SELECT count(*) FROM github.repos.repos WHERE org = '%s'", org10k)))
		least(&all, b.best(1, "json", fmt.Sprintf("SELECT * FROM github.repos.repos WHERE org = '%s'", org10k)))
	}
	add("10k rows: sequential fetch floor ("+how+", 100 pages)", ms(floor), "")
	add("10k rows: count(*) / floor", fmt.Sprintf("%s, %.2fx", ms(count), float64(count)/float64(floor)), "<= 1.2x")
	add("10k rows: SELECT * -o json / floor", fmt.Sprintf("%s, %.2fx", ms(all), float64(all)/float64(floor)), "<= 3x")

	if *large > 0 {
		d, rss := b.peak("json", fmt.Sprintf("SELECT * FROM github.repos.repos WHERE org = 'scale-%d'", *large))
		add(fmt.Sprintf("%d rows: SELECT * -o json, peak RSS", *large), fmt.Sprintf("%d MB (%s)", rss>>20, ms(d)), "<= 100 MB")
	}
	_, one := b.peak("csv", "SELECT count(*) FROM github.repos.repos WHERE org = 'scale-20000'")
	d, four := b.peak("csv", "SELECT org, count(*) FROM github.repos.repos WHERE org IN ('scale-20000', 'scale-20001', 'scale-20002', 'scale-20003') GROUP BY org")
	add("fan-out over 4 x scale-20000 vs one org: peak RSS", fmt.Sprintf("%d MB vs %d MB (%s)", four>>20, one>>20, ms(d)), "<= one org + 40 MB")
}

// sequentialFloor fetches the engine's pages of org one after the other
// on one connection, bodies read and discarded: with curl when it is
// installed (one process, every URL), else with Go's HTTP client.
func (b *bench) sequentialFloor(org string, pages int) (time.Duration, string) {
	urls := make([]string, pages)
	for p := range urls {
		urls[p] = fmt.Sprintf("%s/orgs/%s/repos?per_page=100&page=%d", b.fake.URL(), org, p+1)
	}
	curl, err := exec.LookPath("curl")
	start := time.Now()
	{
		if err == nil {
			cmd := exec.Command(curl, append([]string{"-sSf"}, urls...)...)
			var errb strings.Builder
			cmd.Stdout, cmd.Stderr = io.Discard, &errb
			if err := cmd.Run(); err != nil {
				fail("floor: curl: %v %s", err, errb.String())
			}
		} else {
			for _, u := range urls {
				resp, err := http.Get(u)
				if err != nil {
					fail("floor: %v", err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}
	}
	d := time.Since(start)
	if err == nil {
		return d, "curl"
	}
	return d, "Go HTTP client"
}

// best runs an exec statement n times and returns its best wall time.
func (b *bench) best(n int, format, sql string) time.Duration {
	var best time.Duration
	for range n {
		if d, _ := b.peak(format, sql); best == 0 || d < best {
			best = d
		}
	}
	return best
}

// peak runs one exec with its output discarded and returns its wall time
// and peak RSS (bytes): the engine's own VmHWM, printed at exit with
// --debug (see debugPeakKB).
func (b *bench) peak(format, sql string) (time.Duration, int64) {
	cmd := exec.Command(b.bin, "exec", "--debug", "-o", format, "--auth", `{"github":{"type":"null_auth"}}`, sql)
	cmd.Env = b.env()
	cmd.Stdout = io.Discard
	var errb strings.Builder
	cmd.Stderr = &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		fail("exec %q: %v\n%s", sql, err, errb.String())
	}
	return time.Since(start), debugPeakKB(errb.String()) << 10
}
