package check

import (
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
)

func TestEstimateCountsDistinctURLs(t *testing.T) {
	e := NewEstimate(nil)
	e.windows["github"] = []engine.Window{{N: 900, Per: time.Minute}, {Bucket: "search", N: 30, Per: time.Minute}}
	keys := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = prefix + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
		}
		return out
	}
	core := keys("/repos/", 1850)
	if !e.Add(engine.Fetch{Provider: "github", Bucket: "core", Path: "/repos", Keys: core, Source: "x"}) {
		t.Fatal("new keys not added")
	}
	if e.Add(engine.Fetch{Provider: "github", Bucket: "core", Path: "/repos", Keys: core[:900], Source: "y"}) {
		t.Error("the same URLs counted twice")
	}
	if n := e.Requests(); n != 1850 {
		t.Errorf("%d requests, want 1850", n)
	}
	// 1,850 at 900/min: 900 at once, 900 a minute later, 50 after two.
	if d, rate := e.Duration(); d != 2*time.Minute || rate != "900/min" {
		t.Errorf("duration %s at %s, want 2m0s at 900/min", d, rate)
	}
	e.Add(engine.Fetch{Provider: "github", Bucket: "search", Path: "/search/issues", Keys: keys("/search?q=", 100)})
	if d, rate := e.Duration(); d != 3*time.Minute || rate != "30/min (search)" {
		t.Errorf("with 100 searches: %s at %s, want 3m0s at 30/min (search)", d, rate)
	}
	if got := DefaultRunTimeout(3 * time.Minute); got != 11*time.Minute {
		t.Errorf("default run timeout %s, want 11m", got)
	}
	if got := DefaultRunTimeout(10 * time.Hour); got != MaxDefaultRunTimeout {
		t.Errorf("default run timeout %s, want the bound", got)
	}
}

func TestBudgetWords(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1850: "1,850", 26000: "26,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
	for d, want := range map[time.Duration]string{0: "0 s", 4 * time.Second: "4 s", 123 * time.Second: "2 min 3 s", 2 * time.Minute: "2 min", 65 * time.Minute: "1 h 5 min"} {
		if got := roundDuration(d); got != want {
			t.Errorf("roundDuration(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestRunFloor(t *testing.T) {
	if got := RunFloor(72, 4, 2*time.Minute); got != 36*time.Minute {
		t.Errorf("72 controls 4 at a time, 2 min each: %s, want 36m", got)
	}
	if got := RunFloor(2, 4, 5*time.Second); got != 5*time.Second {
		t.Errorf("one wave of 5 s: %s", got)
	}
	if got := RunFloor(3, 1, 0); got != MaxDefaultRunTimeout {
		t.Errorf("no query timeout: %s, want the bound", got)
	}
	if got := defaultRunTimeout(36*time.Minute, 2*time.Minute); got != 40*time.Minute {
		t.Errorf("floor 36 min + twice 2 min: %s", got)
	}
}
