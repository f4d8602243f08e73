package sqlfront

import (
	"slices"
	"strings"
	"testing"
)

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
		st, err := Parse(sql, isGH)
		if err != nil {
			t.Errorf("%s: %v", sql, err)
			continue
		}
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

// ShortNames are the one- and two-part FROM names that are no WITH name;
// table functions, derived tables and WITH names are not among them.
func TestShortNames(t *testing.T) {
	for sql, want := range map[string]string{
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
	} {
		st, err := Parse(sql, isGH)
		if err != nil {
			t.Errorf("%s: %v", sql, err)
			continue
		}
		var got []string
		for _, n := range st.Query.ShortNames {
			got = append(got, strings.Join(n, "."))
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%s: short names %v, want %q", sql, got, want)
		}
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
		st, err := Parse(sql, isGH)
		if err != nil {
			t.Errorf("%s: %v", sql, err)
			continue
		}
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
	st, err := Parse(sql, isGH)
	if err != nil {
		t.Fatal(err)
	}
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

// The front end's own errors say what to write.
func TestFrontEndAdvice(t *testing.T) {
	for sql, want := range map[string]string{
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
	} {
		_, err := Parse(sql, isGH)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", sql, err, want)
		}
	}
}

// SHOW TABLES and SHOW COLUMNS, as MySQL says them, are SHOW RESOURCES and
// DESCRIBE.
func TestMySQLDiscoveryWords(t *testing.T) {
	for _, c := range []struct {
		q      string
		kind   Kind
		target string
		like   string
	}{
		{"SHOW TABLES", KindShowResources, "", ""},
		{"show tables in github.repos like '%rep%'", KindShowResources, "github.repos", "%rep%"},
		{"SHOW TABLES FROM github", KindShowResources, "github", ""},
		{"SHOW COLUMNS FROM github.repos.repos", KindDescribe, "github.repos.repos", ""},
		{"show fields in github.repos.repos.list_for_org;", KindDescribe, "github.repos.repos.list_for_org", ""},
	} {
		st, err := Parse(c.q, isGH)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if st.Kind != c.kind || strings.Join(st.Target, ".") != c.target || st.Like != c.like {
			t.Errorf("%s: got %v %v %q", c.q, st.Kind, st.Target, st.Like)
		}
	}
}
