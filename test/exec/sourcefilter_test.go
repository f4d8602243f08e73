package exec_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// A dependent fan-out asks only for the source rows that pass the WHERE
// terms over the source alone (docs/reliability.md, "Tables that mean one thing"): same rows as the unfiltered
// plan, fewer requests, and EXPLAIN shows the narrowed estimate.

const pythonPulls = `SELECT r.name, count(p.number) AS open_pulls
` + reposToPulls + `WHERE r.org = 'acme' AND NOT r.archived AND r.language = %s
GROUP BY r.name ORDER BY r.name`

func pullRequests() int {
	n := 0
	for _, p := range requestPaths() {
		if strings.HasSuffix(p, "/pulls") {
			n++
		}
	}
	return n
}

func TestSourceFilterCutsFanOut(t *testing.T) {
	filtered := strings.Replace(pythonPulls, "%s", "'Python'", 1)
	// `||` is read differently by the parser's grammar and by SQLite, so a
	// statement containing it gets no source filter: the unfiltered plan,
	// with the same meaning ((language || '') = 'Python' holds exactly when
	// language = 'Python').
	unfiltered := strings.Replace(pythonPulls, "%s", "'Python' AND (r.language || '') = 'Python'", 1)

	fake.ResetRequests()
	a := run(t, "-o", "csv", filtered)
	if a.Code != 0 {
		t.Fatalf("filtered: exit %d\n%s", a.Code, a.Stderr)
	}
	nFiltered := pullRequests()

	fake.ResetRequests()
	b := run(t, "-o", "csv", unfiltered)
	if b.Code != 0 {
		t.Fatalf("unfiltered: exit %d\n%s", b.Code, b.Stderr)
	}
	nUnfiltered := pullRequests()

	if a.Stdout != b.Stdout {
		t.Fatalf("the source filter changed the result:\nfiltered:\n%s\nunfiltered:\n%s", a.Stdout, b.Stdout)
	}
	// acme repo i: Python when i%4 == 1, archived when i%10 == 9, one open
	// pull when i%4 == 1: 63 Python repos, 13 of them archived.
	if lines := strings.Count(a.Stdout, "\n"); lines != 1+50 || !strings.Contains(a.Stdout, "repo-001,1\n") || strings.Contains(a.Stdout, "repo-009,") {
		t.Fatalf("rows:\n%s", a.Stdout)
	}
	if nFiltered != 50 || nUnfiltered != 250 {
		t.Fatalf("pull requests asked: filtered %d (want 50), unfiltered %d (want 250)", nFiltered, nUnfiltered)
	}

	fake.ResetRequests()
	e := run(t, "-o", "csv", "EXPLAIN "+filtered)
	if e.Code != 0 || !strings.Contains(e.Stdout, "N(r where NOT (r.archived) AND r.language = 'Python')") || len(fake.Requests()) != 0 {
		t.Fatalf("explain: exit %d\n%s%s", e.Code, e.Stdout, e.Stderr)
	}
	e = run(t, "-o", "csv", "EXPLAIN "+unfiltered)
	if e.Code != 0 || !strings.Contains(e.Stdout, "N(r)") {
		t.Fatalf("explain unfiltered: exit %d\n%s%s", e.Code, e.Stdout, e.Stderr)
	}
}

// The unprotected-default-branch query (a LEFT JOIN whose source is the
// preserved side) is narrowed the same way, with the same rows.
func TestSourceFilterLeftJoin(t *testing.T) {
	q := `SELECT r.name FROM github.repos.repos r
LEFT JOIN github.branches.branch_protection bp
  ON bp.owner = json_extract(r.owner, '$.login') AND bp.repo = r.name AND bp.branch = r.default_branch
WHERE r.org = 'acme' AND bp.url IS NULL AND r.language = 'Python'%s ORDER BY r.name`
	// runCounting runs sql and counts the branch protection requests it made.
	runCounting := func(sql string) (testutil.Result, int) {
		fake.ResetRequests()
		r := run(t, "-o", "csv", sql)
		n := 0
		for _, p := range requestPaths() {
			if strings.HasSuffix(p, "/protection") {
				n++
			}
		}
		return r, n
	}
	a, nA := runCounting(strings.Replace(q, "%s", "", 1))
	b, nB := runCounting(strings.Replace(q, "%s", " AND (r.name || '') = r.name", 1))
	if a.Code != 0 || b.Code != 0 || a.Stdout != b.Stdout {
		t.Fatalf("exit %d/%d, results differ:\n%s\n%s\n%s%s", a.Code, b.Code, a.Stdout, b.Stdout, a.Stderr, b.Stderr)
	}
	// Python repos are i%4 == 1; only i%4 == 0 protect their default branch.
	if strings.Count(a.Stdout, "\n") != 1+63 || !strings.Contains(a.Stdout, "repo-001\n") || nA != 63 || nB != 250 {
		t.Fatalf("rows %q, protection requests %d (want 63) vs %d (want 250)", a.Stdout, nA, nB)
	}
}
