package sqlfront

import (
	"fmt"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// findSubquery locates the text of a subquery: a parenthesised SELECT or
// WITH whose own parse prints like the node. The candidates are found and
// parsed once per statement (subqueryTexts), so that many subqueries do
// not cost a parse of every candidate each.
func (q *Query) findSubquery(node *sqlparser.Subquery) [2]int {
	if q.subTexts == nil {
		q.subTexts = q.subqueryTexts()
	}
	if span, ok := q.subTexts[sqlparser.String(node.Select)]; ok {
		return span
	}
	return [2]int{-1, -1}
}

// subqueryTexts maps the printed form of each parenthesised SELECT or WITH
// in the text to its first span.
func (q *Query) subqueryTexts() map[string][2]int {
	out := map[string][2]int{}
	toks := q.toks
	var open []int // indexes of unmatched '('
	for j, t := range toks {
		switch t.typ {
		case '(':
			open = append(open, j)
		case ')':
			if len(open) == 0 {
				continue
			}
			i := open[len(open)-1]
			open = open[:len(open)-1]
			if i+1 >= j {
				continue
			}
			w := strings.ToLower(toks[i+1].raw(q.Text))
			if w != "select" && w != "with" {
				continue
			}
			span := [2]int{toks[i+1].start, toks[j-1].end}
			st, err := parseSQL(withPlaceholders(q.Text, q.Tables, q.edits, span[0], span[1]))
			if err != nil {
				continue
			}
			key := sqlparser.String(st)
			if prev, ok := out[key]; !ok || span[0] < prev[0] {
				out[key] = span
			}
		}
	}
	return out
}

func parseQuery(text string, toks []token, isProvider func(string) bool) (*Query, error) {
	return parseQueryWith(text, toks, isProvider, nil)
}

// parseQueryWith is parseQuery with views: the occurrences of view names
// (TableRef.View) read as tables too (see ExpandViews).
func parseQueryWith(text string, toks []token, isProvider func(string) bool, views []*TableRef) (*Query, error) {
	if len(toks) == 0 {
		return nil, &Error{Pos: -1, Msg: "EXPLAIN needs a SELECT statement"}
	}
	start, end := toks[0].start, toks[len(toks)-1].end
	refs := findTables(text, toks, isProvider)
	if len(views) > 0 {
		refs = mergeRefs(refs, views)
	}
	edits := vitessEdits(toks, text)
	// The text vitess parses: the statement with each table name replaced
	// by one quoted identifier that carries its occurrence index.
	vtext := withPlaceholders(text, refs, edits, start, end)
	ast, err := parseSQL(vtext)
	if err != nil {
		// A dotted name of three or four parts whose first part is no
		// provider (gitlab.repos.repos) is outside MySQL's grammar: when
		// the statement parses with every such name read as a table, it
		// is one, and the planner names the unknown provider (with the
		// closest names) instead of a syntax error.
		if all := findTables(text, toks, func(string) bool { return true }); len(all) > len(refs)-len(views) {
			if len(views) > 0 {
				all = mergeRefs(all, views)
			}
			if st, err2 := parseSQL(withPlaceholders(text, all, edits, start, end)); err2 == nil {
				refs, ast, err = all, st, nil
			}
		}
	}
	if err != nil {
		return nil, parseError(err, vtext)
	}
	sel, ok := ast.(sqlparser.SelectStatement)
	if !ok {
		return nil, &Error{Pos: toks[0].start, Msg: "only read-only SELECT statements can run here"}
	}
	q := &Query{Text: text, Span: [2]int{start, end}, toks: toks, edits: edits, AST: sel, Tables: refs}
	a := &analyser{q: q, byIndex: map[int]*TableRef{}, subScopes: map[*sqlparser.Subquery]*Scope{}, withNames: map[string]bool{}}
	for _, r := range refs {
		a.byIndex[r.Index] = r
	}
	q.Root = &Scope{}
	if err := a.statement(sel, q.Root); err != nil {
		return nil, err
	}
	for _, c := range a.subConjs {
		c.Sub = a.subScopes[c.subNode]
		c.SubSpan = q.findSubquery(c.subNode)
	}
	for _, r := range refs {
		if r.Scope == nil {
			return nil, &Error{Pos: r.Span[0], Msg: fmt.Sprintf("%s can only be used as a table in FROM or JOIN", strings.Join(r.Parts, "."))}
		}
	}
	for _, n := range a.shortNames {
		if len(n) > 1 || !a.withNames[n[0]] {
			q.ShortNames = append(q.ShortNames, n)
		}
	}
	q.Limit = simpleLimit(sel, q)
	q.LimitZero = zeroLimit(sel)
	q.SingleRow = singleRow(sel)
	if s, ok := sel.(*sqlparser.Select); ok && s.Limit != nil && !isNoLimit(s.Limit) && len(s.OrderBy) == 0 && len(q.Tables) > 0 {
		q.UnorderedLimit = true
	}
	q.markColumns()
	q.attributeColumns(a.scopes)
	q.literalPredicates(a.scopes)
	q.setFilters(a.scopes)
	q.nullReads(a.scopes)
	return q, nil
}

// parseError is the error of a statement vitess could not parse (vtext,
// the text it read), in the user's terms: table names as written, and
// what to write instead where a MySQL rule is to blame.
func parseError(err error, vtext string) *Error {
	msg := err.Error()
	if i := strings.Index(msg, "syntax error"); i >= 0 {
		msg = msg[i:]
	}
	if strings.Contains(msg, "Every derived table must have its own alias") {
		// SQLite would take it; the parser follows MySQL's grammar.
		return &Error{Pos: -1, Msg: "every subquery in FROM or JOIN needs a name: write (SELECT ...) AS t"}
	}
	hint := reservedHint(vtext, msg)
	if hint == "" {
		hint = hintFor(vtext)
	}
	msg = strings.TrimSpace(unplaceholder(msg))
	return &Error{Pos: -1, Msg: msg + hint}
}

func hintFor(s string) string {
	l := strings.ToLower(s)
	switch {
	case strings.Contains(l, " as integer") || strings.Contains(l, " as real") || strings.Contains(l, " as text"):
		return " (the parser follows MySQL's CAST types: use CAST(x AS SIGNED), CAST(x AS DECIMAL) or CAST(x AS CHAR))"
	case strings.Contains(l, "nulls first") || strings.Contains(l, "nulls last"):
		return " (NULLS FIRST/LAST is not supported; order by (x IS NULL), x instead)"
	}
	return ""
}

// parseSQL is sqlparser.Parse with the parser's own panics (it has some,
// e.g. on an empty string right after SELECT, with no space) turned into
// an error, so that no statement can crash the process.
func parseSQL(text string) (st sqlparser.Statement, err error) {
	defer func() {
		if p := recover(); p != nil {
			st, err = nil, fmt.Errorf("the SQL parser failed on this statement (%v); try writing it differently, e.g. with spaces around quoted strings", p)
		}
	}()
	st, err = sqlparser.Parse(maskBackslashes(text))
	if err == nil {
		unmaskLiterals(st)
	}
	return st, err
}
