package ratelimit

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

type rateLimit struct {
	Provider  string `json:"provider"`
	Bucket    string `json:"bucket"`
	Used      int    `json:"used"`
	Limit     int    `json:"limit"`
	Remaining *int   `json:"remaining"`
	Reset     string `json:"reset"`
}

// budgetFake has 4000 of 5000 core requests left, resetting in an hour.
func budgetFake(t *testing.T) (*fakegithub.Server, time.Time) {
	start := time.Now()
	return coreFake(t, 4000), start.Add(time.Hour)
}

func checkRL(t *testing.T, label string, got []rateLimit, used, remaining int, reset time.Time) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("%s: rate_limit %+v, want one bucket", label, got)
	}
	rl := got[0]
	r, err := time.Parse(time.RFC3339, rl.Reset)
	if rl.Provider != "github" || rl.Bucket != "core" || rl.Used != used || rl.Limit != 5000 || rl.Remaining == nil || *rl.Remaining != remaining ||
		err != nil || r.Sub(reset) > 2*time.Second || reset.Sub(r) > 2*time.Second {
		t.Fatalf("%s: rate_limit %+v (remaining %v), want core used %d, %d of 5000 left, reset about %s", label, rl, rl.Remaining, used, remaining, reset.UTC().Format(time.RFC3339))
	}
}

// Every surface reports the statement's bucket, the requests it used,
// what remains and the reset: exec --stats (a line, or JSON with -o
// json), MCP stats.rate_limit, check's JSON (per control and totals) and
// JUnit properties.
func TestRateLimitBudgetInEverySurface(t *testing.T) {
	fake, reset := budgetFake(t)
	e := env(t, fake)

	r := run(t, e, "exec", "--stats", "-o", "csv", repoInAcme(3))
	want := regexp.MustCompile(`(?m)^stats: 3 rows; 3 HTTP requests, 3 pages \(3 fetched, 0 revalidated, 0 from cache\), \d+ ms(; read [^;]+)?; rate limit github core: 3 used, 3997 of 5000 left, resets \d\d:\d\d:\d\d UTC$`)
	if r.Code != 0 || !want.MatchString(r.Stderr) {
		t.Fatalf("exec --stats: exit %d\n%s", r.Code, r.Stderr)
	}
	r = run(t, e, "exec", "--stats", "-o", "json", repoInAcme(2))
	var js struct {
		Stats struct {
			RateLimit []rateLimit `json:"rate_limit"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(r.Stderr), &js); r.Code != 0 || err != nil {
		t.Fatalf("exec --stats -o json: exit %d %v\n%s", r.Code, err, r.Stderr)
	}
	checkRL(t, "exec json", js.Stats.RateLimit, 2, 3995, reset)

	c, _, _ := mcptest.Stdio(t, e, "mcp")
	res := c.Query(t, repoInAcme(4))
	raw, _ := json.Marshal(res.Raw["stats"])
	var ms struct {
		RateLimit []rateLimit `json:"rate_limit"`
	}
	if err := json.Unmarshal(raw, &ms); res.IsError || err != nil {
		t.Fatalf("mcp: %+v %v", res, err)
	}
	checkRL(t, "mcp", ms.RateLimit, 4, 3991, reset)
	testutil.Contains(t, "mcp text", res.Text, "rate limit github core: 4 used, 3991 of 5000 left")

	file := testutil.TempFile(t, "c.yaml", "controls:\n  - id: two\n    title: two repos\n    expect: count == 2\n    sql: "+repoInAcme(2)+"\n  - id: one\n    title: one repo\n    expect: count == 1\n    sql: "+repoInAcme(1)+"\n")
	r = run(t, e, "check", file, "-o", "json")
	var rep struct {
		Controls []struct {
			Stats struct {
				RateLimit []rateLimit `json:"rate_limit"`
			} `json:"stats"`
		} `json:"controls"`
		RateLimit []rateLimit `json:"rate_limit"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); r.Code != 0 || err != nil || len(rep.Controls) != 2 {
		t.Fatalf("check -o json: exit %d %v\n%s%s", r.Code, err, r.Stdout, r.Stderr)
	}
	// repo-000 is read by both controls and sent once in the run
	// (docs/check.md, "One request per URL per run"): 2 used, not 3.
	checkRL(t, "check total", rep.RateLimit, 2, 3989, reset)
	used := 0
	for _, c := range rep.Controls {
		for _, rl := range c.Stats.RateLimit {
			used += rl.Used
		}
	}
	if used != 2 {
		t.Errorf("check controls' stats %+v: %d used in all, want 2", rep.Controls, used)
	}
	r = run(t, e, "check", file, "-o", "junit")
	if r.Code != 0 {
		t.Fatalf("check -o junit: exit %d\n%s", r.Code, r.Stderr)
	}
	props := testutil.JUnitProperties(t, r.Stdout)
	if props["rate_limit.github.core.used"] != "2" || props["rate_limit.github.core.remaining"] != "3987" || props["rate_limit.github.core.limit"] != "5000" || props["rate_limit.github.core.reset"] == "" {
		t.Errorf("junit properties %v", props)
	}
}

// The shell's footer carries the budget on its last line (after the
// methods the tables were read with).
func TestRateLimitBudgetInShellFooter(t *testing.T) {
	fake, _ := budgetFake(t)
	r := testutil.Run(t, env(t, fake), repoInAcme(2)+";\n", "shell")
	want := regexp.MustCompile(`2 rows \(2 HTTP requests, 2 pages[^)]*\)\n(read [^\n]+\n)*rate limit github core: 2 used, 3998 of 5000 left, resets \d\d:\d\d:\d\d UTC\n`)
	if r.Code != 0 || !want.MatchString(r.Stderr) {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
}
