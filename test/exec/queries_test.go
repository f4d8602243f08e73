package exec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/testutil"
)

// names lists acme repo names repo-NNN for which keep(i) holds.
func names(keep func(i int) bool) []string {
	var out []string
	for i := 0; i < 250; i++ {
		if keep(i) {
			out = append(out, fmt.Sprintf("repo-%03d", i))
		}
	}
	return out
}

func csvLines(header string, rows ...string) string {
	return header + "\n" + strings.Join(rows, "\n") + "\n"
}

// The fake's dataset (test/fakegithub/doc.go): acme repo i is private when
// i%3 != 0, archived when i%10 == 9, a fork when i%20 == 5, and its
// language is Go, Python, TypeScript or none by i%4.
func TestQueriesReturnExactRows(t *testing.T) {
	archivedPublic := names(func(i int) bool { return i%10 == 9 && i%3 == 0 })
	pythonArchived := names(func(i int) bool { return i%10 == 9 && i%4 == 1 })
	cases := []struct {
		name, sql, want string
	}{
		{"aggregates", `SELECT count(*) AS n, sum(private) AS p, sum(archived) AS a, sum(fork) AS f FROM github.repos.repos WHERE org = 'acme'`,
			csvLines("n,p,a,f", "250,166,25,13")},
		{"where on materialised columns", `SELECT name FROM github.repos.repos WHERE org = 'acme' AND NOT private AND archived ORDER BY name`,
			csvLines("name", archivedPublic...)},
		{"boolean as integer", `SELECT count(*) AS c FROM github.repos.repos WHERE org = 'acme' AND private = 0`,
			csvLines("c", "84")},
		{"order limit offset", `SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT 3 OFFSET 10`,
			csvLines("name", "repo-010", "repo-011", "repo-012")},
		{"group by having", `SELECT language, count(*) AS c FROM github.repos.repos WHERE org = 'acme' GROUP BY language HAVING count(*) > 62 ORDER BY language`,
			csvLines("language,c", "Go,63", "Python,63")},
		{"null group", `SELECT count(*) AS c FROM github.repos.repos WHERE org = 'acme' AND language IS NULL`,
			csvLines("c", "62")},
		{"json_extract on nested object", `SELECT DISTINCT json_extract(owner, '$.login') AS owner FROM github.repos.repos WHERE org = 'tiny'`,
			csvLines("owner", "tiny")},
		{"json arrays", `SELECT name, json_array_length(topics) AS n FROM github.repos.repos WHERE org = 'tiny' ORDER BY name`,
			csvLines("name,n", "alpha,3", "beta,1", "gamma,1")},
		{"json_each table function", `SELECT t.value AS topic, count(*) AS c FROM github.repos.repos r, json_each(r.topics) t WHERE r.org = 'acme' AND t.value IN ('infra', 'deprecated') GROUP BY t.value ORDER BY t.value`,
			csvLines("topic,c", "deprecated,23", "infra,36")},
		{"IN fans out", `SELECT count(*) AS c FROM github.repos.repos WHERE org IN ('tiny', 'acme')`,
			csvLines("c", "253")},
		{"IN value becomes a column", `SELECT org, count(*) AS c FROM github.repos.repos WHERE org IN ('tiny', 'acme') GROUP BY org ORDER BY org`,
			csvLines("org,c", "acme,250", "tiny,3")},
		{"join independently bound tables", `SELECT t.name, count(*) AS c FROM github.repos.repos t JOIN github.repos.repos a ON a.language = t.language WHERE t.org = 'tiny' AND a.org = 'acme' GROUP BY t.name ORDER BY t.name`,
			csvLines("name,c", "alpha,63", "beta,63", "gamma,62")},
		{"left join", `SELECT t.name, count(a.name) AS c FROM github.repos.repos t LEFT JOIN github.repos.repos a ON a.name = t.name AND a.org = 'acme' WHERE t.org = 'tiny' GROUP BY t.name ORDER BY t.name`,
			csvLines("name,c", "alpha,0", "beta,0", "gamma,0")},
		{"scalar subquery", `SELECT name FROM github.repos.repos WHERE org = 'acme' AND archived AND language = (SELECT language FROM github.repos.repos WHERE org = 'tiny' AND name = 'beta') ORDER BY name`,
			csvLines("name", pythonArchived...)},
		{"cte and union", `WITH t AS (SELECT name FROM github.repos.repos WHERE org = 'tiny') SELECT name FROM t WHERE name < 'b' UNION ALL SELECT login FROM github.orgs.members WHERE org = 'tiny' ORDER BY 1`,
			""},
		{"window function", `SELECT name, row_number() OVER (ORDER BY name DESC) AS rn FROM github.repos.repos WHERE org = 'tiny' ORDER BY name`,
			csvLines("name,rn", "alpha,3", "beta,2", "gamma,1")},
		{"case and string concat", `SELECT name || ':' || CASE WHEN private THEN 'private' ELSE 'public' END AS v FROM github.repos.repos WHERE org = 'tiny' ORDER BY name`,
			csvLines("v", "alpha:public", "beta:private", "gamma:private")},
		{"single object method", `SELECT name, default_branch, json_extract(license, '$.spdx_id') AS license FROM github.repos.repos WHERE owner = 'tiny' AND repo = 'alpha'`,
			csvLines("name,default_branch,license", "alpha,master,MIT")},
		{"wrapped list (workflow_runs)", `SELECT status, count(*) AS c FROM github.actions.workflow_runs WHERE owner = 'acme' AND repo = 'repo-005' GROUP BY status ORDER BY status`,
			""},
		{"optional parameter pushed down", `SELECT count(*) AS c FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-004' AND state = 'closed'`,
			""},
		{"members filter 2fa", `SELECT login FROM github.orgs.members WHERE org = 'acme' AND filter = '2fa_disabled' ORDER BY login`,
			csvLines("login", "acme-dev-08", "acme-dev-16", "acme-dev-24", "acme-dev-32", "acme-dev-40")},
		{"outside collaborators", `SELECT count(*) AS c FROM github.orgs.outside_collaborators WHERE org = 'acme'`,
			csvLines("c", "6")},
		{"dependabot open critical", `SELECT count(*) AS c FROM github.dependabot.alerts WHERE org = 'acme' AND state = 'open' AND json_extract(security_advisory, '$.severity') = 'critical'`,
			csvLines("c", "9")},
		{"secret scanning open", `SELECT count(*) AS c FROM github.secret_scanning.secret_scanning WHERE org = 'acme' AND state = 'open'`,
			csvLines("c", "8")},
		{"webhooks insecure ssl", `SELECT id FROM github.orgs.webhooks WHERE org = 'acme' AND json_extract(config, '$.insecure_ssl') = '1' ORDER BY id`,
			""},
		{"rate limit object", `SELECT json_extract(rate, '$.limit') AS lim FROM github.rate_limit.rate_limit`,
			csvLines("lim", "5000")},
		{"authenticated user's repos", `SELECT count(*) AS c FROM github.repos.repos`,
			csvLines("c", "5")},
		{"zero rows is success", `SELECT name FROM github.repos.repos WHERE org = 'acme' AND name = 'nope'`,
			"name\n"},
		{"show providers", `SHOW PROVIDERS`,
			csvLines("name,version,services,resources", "github,23.0.2,49,371")},
		{"show services like", `SHOW SERVICES IN github LIKE 'secret%'`,
			csvLines("name,resources", "secret_scanning,5")},
		{"show resources like", `SHOW RESOURCES IN github.orgs LIKE '%collab%'`,
			csvLines("name,full_name,methods", "outside_collaborators,github.orgs.outside_collaborators,1")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, "-o", "csv", c.sql)
			if r.Code != 0 {
				t.Fatalf("exit %d\nstderr: %s", r.Code, r.Stderr)
			}
			want := c.want
			switch c.name {
			case "cte and union":
				want = csvLines("name", "alpha", "tiny-dev-01", "tiny-dev-02")
			case "wrapped list (workflow_runs)":
				// repo i has i%6 runs; the newest one of repo-005 is in progress.
				want = csvLines("status,c", "completed,4", "in_progress,1")
			case "optional parameter pushed down":
				// i%3 closed issues plus i%2 closed pulls (which GitHub lists as issues).
				want = csvLines("c", fmt.Sprint(4%3+4%2))
			case "webhooks insecure ssl":
				want = csvLines("id", hookIDs(t, 2, 4)...)
			}
			if r.Stdout != want {
				t.Fatalf("got:\n%s\nwant:\n%s", r.Stdout, want)
			}
		})
	}
}

// hookIDs reads the ids of the fake's hooks number n (1-based) via the
// engine itself, ordered by id, then picks the requested ones; the check
// that matters is which hooks the JSON predicate selects.
func hookIDs(t *testing.T, nth ...int) []string {
	r := run(t, "-o", "csv", `SELECT id FROM github.orgs.webhooks WHERE org = 'acme' ORDER BY id`)
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")[1:]
	if len(lines) != 4 {
		t.Fatalf("acme has %d hooks, want 4", len(lines))
	}
	var out []string
	for _, n := range nth {
		out = append(out, lines[n-1])
	}
	return out
}

func TestOutputFormats(t *testing.T) {
	q := `SELECT name, private, topics, license FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 2`
	rows := testutil.JSONRows(t, run(t, "-o", "json", q))
	if len(rows) != 2 || rows[0]["name"] != "alpha" || rows[0]["private"] != false || rows[1]["private"] != true {
		t.Fatalf("json rows: %v", rows)
	}
	if topics, ok := rows[0]["topics"].([]any); !ok || len(topics) != 3 {
		t.Fatalf("JSON columns should be nested JSON, got %T %v", rows[0]["topics"], rows[0]["topics"])
	}
	if lic, ok := rows[0]["license"].(map[string]any); !ok || lic["spdx_id"] != "MIT" {
		t.Fatalf("license: %v", rows[0]["license"])
	}
	// JSON keys keep SELECT order.
	r := run(t, "-o", "json", `SELECT private, name FROM github.repos.repos WHERE org = 'tiny' AND name = 'alpha'`)
	if !strings.Contains(r.Stdout, `{"private": false, "name": "alpha"}`) {
		t.Fatalf("key order: %s", r.Stdout)
	}
	r = run(t, "-o", "tsv", `SELECT name, description FROM github.repos.repos WHERE org = 'tiny' ORDER BY name LIMIT 1`)
	if !strings.HasPrefix(r.Stdout, "name\tdescription\nalpha\t") {
		t.Fatalf("tsv: %q", r.Stdout)
	}
	r = run(t, `SELECT name, stargazers_count FROM github.repos.repos WHERE org = 'tiny' ORDER BY name`)
	if !strings.Contains(r.Stdout, "| name  | stargazers_count |") || !strings.Contains(r.Stdout, "| alpha |") {
		t.Fatalf("table:\n%s", r.Stdout)
	}
	r = run(t, "-o", "json", `SELECT name FROM github.repos.repos WHERE org = 'acme' AND name = 'nope'`)
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "[]" {
		t.Fatalf("empty json: %d %q", r.Code, r.Stdout)
	}
	r = run(t, "-o", "yaml", `SELECT 1`)
	if r.Code != 1 || !strings.Contains(r.Stderr, "use one of") {
		t.Fatalf("bad format: %d %s", r.Code, r.Stderr)
	}
}

func TestStatementFromFile(t *testing.T) {
	f := testutil.TempFile(t, "q.sql", "-- repos of tiny\nSELECT name\nFROM github.repos.repos\nWHERE org = 'tiny'\nORDER BY name;\n")
	r := run(t, "-o", "csv", "-f", f)
	if r.Code != 0 || r.Stdout != csvLines("name", "alpha", "beta", "gamma") {
		t.Fatalf("exit %d: %s %s", r.Code, r.Stdout, r.Stderr)
	}
}

func TestUsageSQLAndPlanErrorsExitOne(t *testing.T) {
	cases := []struct{ sql, want string }{
		{`SELECT * FROM github.pulls.pulls WHERE state = 'open'`, "owner, repo"},
		{`SELECT * FROM github.nope.nope`, "unknown table"},
		{`DELETE FROM github.repos.repos WHERE org = 'acme'`, "not allowed"},
		{`SELECT 1; SELECT 2`, "one statement"},
		{`SELECT nope FROM github.repos.repos WHERE org = 'tiny'`, "no such column: nope"},
		{`SELEC 1`, "did you mean SELECT?"},
		{`SELECT name FROM github.repos.repos WHERE`, "syntax error"},
		// MySQL's <=> passed the front end, then SQLite said "near '>'"
		{`SELECT name FROM github.repos.repos WHERE org = 'tiny' AND fork <=> 0`, "'<=>' is MySQL's null-safe equality, which SQLite does not read; write coalesce"},
	}
	for _, c := range cases {
		r := run(t, c.sql)
		if r.Code != 1 || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want exit 1 mentioning %q", c.sql, r.Code, r.Stderr, c.want)
		}
	}
	r := run(t, "-o", "json", `SELECT * FROM github.pulls.pulls`)
	if r.Code != 1 || errorKind(t, r) != engine.KindPlan {
		t.Fatalf("json plan error: %d %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t), "", "exec")
	if r.Code != 1 || !strings.Contains(r.Stderr, "no statement") {
		t.Fatalf("no args: %d %s", r.Code, r.Stderr)
	}
}
