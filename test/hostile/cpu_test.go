package hostile

import (
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestParserAndLikeCPUBounded: statements that once cost 10-90 s of CPU in
// the front end (a quadratic look-ahead in the tokenizer; a LIKE pattern of
// 260,000 '%' compiled to a regexp; every IN subquery's text searched by
// parsing every candidate) finish well within --query-timeout 2s.
// The bound is generous for a loaded 2-core machine: each took 10 s or more
// before the fix and well under 1 s after.
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
			start := time.Now()
			r := testutil.Run(t, testutil.FakeEnv(t, fake.URL()), c.sql, "exec", "-o", "json", "--query-timeout", "2s", "-f", "-")
			took := time.Since(start)
			if took > 5*time.Second {
				t.Fatalf("took %v with --query-timeout 2s", took)
			}
			if c.wantOut != "" && !strings.Contains(r.Stdout, c.wantOut) {
				t.Fatalf("stdout %.300q does not hold %q; stderr %.300s", r.Stdout, c.wantOut, r.Stderr)
			}
			if c.wantKind != "" {
				if e := errorOf(t, r.Stderr); e.Kind != c.wantKind {
					t.Fatalf("kind %q, want %s: %.300s", e.Kind, c.wantKind, e.Message)
				}
			}
			t.Logf("%s: %v", c.name, took)
		})
	}
}
