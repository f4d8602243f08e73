package sqlfront

import (
	"slices"
	"strings"
	"testing"
)

func isGH(s string) bool { return s == "github" }

func TestParseRewritesThreePartNames(t *testing.T) {
	st, err := Parse("SELECT r.name FROM github.repos.repos r JOIN github.orgs.members AS m ON m.login = r.name WHERE r.org = 'acme' AND m.org IN ('acme', 'b')", isGH)
	if err != nil {
		t.Fatal(err)
	}
	q := st.Query
	if len(q.Tables) != 2 {
		t.Fatalf("tables = %d", len(q.Tables))
	}
	if q.Tables[0].Name() != "github.repos.repos" || q.Tables[0].Alias != "r" || q.Tables[1].Alias != "m" {
		t.Fatalf("tables: %v %v", q.Tables[0], q.Tables[1])
	}
	var got []string
	for _, c := range q.Root.Conjuncts {
		got = append(got, string(c.Op)+":"+c.Qualifier+"."+c.Column+"="+strings.Join(c.Values, "|"))
	}
	want := "col:m.login=,=:r.org=acme,in:m.org=acme|b"
	if strings.Join(got, ",") != want {
		t.Fatalf("conjuncts %v, want %s", got, want)
	}
	if r := q.Tables[0]; q.Text[r.Span[0]:r.Span[1]] != "github.repos.repos" {
		t.Fatalf("span of %v is %q", r, q.Text[r.Span[0]:r.Span[1]])
	}
	if c := q.Root.Conjuncts[1]; c.Occurs != 1 || len(c.Spans) != 1 || q.Text[c.Spans[0][0]:c.Spans[0][1]] != "r.org = 'acme'" {
		t.Fatalf("conjunct %s: occurs %d, spans %v", c, c.Occurs, c.Spans)
	}
}

// TestPredicateSpans: every textual occurrence of a literal predicate is
// found, in either order; Occurs counts the comparisons of
// the statement that print the same, so the planner can tell a predicate
// used only as a parameter from one also used as a filter.
func TestPredicateSpans(t *testing.T) {
	cases := []struct {
		sql    string
		spans  []string
		occurs int
	}{
		{"SELECT name FROM github.repos.repos WHERE 'acme' = owner AND repo = 'x'", []string{"'acme' = owner"}, 1},
		{"SELECT name FROM github.repos.repos WHERE owner = 'acme' AND repo = 'x' AND owner = 'acme'", []string{"owner = 'acme'", "owner = 'acme'"}, 2},
		{"SELECT name FROM github.repos.repos WHERE owner = 'acme' AND (owner = 'acme') IS NOT NULL", []string{"owner = 'acme'", "owner = 'acme'"}, 2},
		{"SELECT name FROM github.repos.repos r WHERE r.owner IN ('a', 'b') AND name IN (SELECT 1 WHERE r.owner IN ('a','b'))", []string{"r.owner IN ('a', 'b')", "r.owner IN ('a','b')"}, 2},
		{"SELECT name FROM github.repos.repos WHERE owner = 'acme' AND lower(owner) = 'acme'", []string{"owner = 'acme'"}, 1},
	}
	for _, c := range cases {
		st := parsed(t, c.sql)
		conj := st.Query.Root.Conjuncts[0]
		var got []string
		for _, s := range conj.Spans {
			got = append(got, c.sql[s[0]:s[1]])
		}
		if strings.Join(got, "|") != strings.Join(c.spans, "|") || conj.Occurs != c.occurs {
			t.Errorf("%s:\n spans %q occurs %d\n want %q occurs %d", c.sql, got, conj.Occurs, c.spans, c.occurs)
		}
	}
}

// Limit is the count of rows a bare single-table scan can ever need
// (LIMIT plus OFFSET; 0: no pushdown), and LimitZero the outermost
// statement's literal LIMIT 0 only (-1: Limit not checked).
func TestLimitShape(t *testing.T) {
	cases := []struct {
		sql   string
		limit int64
		zero  bool
	}{
		{"SELECT * FROM github.repos.repos WHERE org='a' LIMIT 5", 5, false},
		{"SELECT * FROM github.repos.repos WHERE org='a' LIMIT 5 OFFSET 10", 15, false},
		{"SELECT * FROM github.repos.repos WHERE org='a' ORDER BY name LIMIT 5", 0, false},
		{"SELECT count(*) FROM github.repos.repos WHERE org='a' LIMIT 5", 0, false},
		{"SELECT DISTINCT name FROM github.repos.repos WHERE org='a' LIMIT 5", 0, false},
		{"SELECT name FROM github.repos.repos WHERE org='a' GROUP BY name LIMIT 5", 0, false},
		{"SELECT name FROM github.repos.repos WHERE org='a'", 0, false},
		{"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 0", -1, true},
		{"SELECT count(*) FROM github.repos.repos WHERE org = 'a' ORDER BY 1 LIMIT 0 OFFSET 3", -1, true},
		{"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 5, 0", -1, true},
		{"SELECT name FROM github.repos.repos WHERE org = 'a' UNION SELECT 'x' LIMIT 0", -1, true},
		{"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 1", -1, false},
		{"SELECT name FROM github.repos.repos WHERE org = 'a'", -1, false},
		{"SELECT count(*) FROM (SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 0) AS d", -1, false},
		{"SELECT name FROM github.repos.repos WHERE org IN (SELECT 'a' LIMIT 0)", -1, false},
		{"WITH x AS (SELECT name FROM github.repos.repos WHERE org = 'a') SELECT * FROM x LIMIT 0", -1, true},
		{"SELECT name FROM github.repos.repos WHERE org = 'a' UNION (SELECT name FROM github.repos.repos WHERE org = 'b' LIMIT 0)", -1, false},
	}
	for _, c := range cases {
		st := parsed(t, c.sql)
		if c.limit >= 0 && st.Query.Limit != c.limit {
			t.Errorf("%s: limit %d, want %d", c.sql, st.Query.Limit, c.limit)
		}
		if got := st.Query != nil && st.Query.LimitZero; got != c.zero {
			t.Errorf("%s: LimitZero %t, want %t", c.sql, got, c.zero)
		}
	}
}

func TestDiscoveryStatements(t *testing.T) {
	cases := []struct {
		q      string
		kind   Kind
		target string
		like   string
	}{
		{"SHOW PROVIDERS", KindShowProviders, "", ""},
		{"show services in github", KindShowServices, "github", ""},
		{"SHOW RESOURCES IN github.repos LIKE '%rep%';", KindShowResources, "github.repos", "%rep%"},
		{"SHOW METHODS IN github.repos.repos", KindShowMethods, "github.repos.repos", ""},
		{"DESCRIBE github.users.keys", KindDescribe, "github.users.keys", ""},
		{"desc extended `github.repos.repos`", KindDescribe, "github.repos.repos", ""},
		// SHOW TABLES and SHOW COLUMNS, as MySQL says them, are SHOW
		// RESOURCES and DESCRIBE.
		{"SHOW TABLES", KindShowResources, "", ""},
		{"show tables in github.repos like '%rep%'", KindShowResources, "github.repos", "%rep%"},
		{"SHOW TABLES FROM github", KindShowResources, "github", ""},
		{"SHOW COLUMNS FROM github.repos.repos", KindDescribe, "github.repos.repos", ""},
		{"show fields in github.repos.repos.list_for_org;", KindDescribe, "github.repos.repos.list_for_org", ""},
	}
	for _, c := range cases {
		st := parsed(t, c.q)
		if st.Kind != c.kind || strings.Join(st.Target, ".") != c.target || st.Like != c.like {
			t.Errorf("%s: got %v %v %q", c.q, st.Kind, st.Target, st.Like)
		}
	}
}

// TestRefusals: what the front end refuses, each with an error that
// names the trouble or says what to write; an unterminated token is named
// as such (never as MySQL's /*! comment, which the statement lacks).
func TestRefusals(t *testing.T) {
	cases := map[string]string{
		"SELECT 1; SELECT 2":                                  "one statement",
		"SELECT 1; DROP TABLE x":                              "one statement",
		"SELECT * FROM t WHERE a = 'x\\' ; DROP TABLE t; --'": "one statement",
		"SELECT 1 # comment":                                  "'#' comments",
		"SELECT 1 WHERE 1 <=> 1":                              "'<=>' is MySQL's null-safe equality",
		"SELECT /*! 1 */ 2":                                   "'/*!'",
		"SELECT * FROM github.repos.repos WHERE":              "syntax error",
		"":                                                    "empty statement",
		"SELECT cast(id as integer) FROM github.repos.repos":      "CAST(x AS SIGNED)",
		"SELECT github.repos.repos FROM t":                        "only be used as a table",
		"SELECT 1 INTO OUTFILE '/tmp/x'":                          "",
		"SELECT \x00":                                             "NUL",
		"SELECT '\xff'":                                           "UTF-8",
		"SELECT * FROM github.repos.repos FOR UPDATE":             "locking",
		strings.Repeat("SELECT 1 UNION ", 30000) + "SELECT 1":     "limit",
		"PRAGMA writable_schema = 1":                              "not allowed",
		"ATTACH DATABASE '/tmp/x' AS x":                           "not allowed",
		"WITH x AS (SELECT 1) DELETE FROM t":                      "",
		"EXPLAIN":                                                 "EXPLAIN needs",
		"SELECT * FROM github.repos.repos.list_for_org.extra.x z": "",
		// unterminated tokens
		"SELECT 'abc":   "unterminated string",
		`SELECT "abc`:   "unterminated quoted name",
		"SELECT 1 /* x": "unterminated comment",
		// the front end's own advice
		"SELEC name FROM github.repos.repos":                      "unknown statement SELEC: did you mean SELECT?",
		"selct 1":                                                 "did you mean SELECT?",
		"DESCRIBR github.repos.repos":                             "did you mean DESCRIBE?",
		"EXPLIAN SELECT 1":                                        "did you mean EXPLAIN?",
		"SHWO PROVIDERS":                                          "unknown statement SHWO: did you mean SHOW?",
		"DELETE FROM github.repos.repos":                          "DELETE statements are not allowed",
		"INSERT INTO t VALUES (1)":                                "INSERT statements are not allowed",
		"UPDATE t SET a = 1":                                      "UPDATE statements are not allowed",
		"SHOW RESOURCE IN github.repos":                           "did you mean SHOW RESOURCES?",
		"SHOW DATABASES":                                          "unknown SHOW statement; use SHOW PROVIDERS",
		"SHOW COLUMNS github.repos.repos":                         "SHOW COLUMNS takes FROM provider.service.resource",
		"SHOW COLUMNS FROM github.repos":                          "DESCRIBE takes provider.service.resource",
		"SELECT count(*) FROM (SELECT 1)":                         "every subquery in FROM or JOIN needs a name: write (SELECT ...) AS t",
		"SELECT * FROM github.repos.repos r JOIN (SELECT 1) ON 1": "write (SELECT ...) AS t",
	}
	for q, want := range cases {
		_, err := Parse(q, isGH)
		if err == nil {
			t.Errorf("%.60q: no error", q)
			continue
		}
		if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "/*!") && !strings.Contains(q, "/*!") {
			t.Errorf("%.60q: error %q, want it to mention %q (and no /*! the statement lacks)", q, err, want)
		}
	}
}

func TestSubqueryScopes(t *testing.T) {
	st, err := Parse("SELECT * FROM github.pulls.pulls p WHERE p.owner = 'acme' AND p.repo IN (SELECT name FROM github.repos.repos WHERE org = 'acme')", isGH)
	if err != nil {
		t.Fatal(err)
	}
	q := st.Query
	if q.Tables[0].Scope != q.Root || q.Tables[1].Scope == q.Root || q.Tables[1].Scope.Parent != q.Root {
		t.Fatal("subquery table not in a child scope")
	}
	var sub *Conjunct
	for _, c := range q.Root.Conjuncts {
		if c.Op == "subquery" {
			sub = c
		}
	}
	if sub == nil || sub.Sub != q.Tables[1].Scope {
		t.Fatalf("IN subquery conjunct not linked to its scope: %+v", sub)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 5",
		"SHOW RESOURCES IN github.repos LIKE '%a%'",
		"SELECT a.b FROM github.repos.repos a JOIN github.orgs.members m ON m.login = a.name",
		"WITH x AS (SELECT 1) SELECT * FROM x",
		"DESCRIBE github.repos.repos",
		"SELECT '\\'",
		"SELECT * FROM gitlab.a.b LIMIT -1 OFFSET -2",
		"SELECT * FROM github.repos r, (SELECT 1) LIMIT 5, -1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := Parse(s, isGH)
		if err != nil || st.Query == nil {
			return
		}
		for _, r := range st.Query.Tables {
			if r.Span[0] < 0 || r.Span[1] > len(s) || r.Span[0] >= r.Span[1] {
				t.Fatalf("table %v has span %v in %d bytes", r, r.Span, len(s))
			}
		}
	})
}

func TestTokenSpans(t *testing.T) {
	for _, q := range []string{
		"select x'ab', 0x1F, b'101', `weird name`, 'it''s' from t where a is not null for update",
		"select a from t where b not in (1,2) and c is not null order by a",
	} {
		toks, err := tokenize(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		prev := 0
		for _, tk := range toks {
			if tk.start < prev || tk.end < tk.start {
				t.Fatalf("%s: bad span %+v", q, tk)
			}
			prev = tk.end
		}
	}
}

func TestRawLiterals(t *testing.T) {
	st, err := Parse(`SELECT 1 FROM github.repos.repos WHERE org = "acme" AND x IN ('a', 1.5e3, TRUE, 007)`, isGH)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range st.Query.Root.Conjuncts {
		got = append(got, strings.Join(c.Raw, " "))
	}
	if want := `"acme"|'a' 1.5e3 TRUE 007`; strings.Join(got, "|") != want {
		t.Fatalf("raw %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestQueryFacts: what the analysis records of a query, each fact over
// its statements. ColumnRefs are only the names that are unambiguous (a
// CTE's body and a subquery in FROM do not see the FROM they are in);
// ShortNames are the one- and two-part FROM names that are no WITH name
// (table functions, derived tables and WITH names are not among them).
func TestQueryFacts(t *testing.T) {
	eachQuery(t, "column refs", columnRefs, map[string]string{
		"SELECT stat, r.x, name AS n FROM github.repos.repos r WHERE org = 'a' ORDER BY n":         "stat,r.x,name,org",
		"SELECT t.value, value FROM github.repos.repos r, json_each(r.topics) t WHERE r.org = 'a'": "r.topics,r.org",
		// a CTE's body and a subquery in FROM do not see the FROM they are in
		"WITH x AS (SELECT nm FROM github.repos.repos WHERE org = 'a') SELECT nm FROM x":     "nm,org",
		"SELECT * FROM (SELECT id, network_count FROM github.repos.repos WHERE org = 'a') t": "id,network_count,org",
		// ... but they see what it sees: nm may be m's (SQLite correlates it)
		"SELECT (SELECT c FROM (SELECT nm AS c FROM github.repos.repos WHERE org = 'a') z) FROM github.orgs.members m WHERE m.org = 'a'": "m.org",
		"SELECT name FROM github.repos.repos r WHERE EXISTS (SELECT 1 FROM github.orgs.members m WHERE r.nm = 1)":                        "name,r.nm",
		"SELECT rowid, oid FROM github.repos.repos WHERE org = 'a'":                                                                      "org",
		"SELECT name FROM github.repos.repos WHERE org = 'a' UNION SELECT login FROM github.orgs.members WHERE org = 'a'":                "name,org|login,org",
	})
	eachQuery(t, "UnorderedLimit", func(q *Query) bool { return q.UnorderedLimit }, map[string]bool{
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 5":               true,
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 5 OFFSET 5":      true,
		"SELECT name FROM github.repos.repos WHERE org = 'a' ORDER BY name LIMIT 5": false,
		"SELECT name FROM github.repos.repos WHERE org = 'a'":                       false,
		"SELECT 1 LIMIT 1": false,
		"SELECT n FROM (SELECT name AS n FROM github.repos.repos WHERE org = 'a') d LIMIT 2": true,
	})
	eachQuery(t, "short names", func(q *Query) string {
		var got []string
		for _, n := range q.ShortNames {
			got = append(got, strings.Join(n, "."))
		}
		return strings.Join(got, ",")
	}, map[string]string{
		"SELECT * FROM repos":                               "repos",
		"SELECT * FROM github.repos":                        "github.repos",
		"SELECT * FROM GitHub.Repos r JOIN members m ON 1":  "github.repos,members",
		"SELECT * FROM github.repos.repos WHERE org = 'a'":  "",
		"WITH repos AS (SELECT 1 AS a) SELECT * FROM repos": "",
		"WITH x AS (SELECT * FROM y) SELECT * FROM x":       "y",
		"SELECT * FROM json_each('[1]')":                    "",
		"SELECT * FROM (SELECT 1 AS a) AS t":                "",
		"SELECT * FROM sqlite_schema":                       "sqlite_schema",
		"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r": "",
		"SELECT a FROM t WHERE a IN (SELECT b FROM u)":                                                "t,u",
	})
	// A key of a column read as a name part (p.user.login, or user.login
	// where nothing is named user) is recorded for the planner, with the
	// column and the key; names SQL resolves otherwise are not.
	eachQuery(t, "path refs", func(q *Query) string {
		var got []string
		for _, tb := range q.Tables {
			for _, r := range tb.PathRefs {
				got = append(got, r.Name+" "+r.Path+" "+r.Written)
			}
		}
		return strings.Join(got, "|")
	}, map[string]string{
		"SELECT p.user.login FROM github.pulls.pulls p WHERE owner = 'a'":                              "user login p.user.login",
		"SELECT number FROM github.pulls.pulls p WHERE p.User.Login = 'x'":                             "user Login p.User.Login",
		"SELECT user.login FROM github.pulls.pulls WHERE owner = 'a'":                                  "user login user.login",
		"SELECT main.p.user FROM github.pulls.pulls p WHERE owner = 'a'":                               "", // schema main
		"SELECT p.user FROM github.pulls.pulls p WHERE owner = 'a'":                                    "",
		"SELECT user.login FROM github.pulls.pulls p, github.orgs.members m WHERE owner = 'a'":         "", // two tables: which?
		"WITH user AS (SELECT 1 AS login) SELECT user.login FROM github.pulls.pulls, user WHERE 1 = 1": "",
	})
	// The columns a WHERE or HAVING term reads without saying
	// what NULL means there are listed on their table; a term that decides
	// NULL for a column (coalesce, ifnull, IS [NOT] NULL, IS TRUE, <=>) does
	// so for every occurrence of it in that term, and a select alias or a
	// column of a derived table is no provider column.
	eachQuery(t, "null reads (table index: reads, \";\" between tables)", func(q *Query) string {
		var tables []string
		for _, tr := range q.Tables {
			var reads []string
			for _, r := range tr.NullReads {
				name := r.Name
				if r.Path != "" {
					name += "->>" + r.Path
				}
				reads = append(reads, name+" "+r.Clause)
			}
			tables = append(tables, strings.Join(reads, ","))
		}
		return strings.Join(tables, ";")
	}, map[string]string{
		"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND members_can_delete_issues":                                   "org WHERE,members_can_delete_issues WHERE",
		"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND coalesce(members_can_delete_issues, 1) = 1":                  "org WHERE",
		"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND ifnull(x, 1) = 1 AND y IS NULL AND z IS NOT TRUE":            "org WHERE",
		"SELECT login FROM github.orgs.orgs o WHERE o.org = 'a' AND (o.status IS NULL OR o.status <> 'enabled')":             "org WHERE",
		"SELECT login FROM github.orgs.orgs o WHERE o.org = 'a' AND coalesce(o.status, 'x') = 'x' AND o.status <> 'enabled'": "org WHERE,status WHERE",
		"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND x IS FALSE AND y IS TRUE AND z IS NOT FALSE":                 "org WHERE,x WHERE,y WHERE",
		// a computed column that is NULL when its column is (lower(x), x = 0,
		// NOT x) follows it; coalesce, CASE and hex decide their own NULLs
		"SELECT coalesce(login, '') AS m FROM github.orgs.orgs WHERE org = 'a' AND m = 'X'":                                                                                                                      "org WHERE",
		"SELECT CASE WHEN login IS NULL THEN 1 ELSE 0 END AS m FROM github.orgs.orgs WHERE org = 'a' AND m":                                                                                                      "org WHERE",
		"SELECT x FROM (SELECT lower(a) = 'x' AND b AS x FROM github.orgs.orgs WHERE org = 'a') v WHERE x":                                                                                                       "org WHERE",
		"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND nullif(x, 0) = 1":                                                                                                                                "org WHERE,x WHERE",
		"SELECT r.name, count(*) AS n FROM github.repos.repos r WHERE r.org = 'a' GROUP BY r.name HAVING max(r.stars) > 1 AND n > 1":                                                                             "org WHERE,stars HAVING",
		"SELECT r.name FROM github.repos.repos r WHERE r.org = 'a' AND coalesce(r.security_and_analysis ->> '$.status', 'disabled') <> 'enabled'":                                                                "org WHERE",
		"SELECT r.name FROM github.repos.repos r WHERE r.org = 'a' AND r.security_and_analysis ->> '$.status' <> 'enabled'":                                                                                      "org WHERE,security_and_analysis->>$.status WHERE",
		"SELECT r.name FROM github.repos.repos r WHERE r.org = 'a' AND json_extract(r.license, '$.spdx_id') NOT IN ('MIT') AND r.owner -> 'login' = '\"x\"' AND json_extract(r.owner, '$.a', '$.b') IS NOT NULL": "org WHERE,license->>$.spdx_id WHERE,owner->>login WHERE",
		"SELECT v.x FROM (SELECT login AS x FROM github.orgs.orgs WHERE org = 'a') v WHERE v.x = 'b'":                                                                                                            "login WHERE,org WHERE",
		"SELECT x FROM (SELECT upper(login) AS x FROM github.orgs.orgs WHERE org = 'a') v WHERE x = 'b'":                                                                                                         "login WHERE,org WHERE",
		"SELECT login FROM (SELECT * FROM github.orgs.orgs WHERE org = 'a') AS orgs_view WHERE members_can_delete_issues":                                                                                        "members_can_delete_issues WHERE,org WHERE",
		"SELECT login FROM (SELECT * FROM github.orgs.orgs WHERE org = 'a') AS v WHERE coalesce(v.members_can_delete_issues, 1) = 1":                                                                             "org WHERE",
		"WITH o AS (SELECT o.login, o.is_verified FROM github.orgs.orgs o WHERE o.org = 'a') SELECT w.login FROM (SELECT * FROM o) w WHERE NOT w.is_verified":                                                    "is_verified WHERE,org WHERE",
		"SELECT r.name FROM github.repos.repos r WHERE r.org = 'a' AND r.name IN (SELECT b.repo FROM github.branches.branches b WHERE b.protected)":                                                              "org WHERE,name WHERE;protected WHERE",
		"SELECT r.name FROM github.repos.repos r LEFT JOIN github.branches.branches b ON b.repo = r.name AND b.protected WHERE r.org = 'a'":                                                                      "org WHERE;",
		// unqualified in a FROM of provider tables only: each may own it
		// (the planner keeps the one whose method has the column)
		"SELECT o.login FROM github.orgs.orgs o JOIN github.repos.repos r ON 1 WHERE o.org = 'a' AND members_can_delete_issues AND coalesce(archived, 0) = 0": "org WHERE,members_can_delete_issues WHERE;members_can_delete_issues WHERE",
		// a select-list alias the term reads (SQLite lets WHERE and HAVING
		// read one) is the column, or the JSON path, it names
		"SELECT login, members_can_delete_issues AS m FROM github.orgs.orgs WHERE org = 'a' AND m":                                                        "org WHERE,members_can_delete_issues WHERE",
		"SELECT login, members_can_delete_issues AS m FROM github.orgs.orgs WHERE org = 'a' GROUP BY login HAVING m":                                      "org WHERE,members_can_delete_issues HAVING",
		"SELECT login, members_can_delete_issues AS m FROM github.orgs.orgs WHERE org = 'a' AND coalesce(m, 1) = 1":                                       "org WHERE",
		"SELECT upper(login) AS m FROM github.orgs.orgs WHERE org = 'a' AND m = 'X'":                                                                      "org WHERE,login WHERE",
		"SELECT r.name, r.security_and_analysis ->> '$.s' AS ss FROM github.repos.repos r WHERE r.org = 'a' AND ss <> 'enabled'":                          "org WHERE,security_and_analysis->>$.s WHERE",
		"WITH t AS (SELECT name, security_and_analysis ->> '$.s' AS ss FROM github.repos.repos WHERE org = 'a') SELECT name FROM t WHERE ss <> 'enabled'": "security_and_analysis->>$.s WHERE,org WHERE",
		// unqualified in a subquery in WHERE: its own FROM comes first
		"SELECT login FROM github.orgs.orgs WHERE org = 'a' AND login IN (SELECT login FROM github.orgs.orgs WHERE org = 'a' AND members_can_delete_issues)": "org WHERE,login WHERE;org WHERE,members_can_delete_issues WHERE",
		"SELECT o.login FROM github.orgs.orgs o, (SELECT 1 AS one) d WHERE o.org = 'a' AND members_can_delete_issues":                                        "org WHERE",
	})
	eachQuery(t, "SingleRow", func(q *Query) bool { return q.SingleRow }, map[string]bool{
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a'":                                                                  true,
		"SELECT count(*) > 2 AS too_many FROM github.orgs.members WHERE org = 'a'":                                                  true,
		"SELECT coalesce(max(login), '') FROM github.orgs.members WHERE org = 'a'":                                                  true,
		"SELECT DISTINCT sum(id), total(id) FROM github.orgs.members WHERE org = 'a'":                                               true,
		"SELECT group_concat(login) FROM github.orgs.members WHERE org = 'a'":                                                       true,
		"SELECT json_group_array(login) FROM github.orgs.members WHERE org = 'a'":                                                   true,
		"WITH m AS (SELECT login FROM github.orgs.members WHERE org = 'a') SELECT count(*) FROM m":                                  true,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' LIMIT 1":                                                          true,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' HAVING count(*) > 2":                                              false,
		"SELECT type, count(*) FROM github.orgs.members WHERE org = 'a' GROUP BY type":                                              false,
		"SELECT login, count(*) OVER () FROM github.orgs.members WHERE org = 'a'":                                                   false,
		"SELECT login, (SELECT count(*) FROM github.orgs.members WHERE org = 'b') FROM github.orgs.members WHERE org = 'a'":         false,
		"SELECT max(id, 3) FROM github.orgs.members WHERE org = 'a'":                                                                false,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' UNION ALL SELECT 1":                                               false,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' LIMIT 0":                                                          false,
		"SELECT count(*) FROM github.orgs.members WHERE org = 'a' LIMIT 1 OFFSET 1":                                                 false,
		"SELECT login FROM github.orgs.members WHERE org = 'a' AND id IN (SELECT max(id) FROM github.orgs.members WHERE org = 'a')": false,
	})
}

// eachQuery compares fact of each statement's query with the statement's
// value in cases.
func eachQuery[V comparable](t *testing.T, fact string, of func(*Query) V, cases map[string]V) {
	t.Helper()
	for sql, want := range cases {
		q := parsed(t, sql).Query
		if q == nil {
			t.Errorf("%s: no query", sql)
			continue
		}
		if got := of(q); got != want {
			t.Errorf("%s:\n %s %v\nwant %v", sql, fact, got, want)
		}
	}
}

// columnRefs are the column names each table of q is written with, a
// table's joined by commas, the tables' by |.
func columnRefs(q *Query) string {
	var per []string
	for _, tb := range q.Tables {
		var refs []string
		for _, r := range tb.ColumnRefs {
			refs = append(refs, r.Written)
		}
		per = append(per, strings.Join(refs, ","))
	}
	return strings.Trim(strings.Join(per, "|"), "|")
}

// parsed is Parse's statement of sql, with github the one provider; a
// statement that does not parse fails the test.
func parsed(t *testing.T, sql string) *Statement {
	t.Helper()
	st, err := Parse(sql, isGH)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return st
}

// A dotted name of three or four parts in FROM whose first part is no
// provider is read as a table (the planner names the unknown provider),
// not left to MySQL's grammar as a syntax error; in other positions it is
// refused as before.
func TestUnknownProviderIsATable(t *testing.T) {
	for _, sql := range []string{
		"SELECT * FROM gitlab.repos.repos",
		"SELECT * FROM foo.bar.baz AS b WHERE b.x = 1",
		"SELECT r.name FROM github.repos.repos r JOIN gitlab.a.b g ON g.id = r.id WHERE r.org = 'acme'",
		"SELECT * FROM gitlab.repos.repos.list_for_org",
	} {
		st := parsed(t, sql)
		var names []string
		for _, r := range st.Query.Tables {
			names = append(names, r.Name())
		}
		if !slices.ContainsFunc(names, func(n string) bool { return !strings.HasPrefix(n, "github.") }) {
			t.Errorf("%s: tables %v, want the unknown provider's name among them", sql, names)
		}
	}
	// A statement that does not parse either way keeps vitess's error.
	if _, err := Parse("SELECT * FROM gitlab.repos.repos WHERE", isGH); err == nil || !strings.Contains(err.Error(), "syntax error") {
		t.Errorf("still broken: %v", err)
	}
}

// SQLite's LIMIT -1 (no limit) and negative OFFSET parse; nothing is
// pushed down and no LIMIT without ORDER BY is reported for them, and the
// text SQLite runs keeps them as written.
func TestNegativeLimit(t *testing.T) {
	for sql, unordered := range map[string]bool{
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT -1":                                                                                                     false,
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT - 1":                                                                                                    false,
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT -1 OFFSET 2":                                                                                            true,
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 2, -1":                                                                                                  true,
		"SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT 5 OFFSET -3":                                                                                            true,
		"SELECT name FROM github.repos.repos WHERE org = 'a' ORDER BY name LIMIT -1 OFFSET 1":                                                                              false,
		"SELECT n FROM (SELECT name AS n FROM github.repos.repos WHERE org = 'a' LIMIT -1) AS d WHERE n IN (SELECT name FROM github.repos.repos WHERE org = 'b' LIMIT -1)": false,
	} {
		st := parsed(t, sql)
		q := st.Query
		if q.Limit != 0 || q.UnorderedLimit != unordered {
			t.Errorf("%s: limit %d unordered %t, want 0 and %t", sql, q.Limit, q.UnorderedLimit, unordered)
		}
		if q.Text != sql {
			t.Errorf("text changed: %q", q.Text)
		}
	}
	// The subquery of an IN is still found in the text (its span), LIMIT -1 and all.
	sql := "SELECT name FROM github.pulls.pulls WHERE owner = 'a' AND repo IN (SELECT name FROM github.repos.repos WHERE org = 'a' LIMIT -1)"
	st := parsed(t, sql)
	var sub *Conjunct
	for _, c := range st.Query.Root.Conjuncts {
		if c.Op == OpSubquery {
			sub = c
		}
	}
	if sub == nil || sub.SubSpan[0] < 0 || !strings.HasSuffix(sql[sub.SubSpan[0]:sub.SubSpan[1]], "LIMIT -1") {
		t.Fatalf("subquery conjunct %v", sub)
	}
	// A negative operand of another kind is still the parser's error.
	if _, err := Parse("SELECT 1 LIMIT -x", isGH); err == nil {
		t.Error("LIMIT -x parsed")
	}
}
