package hostile

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestRequestEstimatesInConstantMemory: statements whose request count is
// astronomic are refused by --max-requests without enumerating the
// combinations. Before the fix, the EXPLAIN with three 250-value IN lists
// built all 15,625,000 parameter maps (28 s, 5.7 GB peak RSS on the
// development machine) and the IN (WITH RECURSIVE ... LIMIT 3000000)
// subquery read 3 million tuples into memory (17 s, 1.67 GB); after it,
// both are refused in about 10 ms of CPU at about 25 MB.
//
// Peak RSS is the child's ru_maxrss (kilobytes on Linux), CPU is its
// user + system time; the bounds are generous for a loaded 2-core machine.
func TestRequestEstimatesInConstantMemory(t *testing.T) {
	fake := fakegithub.ForTest(t)
	inN := func(prefix string, n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = fmt.Sprintf("'%s%d'", prefix, i)
		}
		return strings.Join(vs, ",")
	}
	in := func(prefix string) string { return inN(prefix, 250) }
	explain := "EXPLAIN SELECT * FROM github.branches.branch_protection WHERE owner IN (" + in("o") + ") AND repo IN (" + in("r") + ") AND branch IN (" + in("b") + ")"
	cases := []struct {
		name, sql string
		want      []string
	}{
		{"EXPLAIN with three 250-value IN lists", explain,
			[]string{"15625000 requests", "more than the limit of 1000"}},
		{"three 1,000-value IN lists", "SELECT * FROM github.branches.branch_protection WHERE owner IN (" + inN("o", 1000) +
			") AND repo IN (" + inN("r", 1000) + ") AND branch IN (" + inN("b", 1000) + ")",
			[]string{"1000000000 requests"}},
		{"IN subquery of 3,000,000 values", "SELECT name FROM github.repos.repos WHERE org IN (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 3000000) SELECT 'org' || x FROM c)",
			[]string{"at least 10001 requests", "more than the limit of 1000", "nothing was sent"}},
		{"IN subquery after the budget is spent, limit 1", "SELECT a.name FROM github.repos.repos a, github.repos.repos b WHERE a.org = 'tiny' AND b.org IN (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 3000000) SELECT 'org' || x FROM c)",
			[]string{"at least 10002 requests", "more than the limit of 1"}},
		{"IN subquery of 3,000,000 values, limit 5", "SELECT name FROM github.repos.repos WHERE org IN (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 3000000) SELECT 'org' || x FROM c)",
			[]string{"at least 10001 requests", "more than the limit of 5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake.ResetRequests()
			args := []string{"exec", "--debug", "-o", "json", "-f", "-"}
			if _, limit, ok := strings.Cut(c.name, "limit "); ok {
				args = append(args, "--max-requests", limit)
			}
			start := time.Now()
			r := testutil.Run(t, testutil.FakeEnv(t, fake.URL()), c.sql, args...)
			took := time.Since(start)
			if r.Code != 1 {
				t.Fatalf("exit %d, want 1; stderr %.300s", r.Code, r.Stderr)
			}
			if !testutil.Contains(t, "stderr", r.Stderr, c.want...) {
				t.FailNow()
			}
			if e := errorOf(t, r.Stderr); e.Kind != engine.KindPlan {
				t.Fatalf("kind %q, want plan: %s", e.Kind, e.Message)
			}
			if r.Stdout != "" {
				t.Fatalf("stdout: %.300s", r.Stdout)
			}
			// The engine's own peak (VmHWM, printed with --debug): the
			// rusage maxrss of a child also counts the memory of the
			// process that started it, here the test binary.
			rssMB := peakMemoryMB(t, r.Stderr)
			cpu := r.CPU
			t.Logf("%s: %d bytes of SQL, wall %v, cpu %v, peak RSS %.1f MB", c.name, len(c.sql), took, cpu, rssMB)
			if rssMB > 50 {
				t.Fatalf("peak RSS %.1f MB, want under 50 MB", rssMB)
			}
			if cpu > time.Second {
				t.Fatalf("%v of CPU, want well under a second", cpu)
			}
			if n := len(fake.Requests()); n > 1 || (n == 1 && !strings.Contains(c.name, "budget is spent")) {
				t.Fatalf("%d requests sent before the refusal", n)
			}
		})
	}
}

// peakMemoryMB reads the "debug: peak memory N kB (VmHWM)" line.
func peakMemoryMB(t *testing.T, stderr string) float64 {
	t.Helper()
	n, ok := testutil.DebugPeakMemory(stderr)
	if !ok {
		t.Fatalf("no peak memory line in stderr: %.500s", stderr)
	}
	return float64(n) / (1 << 20)
}

// TestParserAndLikeCPUBounded: statements that once cost 10-90 s of CPU in
// the front end (a quadratic look-ahead in the tokenizer; a LIKE pattern of
// 260,000 '%' compiled to a regexp; every IN subquery's text searched by
// parsing every candidate) are answered with little CPU. The bound that
// matters is the process's CPU time (user + system), which a busy machine
// does not stretch as it stretches the wall clock: each took 10 s or more
// before the fix and well under 1 s after. The statement's deadline is
// generous (60 s) so that a loaded CI machine cannot turn a plan error into
// a timeout; timings belong to make bench.
func TestParserAndLikeCPUBounded(t *testing.T) {
	fake := fakegithub.ForTest(t)
	cases := []struct {
		name, sql, wantOut string
		wantKind           engine.Kind // the error's kind; "" for a success
	}{
		{"60,000 NOTs", "SELECT " + strings.Repeat("NOT ", 60000) + "1", "", engine.KindSQL},
		{"260,000 % in LIKE", "SHOW RESOURCES IN github LIKE '" + strings.Repeat("%", 260000) + "'", `"full_name": "github.repos.repos"`, ""},
		{"130,000 %a in LIKE", "SHOW RESOURCES IN github LIKE '" + strings.Repeat("%a", 130000) + "'", "[", ""},
		{"60,000 IS NOT NULL look-aheads", "SELECT 1 WHERE " + strings.Repeat("1 IS NOT NULL AND ", 14000) + "1", "", ""},
		{"3,000 IN subqueries", tiny + strings.Repeat(" AND name IN (SELECT name FROM github.repos.repos WHERE org = 'tiny')", 3000), "", engine.KindPlan},
		{"16,000 literal predicates", tiny + strings.Repeat(" AND n = 'x'", 16000), "", engine.KindPlan},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := testutil.Run(t, testutil.FakeEnv(t, fake.URL()), c.sql, "exec", "-o", "json", "--query-timeout", "60s", "-f", "-")
			if r.CPU > 5*time.Second {
				t.Fatalf("used %v of CPU; the front end must stay linear", r.CPU)
			}
			if c.wantOut != "" && !strings.Contains(r.Stdout, c.wantOut) {
				t.Fatalf("stdout %.300q does not hold %q; stderr %.300s", r.Stdout, c.wantOut, r.Stderr)
			}
			if c.wantKind != "" {
				if e := errorOf(t, r.Stderr); e.Kind != c.wantKind {
					t.Fatalf("kind %q, want %s: %.300s", e.Kind, c.wantKind, e.Message)
				}
			}
			t.Logf("%s: %v CPU", c.name, r.CPU)
		})
	}
}
