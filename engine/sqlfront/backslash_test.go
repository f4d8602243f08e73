package sqlfront

import (
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// A backslash in a string is itself, as SQLite reads it: a regular
// expression keeps its \d and \., a parameter value its backslash, and a
// quote after a backslash ends the string for the front end as it does
// for SQLite.
func TestBackslashesReadAsSQLiteReadsThem(t *testing.T) {
	st, err := Parse(`SELECT name FROM github.repos.repos WHERE org = 'a\b' AND regexp_like(name, '^v\d+\.\d+$') AND description <> "x\y"`, isGH)
	if err != nil {
		t.Fatal(err)
	}
	q := st.Query
	if c := q.Root.Conjuncts[0]; c.Column != "org" || len(c.Values) != 1 || c.Values[0] != `a\b` {
		t.Fatalf("org's value: %+v", c)
	}
	var lits []string
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if v, ok := n.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal {
			lits = append(lits, string(v.Val))
		}
		return true, nil
	}, q.AST)
	if got := strings.Join(lits, " "); got != `a\b ^v\d+\.\d+$ x\y` {
		t.Fatalf("the AST's strings: %s", got)
	}
	// the string ends at the quote after the backslash: what follows is
	// a second statement, refused as one
	if _, err := Parse(`SELECT name FROM github.repos.repos WHERE org = 'ti\'; DROP TABLE x; --'`, isGH); err == nil || !strings.Contains(err.Error(), "one statement") {
		t.Fatalf("err = %v", err)
	}
	// 'a\' OR 1=1: the value a\ and an OR, as SQLite runs it
	st, err = Parse(`SELECT name FROM github.repos.repos WHERE org = 'a\' OR 1=1`, isGH)
	if err != nil {
		t.Fatal(err)
	}
	if or, ok := st.Query.AST.(*sqlparser.Select).Where.Expr.(*sqlparser.OrExpr); !ok {
		t.Fatalf("WHERE read as %s", sqlparser.String(st.Query.AST.(*sqlparser.Select).Where.Expr))
	} else if cmp := or.Left.(*sqlparser.ComparisonExpr); string(cmp.Right.(*sqlparser.SQLVal).Val) != `a\` {
		t.Fatalf("left of OR: %s", sqlparser.String(or.Left))
	}
	// a text that already holds the mask byte is not masked: its
	// backslashes are refused as before
	if _, err := Parse("SELECT '\x1a', 'a\\'' ", isGH); err == nil || !strings.Contains(err.Error(), "backslash") {
		t.Fatalf("err = %v", err)
	}
}

func TestMaskBackslashes(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT '\d'`:                      "SELECT '\x1ad'",
		`SELECT 'it''s \n', "q\"`:          "SELECT 'it''s \x1an', \"q\x1a\"",
		"SELECT 1 -- it's \\ here\n, '\\'": "SELECT 1 -- it's \\ here\n, '\x1a'",
		`SELECT 1 /* '\' */, '\'`:          "SELECT 1 /* '\\' */, '\x1a'",
		"SELECT `a\\b`, [c'\\], '\\'":      "SELECT `a\\b`, [c'\\], '\x1a'",
		`SELECT 'open \`:                   "SELECT 'open \x1a",
		`SELECT 1`:                         `SELECT 1`,
	} {
		if got := maskBackslashes(in); got != want {
			t.Errorf("maskBackslashes(%q) = %q, want %q", in, got, want)
		}
	}
}
