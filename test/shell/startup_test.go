package shell

import (
	"sort"
	"testing"
	"time"
)

// TestStartupToPrompt measures process start to the first prompt on the
// terminal (median of 10 runs). The issue asks for well under 100 ms; the
// assertion leaves room for loaded CI machines and the race detector's
// slower test process, and the median is logged for the report.
func TestStartupToPrompt(t *testing.T) {
	gh, env := fake(t)
	startShell(t, env).expect(ready, wait) // warm the binary into the page cache
	var times []time.Duration
	for i := 0; i < 10; i++ {
		start := time.Now()
		sh := startShell(t, env)
		sh.expect(ready, wait)
		times = append(times, time.Since(start))
		sh.send(ctrlD)
		sh.waitExit(wait)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	median := (times[4] + times[5]) / 2
	t.Logf("start-up to prompt: median %v, min %v, max %v", median, times[0], times[9])
	if median > 250*time.Millisecond {
		t.Errorf("start-up to prompt median %v, want well under 100ms", median)
	}
	if len(gh.Requests()) != 0 {
		t.Errorf("start-up made %d HTTP requests, want none", len(gh.Requests()))
	}
}
