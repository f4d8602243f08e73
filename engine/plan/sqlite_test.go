package plan

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/engine/sqlfront"
)

func isGH(s string) bool { return s == "github" }

// sqliteOf parses text and writes its SQLite text with the tables named
// t<index> and the given conjuncts (chosen by pick) consumed.
func sqliteOf(t *testing.T, text string, pick func(*sqlfront.Conjunct) bool) (string, error) {
	t.Helper()
	st, err := sqlfront.Parse(text, isGH)
	if err != nil {
		t.Fatal(err)
	}
	names := map[int]string{}
	for _, r := range st.Query.Tables {
		names[r.Index] = "t" + string(rune('0'+r.Index))
	}
	var consumed []*sqlfront.Conjunct
	for _, c := range st.Query.Root.Conjuncts {
		if pick != nil && pick(c) {
			consumed = append(consumed, c)
		}
	}
	rw, err := newRewrite(st.Query, names, consumed)
	if err != nil {
		return "", err
	}
	return rw.sql(), nil
}

func TestRewriteReplacesThreePartNames(t *testing.T) {
	sql, err := sqliteOf(t, "SELECT r.name FROM github.repos.repos r JOIN github.orgs.members AS m ON m.login = r.name WHERE r.org = 'acme' AND m.org IN ('acme', 'b')", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `SELECT r.name FROM "t0" r JOIN "t1" AS m ON m.login = r.name WHERE r.org = 'acme' AND m.org IN ('acme', 'b')`; sql != want {
		t.Fatalf("sqlite:\n%s\nwant\n%s", sql, want)
	}
}

func TestRewriteKeepsUserTextAndAddsAlias(t *testing.T) {
	sql, err := sqliteOf(t, `select "name" || '-x', repos.id from github.repos.repos where org = 'acme' and name like 'a%';`, nil)
	if err != nil {
		t.Fatal(err)
	}
	// || stays string concatenation and "name" an identifier: the text is
	// the user's own, only the table name changed.
	want := `select "name" || '-x', repos.id from "t0" AS "repos" where org = 'acme' and name like 'a%'`
	if sql != want {
		t.Fatalf("got  %s\nwant %s", sql, want)
	}
}

func TestConsumedPredicateBecomesTrue(t *testing.T) {
	owner := func(c *sqlfront.Conjunct) bool { return c.Column == "owner" }
	// owner = 'acme' appears twice; only one is a binding: ambiguous.
	_, err := sqliteOf(t, "SELECT name FROM github.repos.repos WHERE owner = 'acme' AND repo = 'x' AND (owner = 'acme') IS NOT NULL", owner)
	if err == nil || !strings.Contains(err.Error(), "used both as an API parameter and as a row filter") {
		t.Fatalf("want an ambiguity error, got %v", err)
	}
	for text, want := range map[string]string{
		"SELECT name FROM github.repos.repos WHERE 'acme' = owner AND repo = 'x'":                    `SELECT name FROM "t0" AS "repos" WHERE 1 AND repo = 'x'`,
		"SELECT name FROM github.repos.repos r WHERE r.owner IN ('a', 'b') AND repo = 'x'":           `SELECT name FROM "t0" r WHERE 1 AND repo = 'x'`,
		"SELECT name FROM github.repos.repos WHERE owner = 'acme' AND repo = 'x' AND owner = 'acme'": `SELECT name FROM "t0" AS "repos" WHERE 1 AND repo = 'x' AND 1`,
	} {
		sql, err := sqliteOf(t, text, owner)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if sql != want {
			t.Errorf("%s:\n got %s\nwant %s", text, sql, want)
		}
	}
}

func TestRewriteSubquery(t *testing.T) {
	st, err := sqlfront.Parse("SELECT * FROM github.pulls.pulls p WHERE p.owner = 'acme' AND p.repo IN (SELECT name FROM github.repos.repos WHERE org = 'acme')", isGH)
	if err != nil {
		t.Fatal(err)
	}
	rw, err := newRewrite(st.Query, map[int]string{0: "t0", 1: "t1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range st.Query.Root.Conjuncts {
		if c.Op == sqlfront.OpSubquery {
			got, err := rw.subquery(c)
			if err != nil {
				t.Fatal(err)
			}
			if want := `SELECT name FROM "t1" AS "repos" WHERE org = 'acme'`; got != want {
				t.Fatalf("got %s\nwant %s", got, want)
			}
			return
		}
	}
	t.Fatal("no subquery conjunct")
}

func FuzzRewrite(f *testing.F) {
	for _, s := range []string{
		"SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 5",
		"SELECT a.b FROM github.repos.repos a JOIN github.orgs.members m ON m.login = a.name",
		"SELECT * FROM github.pulls.pulls p WHERE p.owner = 'acme' AND p.repo IN (SELECT name FROM github.repos.repos WHERE org = 'acme')",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := sqlfront.Parse(s, isGH)
		if err != nil || st.Query == nil {
			return
		}
		names := map[int]string{}
		for _, r := range st.Query.Tables {
			names[r.Index] = "t"
		}
		var literal []*sqlfront.Conjunct
		for _, c := range st.Query.Root.Conjuncts {
			if c.Op == sqlfront.OpEq || c.Op == sqlfront.OpIn {
				literal = append(literal, c)
			}
		}
		for _, consumed := range [][]*sqlfront.Conjunct{nil, literal} {
			if rw, err := newRewrite(st.Query, names, consumed); err == nil {
				_ = rw.sql()
			}
		}
	})
}
