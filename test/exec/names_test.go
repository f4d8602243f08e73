package exec_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// runOn runs exec against its own fake, so that the requests it sent can
// be counted.
func runOn(t *testing.T, s *fakegithub.Server, args ...string) testutil.Result {
	t.Helper()
	return testutil.Run(t, execEnvOn(t, s), "", append([]string{"exec"}, args...)...)
}

// A three-part name whose provider the catalog does not have is an
// unknown provider, with the closest names and the statement that lists
// them, before any request: not a syntax error (docs/sql names).
func TestUnknownProviderInFrom(t *testing.T) {
	gh := fakegithub.ForTest(t)
	for _, c := range []struct{ sql, want string }{
		{`SELECT * FROM gitlab.repos.repos`, `unknown provider "gitlab"; SHOW PROVIDERS lists them`},
		{`SELECT * FROM foo.bar.baz`, `unknown provider "foo"; SHOW PROVIDERS lists them`},
		{`SELECT * FROM gitub.repos.repos WHERE org = 'acme'`, `unknown provider "gitub"; did you mean github? SHOW PROVIDERS lists them`},
		{`SELECT r.name FROM github.repos.repos r JOIN gitlab.projects.projects p ON p.id = r.id WHERE r.org = 'acme'`, `unknown provider "gitlab"`},
		{`SELECT * FROM gitlab.repos.repos.list_for_org`, `unknown provider "gitlab"`},
		{`SELECT * FROM repos.repos.list_for_org WHERE org = 'acme'`, `unknown provider "repos"; did you mean github.repos.repos? SHOW PROVIDERS lists them`},
	} {
		r := runOn(t, gh, c.sql)
		if r.Code != 1 || !strings.Contains(r.Stderr, "error (plan)") || !strings.Contains(r.Stderr, c.want) || strings.Contains(r.Stderr, "syntax error") {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 with %q", c.sql, r.Code, r.Stderr, c.want)
		}
	}
	r := runOn(t, gh, "-o", "json", `SELECT * FROM gitlab.repos.repos`)
	if r.Code != 1 || !strings.Contains(r.Stderr, `"kind":"plan"`) || !strings.Contains(r.Stderr, `unknown provider \"gitlab\"`) {
		t.Errorf("json: exit %d, stderr %q", r.Code, r.Stderr)
	}
	if n := len(gh.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// A FROM name of one or two parts that names a provider, a service or a
// table is refused before any request, saying that tables have three
// parts and which ones it may mean; a WITH name, a derived table and a
// table function are not table names of the catalog, and a name that
// means nothing to it is SQLite's "no such table", with the same advice.
func TestShortTableNames(t *testing.T) {
	gh := fakegithub.ForTest(t)
	for _, c := range []struct{ sql, want string }{
		{`SELECT * FROM github.repos WHERE org = 'acme'`, "no table github.repos: tables are named provider.service.resource; did you mean github.repos.repos, github.interactions.repos or github.search.repos? SHOW RESOURCES IN github.repos lists its tables"},
		{`SELECT name FROM repos WHERE org = 'acme'`, "no table repos: tables are named provider.service.resource; did you mean github.repos.repos"},
		{`SELECT login FROM members WHERE org = 'acme'`, "did you mean github.orgs.members or github.teams.members? SHOW SERVICES IN github lists its services"},
		{`SELECT * FROM repos.repos`, "no table repos.repos: tables are named provider.service.resource; did you mean github.repos.repos?"},
		{`SELECT * FROM github`, "no table github: tables are named provider.service.resource; SHOW SERVICES IN github lists its services"},
		{`SELECT * FROM github.actions`, "no table github.actions: tables are named provider.service.resource; SHOW RESOURCES IN github.actions lists its tables"},
		{`SELECT r.name FROM github.repos.repos r JOIN github.orgs o ON 1 WHERE r.org = 'acme'`, "no table github.orgs:"},
	} {
		r := runOn(t, gh, c.sql)
		if r.Code != 1 || !strings.Contains(r.Stderr, "error (plan)") || !strings.Contains(r.Stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 with %q", c.sql, r.Code, r.Stderr, c.want)
		}
	}
	if n := len(gh.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	r := runOn(t, gh, `SELECT * FROM nope`)
	if r.Code != 1 || !strings.Contains(r.Stderr, "no such table: nope (provider tables have three-part names, provider.service.resource: SHOW RESOURCES lists them)") {
		t.Errorf("nope: exit %d, stderr %q", r.Code, r.Stderr)
	}
	for sql, want := range map[string]string{
		`WITH repos AS (SELECT name FROM github.repos.repos WHERE org = 'tiny') SELECT count(*) AS n FROM repos`:                    `[{"n":3}]`,
		`SELECT count(*) AS n FROM (SELECT name FROM github.repos.repos WHERE org = 'tiny') AS repos`:                               `[{"n":3}]`,
		`SELECT count(*) AS n FROM json_each('[1,2]')`:                                                                              `[{"n":2}]`,
		`WITH RECURSIVE members(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM members WHERE n < 4) SELECT count(*) AS n FROM members`: `[{"n":4}]`,
	} {
		r := runOn(t, gh, "-o", "json", sql)
		if r.Code != 0 || strings.Join(strings.Fields(r.Stdout), "") != want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %s", sql, r.Code, r.Stdout, r.Stderr, want)
		}
	}
}

// A misspelt statement word gets the word it is a typo of; a write keeps
// its refusal. SHOW TABLES and SHOW COLUMNS, as MySQL says them, answer as
// SHOW RESOURCES and DESCRIBE do.
func TestStatementWords(t *testing.T) {
	for sql, want := range map[string]string{
		`SELEC name FROM github.repos.repos WHERE org = 'acme'`: "unknown statement SELEC: did you mean SELECT? Only read-only SELECT, SHOW, DESCRIBE and EXPLAIN run here",
		`DESCRIBR github.repos.repos`:                           "did you mean DESCRIBE?",
		`SHOW RESOURCE IN github.repos`:                         "unknown SHOW statement (did you mean SHOW RESOURCES?)",
		`DELETE FROM github.repos.repos`:                        "DELETE statements are not allowed",
	} {
		r := run(t, sql)
		if r.Code != 1 || !strings.Contains(r.Stderr, "error (sql)") || !strings.Contains(r.Stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want %q", sql, r.Code, r.Stderr, want)
		}
	}
	for mysql, ours := range map[string]string{
		`SHOW TABLES IN github.repos LIKE 'rep%'`: `SHOW RESOURCES IN github.repos LIKE 'rep%'`,
		`show tables`:                          `SHOW RESOURCES`,
		`SHOW COLUMNS FROM github.repos.repos`: `DESCRIBE github.repos.repos`,
		`SHOW FIELDS IN github.orgs.members`:   `DESCRIBE github.orgs.members`,
	} {
		got, want := run(t, "-o", "json", mysql), run(t, "-o", "json", ours)
		if got.Code != 0 || want.Code != 0 || got.Stdout != want.Stdout || len(got.Stdout) < 10 {
			t.Errorf("%s: exit %d, %.200q; %s: exit %d, %.200q", mysql, got.Code, got.Stdout, ours, want.Code, want.Stdout)
		}
	}
}

// A subquery in FROM without a name is refused with the form to write
// (the parser follows MySQL's grammar); LIMIT -1 is SQLite's "no limit":
// every row, every page read, with or without OFFSET.
func TestDerivedTableAndNegativeLimit(t *testing.T) {
	r := run(t, `SELECT count(*) FROM (SELECT name FROM github.repos.repos WHERE org = 'tiny' LIMIT 5)`)
	if r.Code != 1 || !strings.Contains(r.Stderr, "every subquery in FROM or JOIN needs a name: write (SELECT ...) AS t") {
		t.Errorf("derived table: exit %d, stderr %q", r.Code, r.Stderr)
	}
	all := testutil.JSONRows(t, run(t, "-o", "json", `SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name`))
	if len(all) < 100 {
		t.Fatalf("acme has %d repos; the test wants several pages", len(all))
	}
	for _, c := range []struct {
		sql         string
		rows, first int // first: the index in all of the first row, -1 when unordered
	}{
		{`SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT -1`, len(all), -1},
		{`SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT -1 OFFSET 2`, len(all) - 2, 2},
		{`SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT 2, -1`, len(all) - 2, 2},
		{`SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT 3 OFFSET -5`, 3, 0},
		{`SELECT n AS name FROM (SELECT name AS n FROM github.repos.repos WHERE org = 'acme' LIMIT -1) AS d`, len(all), -1},
	} {
		rows := testutil.JSONRows(t, run(t, "-o", "json", c.sql))
		if len(rows) != c.rows {
			t.Errorf("%s: %d rows, want %d", c.sql, len(rows), c.rows)
			continue
		}
		if c.first >= 0 && rows[0]["name"] != all[c.first]["name"] {
			t.Errorf("%s: first row %v, want %v", c.sql, rows[0], all[c.first])
		}
	}
	r = run(t, `EXPLAIN SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT -1`)
	if r.Code != 0 || strings.Contains(r.Stdout, "stops after") || !strings.Contains(r.Stdout, "LIMIT -1") {
		t.Errorf("EXPLAIN: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
