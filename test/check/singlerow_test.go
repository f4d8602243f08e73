package check

import (
	"strconv"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// Controls whose statement aggregates without GROUP BY: one row whatever
// the org holds, so their expectation judges a constant.
const singleRowControls = `controls:
  - id: at-most-2-owners
    expect: count <= 2
    sql: SELECT count(*) FROM github.orgs.members WHERE org = 'acme' AND role = 'admin'
  - id: no-admin
    sql: |
      SELECT max(login) AS last
      FROM github.orgs.members WHERE org = 'acme' AND role = 'admin'
  - id: too-many-owners
    sql: |
      SELECT count(*) AS n FROM github.orgs.members
      WHERE org = 'acme' AND role = 'admin'
      HAVING count(*) > 2
  - id: owners-by-role
    expect: count <= 2
    sql: SELECT type, count(*) FROM github.orgs.members WHERE org = 'acme' GROUP BY type
  - id: owners-listed
    expect: count <= 2
    sql: SELECT login, count(*) OVER () AS n FROM github.orgs.members WHERE org = 'acme' AND role = 'admin'
  - id: owners-with-total
    expect: count <= 2
    sql: SELECT login, (SELECT count(*) FROM github.orgs.members WHERE org = 'acme') AS members FROM github.orgs.members WHERE org = 'acme' AND role = 'admin'
  - id: two-counts
    expect: count = 2
    sql: SELECT count(*) FROM github.orgs.members WHERE org = 'acme' UNION ALL SELECT count(*) FROM github.repos.repos WHERE org = 'acme'
`

// A control over an aggregate without GROUP BY is a problem of the file
// at its sql line, saying what to write instead; HAVING, GROUP BY, a
// window, a scalar subquery and a UNION are not one constant row, and run.
func TestSingleRowAggregateIsAProblem(t *testing.T) {
	s, env := serverEnv(t)
	file, r := checkControls(t, env, "single.yaml", singleRowControls, 2)
	lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
	want := []struct {
		line      int
		id, judge string
	}{
		{4, "at-most-2-owners", "expect: count <= 2, which judges the number of rows, always passes"},
		{6, "no-admin", "expect: empty, which judges the number of rows, never passes"},
	}
	if len(lines) != len(want)+1 {
		t.Fatalf("stderr has %d lines, want %d problems + summary:\n%s", len(lines), len(want), r.Stderr)
	}
	for i, w := range want {
		prefix := file + ":" + strconv.Itoa(w.line) + ": control " + w.id + ": sql aggregates"
		if !strings.HasPrefix(lines[i], prefix) || !strings.Contains(lines[i], "without GROUP BY, so it returns exactly one row") ||
			!strings.Contains(lines[i], w.judge) || !strings.Contains(lines[i], "HAVING count(*) > 2") {
			t.Errorf("problem %d:\n%s\nwant %s ... %s ... HAVING", i, lines[i], prefix, w.judge)
		}
	}
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests made before the file was valid", n)
	}

	// The others are valid controls; HAVING reports the org's 3 owners.
	ok := "controls:\n" + singleRowControls[strings.Index(singleRowControls, "  - id: too-many-owners"):]
	rep := parseJSON(t, runCheck(t, env, testutil.TempFile(t, "ok.yaml", ok), "-o", "json"))
	got := statuses(rep)
	for id, st := range map[string]string{"too-many-owners": "fail", "owners-by-role": "pass", "owners-listed": "fail", "owners-with-total": "fail", "two-counts": "pass"} {
		if got[id] != st {
			t.Errorf("%s: %s, want %s (%+v)", id, got[id], st, rep)
		}
	}
	for _, c := range rep.Controls {
		if c.ID == "too-many-owners" && (len(c.Rows) != 1 || len(c.Rows[0]) != 1 || c.Rows[0][0] != float64(3)) {
			t.Errorf("too-many-owners rows %v, want [[3]]", c.Rows)
		}
	}
}
