package enginetest

import "testing"

// Statements whose answer is known to be empty before anything is sent
// send nothing and still answer as SQL does: LIMIT 0 (planned and
// refused as usual, EXPLAIN says no request), and WHERE predicates on one
// parameter that admit no value (the table is empty; an aggregate still
// gives its one row). Values SQLite may read as equal, and predicates in
// JOIN ... ON, are refused instead (README, "Answers known to be
// empty").
func TestKnownEmpty(t *testing.T) {
	Run(t, pages, []Case{
		{Name: "LIMIT 0", SQL: "SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 0",
			NoneSent: true, Explain: "no request: LIMIT 0 returns no rows"},
		{Name: "LIMIT 0 of an aggregate", SQL: "SELECT count(*) FROM github.repos.repos WHERE org IN ('acme', 'beta') LIMIT 0",
			NoneSent: true, Explain: "estimated requests: 0"},
		{Name: "LIMIT 0 of a fan-out from another table", SQL: "SELECT r.name, p.title FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme' LIMIT 0",
			NoneSent: true, Explain: "2. scan github.pulls.pulls AS p via list (GET /repos/{owner}/{repo}/pulls) with owner='acme', repo from r.name; no request: LIMIT 0"},
		{Name: "LIMIT 0 of a UNION", SQL: "SELECT name FROM github.repos.repos WHERE org = 'acme' UNION SELECT name FROM github.repos.repos WHERE org = 'beta' LIMIT 0",
			NoneSent: true},
		{Name: "LIMIT 0 still refuses what cannot be planned", SQL: "SELECT title FROM github.pulls.pulls LIMIT 0",
			Err: "cannot be read without binding required parameters"},
		{Name: "LIMIT 0 in a subquery is the subquery's", SQL: "SELECT count(*) FROM (SELECT name FROM github.repos.repos WHERE org = 'beta' LIMIT 0) AS t",
			Want: []string{"0"}, Sent: []string{"/orgs/beta/repos"}},
		{Name: "contradictory equalities", SQL: "SELECT name FROM github.repos.repos WHERE org = 'acme' AND org = 'beta'",
			NoneSent: true, Explain: "with org=(no value); no request: its WHERE predicates on org (org = 'acme' AND org = 'beta') admit no value"},
		{Name: "equality outside an IN list, aggregate", SQL: "SELECT count(*) FROM github.repos.repos WHERE org IN ('acme', 'beta') AND org = 'zeta'",
			Want: []string{"0"}, NoneSent: true},
		{Name: "an empty source makes its fan-out empty", SQL: "SELECT r.name, p.title FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme' AND r.org = 'beta'",
			NoneSent: true},
		{Name: "an empty table under NOT EXISTS", SQL: "SELECT name FROM github.repos.repos r WHERE r.org = 'beta' AND NOT EXISTS (SELECT 1 FROM github.repos.repos x WHERE x.org = 'acme' AND x.org = 'beta')",
			Want: []string{"z"}, Sent: []string{"/orgs/beta/repos"}},
		{Name: "overlapping IN lists still bind", SQL: "SELECT name FROM github.repos.repos WHERE org IN ('acme', 'beta') AND org IN ('beta', 'zeta')",
			Want: []string{"z"}, Sent: []string{"/orgs/beta/repos"}},
		{Name: "integers SQLite may read as equal are refused", SQL: "SELECT title FROM github.pulls.pulls WHERE owner = 'acme' AND repo = 'a' AND pull_number = '01' AND pull_number = 1",
			Err: "SQLite may read some of them as the same integer value"},
		{Name: "predicates in ON are refused", SQL: "SELECT r.name FROM github.repos.repos r LEFT JOIN github.repos.repos q ON q.org = 'acme' AND q.org = 'beta' WHERE r.org = 'beta'",
			Err: "is in JOIN ... ON"},
	})
}
