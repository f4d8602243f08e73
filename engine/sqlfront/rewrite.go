package sqlfront

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// SQLite returns the text SQLite runs: the user's statement with each
// provider table replaced by its materialised table name (keeping the
// name SQL refers to it by), and each consumed conjunct replaced by 1.
//
// A conjunct is consumed when the API already applied it and the
// materialised rows cannot express it (a parameter whose name is also a
// response column, such as owner on repositories). Every textual
// occurrence of a consumed predicate must be consumed; otherwise the
// rewrite would be ambiguous and an error says so.
func (q *Query) SQLite(tableNames map[int]string, consumed []*Conjunct) (string, error) {
	rw, err := q.Rewrite(tableNames, consumed)
	if err != nil {
		return "", err
	}
	return rw.SQL(), nil
}

type edit struct {
	start, end int
	repl       string
}

// Rewrite holds the edits that turn the statement into SQLite text.
type Rewrite struct {
	q     *Query
	edits []edit
}

// Rewrite validates and prepares the edits (see SQLite).
func (q *Query) Rewrite(tableNames map[int]string, consumed []*Conjunct) (*Rewrite, error) {
	var edits []edit
	for _, r := range q.Tables {
		name, ok := tableNames[r.Index]
		if !ok {
			return nil, fmt.Errorf("internal: no materialised table for %s", r)
		}
		repl := QuoteIdent(name)
		if r.Alias == "" {
			repl += " AS " + QuoteIdent(r.RefName())
		}
		edits = append(edits, edit{r.start, r.end, repl})
	}
	byText := map[string]int{}
	for _, c := range consumed {
		byText[c.String()]++
	}
	for text, n := range byText {
		var sample *Conjunct
		for _, c := range consumed {
			if c.String() == text {
				sample = c
				break
			}
		}
		inAST := q.countExpr(text)
		spans := q.matchConjunct(sample)
		if n != inAST || len(spans) != inAST {
			return nil, &Error{Pos: -1, Msg: fmt.Sprintf("the predicate %s is used both as an API parameter and as a row filter; write it once, at the top level of WHERE", text)}
		}
		for _, s := range spans {
			edits = append(edits, edit{s[0], s[1], "1"})
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	for i := 1; i < len(edits); i++ {
		if edits[i].start < edits[i-1].end {
			return nil, fmt.Errorf("internal: overlapping rewrite at %d", edits[i].start)
		}
	}
	return &Rewrite{q: q, edits: edits}, nil
}

// SQL is the whole statement as SQLite runs it.
func (rw *Rewrite) SQL() string {
	return rw.apply(rw.q.toks[0].start, rw.q.toks[len(rw.q.toks)-1].end)
}

// Subquery is the SQLite text of the IN subquery of a "subquery" conjunct.
func (rw *Rewrite) Subquery(c *Conjunct) (string, error) {
	if c.Op != OpSubquery || c.subSpan[0] < 0 || c.subSpan[1] <= c.subSpan[0] {
		return "", &Error{Pos: -1, Msg: "cannot locate the text of the subquery in " + c.String()}
	}
	return rw.apply(c.subSpan[0], c.subSpan[1]), nil
}

func (rw *Rewrite) apply(start, end int) string {
	var b strings.Builder
	pos := start
	for _, e := range rw.edits {
		if e.start < start || e.end > end {
			continue
		}
		b.WriteString(rw.q.text[pos:e.start])
		b.WriteString(e.repl)
		pos = e.end
	}
	b.WriteString(rw.q.text[pos:end])
	return b.String()
}

// QuoteIdent quotes an SQLite identifier: the one identifier quoter of
// the engine (the planner's and the store's SQL use it too).
func QuoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString writes s as an SQL string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// countExpr counts comparison expressions in the AST that print as text.
func (q *Query) countExpr(text string) int {
	n := 0
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if c, ok := node.(*sqlparser.ComparisonExpr); ok && sqlparser.String(c) == text {
			n++
		}
		return true, nil
	}, q.AST)
	return n
}

// matchConjunct finds the token spans of a literal predicate:
// colref = lit, lit = colref, or colref IN (lit, ...).
func (q *Query) matchConjunct(c *Conjunct) [][2]int {
	toks, text := q.toks, q.text
	var out [][2]int
	colref := func(i int) (int, bool) { // returns index after the column reference
		if i < len(toks) && toks[i].isWord(text) {
			if i+2 < len(toks) && toks[i+1].typ == '.' && toks[i+2].isWord(text) {
				if c.Qualifier != "" && strings.EqualFold(identText(text, toks[i]), c.Qualifier) && strings.EqualFold(identText(text, toks[i+2]), c.Column) {
					return i + 3, true
				}
				return 0, false
			}
			if c.Qualifier == "" && strings.EqualFold(identText(text, toks[i]), c.Column) && (i == 0 || toks[i-1].typ != '.') {
				return i + 1, true
			}
		}
		return 0, false
	}
	lit := func(i int, v string) bool {
		if i >= len(toks) {
			return false
		}
		t := toks[i]
		switch t.typ {
		case sqlparser.STRING, sqlparser.INTEGRAL, sqlparser.FLOAT:
			return t.val == v
		}
		return strings.EqualFold(t.raw(text), v) && (v == "true" || v == "false")
	}
	for i := 0; i < len(toks); i++ {
		switch c.Op {
		case OpEq:
			if j, ok := colref(i); ok && j+1 < len(toks) && toks[j].typ == '=' && lit(j+1, c.Values[0]) {
				out = append(out, [2]int{toks[i].start, toks[j+1].end})
				i = j + 1
				continue
			}
			if lit(i, c.Values[0]) && i+1 < len(toks) && toks[i+1].typ == '=' {
				if j, ok := colref(i + 2); ok {
					out = append(out, [2]int{toks[i].start, toks[j-1].end})
					i = j - 1
				}
			}
		case OpIn:
			j, ok := colref(i)
			if !ok || j+1 >= len(toks) || !strings.EqualFold(toks[j].raw(text), "in") || toks[j+1].typ != '(' {
				continue
			}
			k := j + 2
			good := true
			for n, v := range c.Values {
				if n > 0 {
					if k >= len(toks) || toks[k].typ != ',' {
						good = false
						break
					}
					k++
				}
				if !lit(k, v) {
					good = false
					break
				}
				k++
			}
			if good && k < len(toks) && toks[k].typ == ')' {
				out = append(out, [2]int{toks[i].start, toks[k].end})
				i = k
			}
		}
	}
	return out
}

// identText is an identifier's name without back quotes.
func identText(text string, t token) string {
	if t.typ == sqlparser.ID {
		return t.val
	}
	return t.raw(text)
}
