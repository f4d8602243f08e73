package sqlfront

import (
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// literalPredicates fills Conjunct.Raw and Conjunct.Spans from the
// statement's tokens, in one pass over them: each `[q.]col = lit`, `lit =
// [q.]col` and `[q.]col IN (lit, ...)` is keyed like the conjunct it parses
// to. When the same predicate is written twice, differently, the form that
// is not a single-quoted string is kept in Raw, so that a refusal is not
// missed. It then counts, in the parsed statement, the comparisons that
// print as each such conjunct (Conjunct.Occurs).
func (q *Query) literalPredicates(scopes []*Scope) {
	toks, text := q.toks, q.Text
	raws := map[string][]string{}
	spans := map[string][][2]int{}
	lastEnd := map[string]int{} // token index where the key's last span ends
	record := func(key string, lits []string, first, last int) {
		prev, ok := raws[key]
		if !ok || (allSingleQuoted(prev) && !allSingleQuoted(lits)) {
			raws[key] = lits
		}
		if end, ok := lastEnd[key]; !ok || first > end {
			spans[key] = append(spans[key], [2]int{toks[first].start, toks[last].end})
			lastEnd[key] = last
		}
	}
	colref := func(i int) (string, int, bool) { // key prefix, index after
		if i >= len(toks) || !toks[i].isWord(text) || (i > 0 && toks[i-1].typ == '.') {
			return "", 0, false
		}
		if i+2 < len(toks) && toks[i+1].typ == '.' && toks[i+2].isWord(text) {
			return strings.ToLower(identText(text, toks[i])) + "\x00" + strings.ToLower(identText(text, toks[i+2])), i + 3, true
		}
		return "\x00" + strings.ToLower(identText(text, toks[i])), i + 1, true
	}
	lit := func(i int) (string, bool) { // the value as the conjunct holds it
		if i >= len(toks) {
			return "", false
		}
		t := toks[i]
		switch t.typ {
		case sqlparser.STRING, sqlparser.INTEGRAL, sqlparser.FLOAT:
			return t.val, true
		}
		if r := strings.ToLower(t.raw(text)); r == "true" || r == "false" {
			return r, true
		}
		return "", false
	}
	for i := range toks {
		if k, j, ok := colref(i); ok {
			if j+1 < len(toks) && toks[j].typ == '=' {
				if v, ok := lit(j + 1); ok {
					record(k+"\x00=\x00"+v, []string{toks[j+1].raw(text)}, i, j+1)
				}
			}
			if j+1 < len(toks) && strings.EqualFold(toks[j].raw(text), "in") && toks[j+1].typ == '(' {
				var vals, lits []string
				for n := j + 2; n < len(toks); n += 2 {
					v, ok := lit(n)
					if !ok {
						break
					}
					vals, lits = append(vals, v), append(lits, toks[n].raw(text))
					if n+1 < len(toks) && toks[n+1].typ == ')' {
						record(k+"\x00in\x00"+strings.Join(vals, "\x00"), lits, i, n+1)
						break
					}
					if n+1 >= len(toks) || toks[n+1].typ != ',' {
						break
					}
				}
			}
		}
		if v, ok := lit(i); ok && i+1 < len(toks) && toks[i+1].typ == '=' {
			if k, after, ok := colref(i + 2); ok {
				record(k+"\x00=\x00"+v, []string{toks[i].raw(text)}, i, after-1)
			}
		}
	}
	occurs := q.literalComparisons()
	for _, s := range scopes {
		for _, c := range s.Conjuncts {
			if c.Op == OpEq || c.Op == OpIn {
				key := c.Qualifier + "\x00" + c.Column + "\x00" + string(c.Op) + "\x00" + strings.Join(c.Values, "\x00")
				c.Raw, c.Spans, c.Occurs = raws[key], spans[key], occurs[c.Text]
			}
		}
	}
}

// literalComparisons counts the comparisons of the parsed statement, in
// every scope, that have the form of an "=" or "in" conjunct (a column
// and literals), by their printed text. Only those are printed, so that
// the count costs one walk whatever the nesting of other comparisons.
func (q *Query) literalComparisons() map[string]int {
	out := map[string]int{}
	lits := func(e sqlparser.Expr) bool {
		if t, ok := e.(sqlparser.ValTuple); ok {
			for _, x := range t {
				if _, ok := literal(x); !ok {
					return false
				}
			}
			return true
		}
		_, ok := literal(e)
		return ok
	}
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		c, ok := node.(*sqlparser.ComparisonExpr)
		if !ok || (c.Operator != sqlparser.EqualStr && c.Operator != sqlparser.InStr) {
			return true, nil
		}
		_, lcol := c.Left.(*sqlparser.ColName)
		_, rcol := c.Right.(*sqlparser.ColName)
		if (lcol && lits(c.Right)) || (rcol && lits(c.Left)) {
			out[exprText(c)]++
		}
		return true, nil
	}, q.AST)
	return out
}

func allSingleQuoted(lits []string) bool {
	for _, l := range lits {
		if !strings.HasPrefix(l, "'") {
			return false
		}
	}
	return true
}

func splitAnd(e sqlparser.Expr) []sqlparser.Expr {
	switch n := e.(type) {
	case *sqlparser.AndExpr:
		return append(splitAnd(n.Left), splitAnd(n.Right)...)
	case *sqlparser.ParenExpr:
		if _, ok := n.Expr.(*sqlparser.AndExpr); ok {
			return splitAnd(n.Expr)
		}
	}
	return []sqlparser.Expr{e}
}

// conjunct records a predicate that could bind an API parameter.
func (a *analyser) conjunct(e sqlparser.Expr, scope *Scope, inOn bool) {
	e = unparen(e)
	cmp, ok := e.(*sqlparser.ComparisonExpr)
	if !ok || cmp.Escape != nil {
		return
	}
	c := &Conjunct{expr: cmp, InOn: inOn}
	switch cmp.Operator {
	case sqlparser.EqualStr:
		left, lok := cmp.Left.(*sqlparser.ColName)
		right, rok := cmp.Right.(*sqlparser.ColName)
		switch {
		case lok && rok:
			c.Qualifier, c.Column = qualCol(left)
			c.RefQualifier, c.RefColumn = qualCol(right)
			c.RefExpr = QuoteIdent(c.RefQualifier) + "." + QuoteIdent(c.RefColumn)
			c.Op = OpCol
		case lok:
			if !c.bindColumn(left, cmp.Right) {
				return
			}
		case rok:
			if !c.bindColumn(right, cmp.Left) {
				return
			}
		default:
			return
		}
	case sqlparser.InStr:
		col, ok := cmp.Left.(*sqlparser.ColName)
		if !ok {
			return
		}
		c.Qualifier, c.Column = qualCol(col)
		switch r := cmp.Right.(type) {
		case sqlparser.ValTuple:
			for _, x := range r {
				v, ok := literal(x)
				if !ok {
					return
				}
				c.Values = append(c.Values, v)
			}
			c.Op = OpIn
		case *sqlparser.Subquery:
			// The subquery's scope is made when expressions are walked;
			// parseQuery links it afterwards.
			c.Op, c.subNode = OpSubquery, r
		default:
			return
		}
	default:
		return
	}
	if c.Op == OpSubquery {
		a.subConjs = append(a.subConjs, c)
	}
	c.Text = exprText(cmp)
	scope.Conjuncts = append(scope.Conjuncts, c)
}

// refExpr accepts an expression made only of qualified column references
// to one table, function calls and plain literals (e.g.
// json_extract(r.owner, '$.login')), and returns that table's name and the
// expression as SQLite text. Anything else is not a binding source.
func refExpr(e sqlparser.Expr) (string, string, bool) {
	qual := ""
	ok := true
	var b strings.Builder
	var render func(e sqlparser.Expr)
	render = func(e sqlparser.Expr) {
		switch n := e.(type) {
		case *sqlparser.ColName:
			q := qualOf(n)
			if q == "" || (qual != "" && q != qual) {
				ok = false
				return
			}
			qual = q
			b.WriteString(QuoteIdent(q) + "." + QuoteIdent(colOf(n)))
		case *sqlparser.SQLVal:
			switch n.Type {
			case sqlparser.StrVal:
				b.WriteString(QuoteString(string(n.Val)))
			case sqlparser.IntVal, sqlparser.FloatVal:
				b.Write(n.Val)
			default:
				ok = false
			}
		case *sqlparser.FuncExpr:
			if n.Distinct || n.Over != nil || !n.Qualifier.IsEmpty() || n.IsAggregate() {
				ok = false
				return
			}
			b.WriteString(n.Name.Lowered() + "(")
			for i, a := range n.Exprs {
				ae, isAliased := a.(*sqlparser.AliasedExpr)
				if !isAliased {
					ok = false
					return
				}
				if i > 0 {
					b.WriteString(", ")
				}
				render(ae.Expr)
			}
			b.WriteString(")")
		default:
			ok = false
		}
	}
	render(e)
	return qual, b.String(), ok && qual != ""
}

// literal returns the text value of a literal expression.
func literal(e sqlparser.Expr) (string, bool) {
	switch v := e.(type) {
	case *sqlparser.SQLVal:
		switch v.Type {
		case sqlparser.StrVal, sqlparser.IntVal, sqlparser.FloatVal:
			return string(v.Val), true
		}
	case sqlparser.BoolVal:
		if v {
			return "true", true
		}
		return "false", true
	}
	return "", false
}

// bindColumn fills c for `col = other` when other is a literal (OpEq) or
// an expression over one other table (OpExpr); false when it is neither.
func (c *Conjunct) bindColumn(col *sqlparser.ColName, other sqlparser.Expr) bool {
	if v, ok := literal(other); ok {
		c.Qualifier, c.Column, c.Op, c.Values = qualOf(col), colOf(col), OpEq, []string{v}
		return true
	}
	if q, text, ok := refExpr(other); ok && q != qualOf(col) {
		c.Qualifier, c.Column, c.Op, c.RefQualifier, c.RefExpr = qualOf(col), colOf(col), OpExpr, q, text
		return true
	}
	return false
}
