package sqlfront

import (
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// markNullable marks the provider tables on the NULL-extended side of an
// outer join (the right of LEFT JOIN, the left of RIGHT JOIN, both of a
// FULL JOIN): a WHERE term over such a table can hold for a row that has
// no row of it, so it cannot narrow that table's rows in advance.
func markNullable(join string, left, right []*TableRef) {
	j := strings.ToLower(join)
	if strings.Contains(j, "left") || strings.Contains(j, "full") {
		for _, t := range right {
			t.nullable = true
		}
	}
	if strings.Contains(j, "right") || strings.Contains(j, "full") {
		for _, t := range left {
			t.nullable = true
		}
	}
}

// setFilters fills TableRef.Filters: for each provider table, the
// top-level WHERE terms of its scope that read only its own columns, as
// SQLite conditions over its rows (columns qualified with its lower-cased
// reference name), for narrowing the rows that feed a dependent fan-out: a
// row that fails one of them cannot be part of any result row, so the
// requests its bindings would cause are useless. Terms with subqueries,
// aggregates or constructs outside a small set whose meaning is the same in
// the parser's grammar and in SQLite are left out; so is everything for a
// table on the NULL-extended side of an outer join, and for every table
// when the statement contains `||` or a double-quoted string, which the
// two dialects read differently. Each term is rendered for the one table
// its column references can name (the table its qualifier names, or the
// only table of a SELECT whose unqualified columns are attributed to it),
// so the cost is one pass over the terms.
func (q *Query) setFilters(scopes []*Scope) {
	for _, t := range q.toks {
		if r := t.raw(q.Text); r == "||" || strings.HasPrefix(r, `"`) {
			return
		}
	}
	unqualified := map[*TableRef]map[string]bool{}
	for _, r := range q.Tables {
		for _, c := range r.ColumnRefs {
			if !strings.Contains(c.Written, ".") {
				if unqualified[r] == nil {
					unqualified[r] = map[string]bool{}
				}
				unqualified[r][c.Name] = true
			}
		}
	}
	for _, s := range scopes {
		if len(s.Tables) == 0 {
			continue
		}
		for _, e := range s.terms {
			e = unparen(e)
			quals, sub := map[string]bool{}, false
			_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
				switch n := n.(type) {
				case *sqlparser.ColName:
					quals[qualOf(n)] = true
				case *sqlparser.Subquery:
					sub = true
					return false, nil // not rendered; nor walked, so nesting costs nothing
				}
				return true, nil
			}, e)
			if sub || len(quals) == 0 {
				continue // a subquery, or no column read
			}
			for _, r := range s.Tables {
				me := strings.ToLower(r.RefName())
				if r.nullable || !onlyOf(quals, me) || (quals[""] && unqualified[r] == nil) {
					continue
				}
				f := filterRenderer{me: me, unqualified: unqualified[r]}
				f.render(e)
				if f.ok && f.reads {
					r.Filters = append(r.Filters, Filter{Term: exprText(e), SQL: f.b.String()})
				}
			}
		}
	}
}

// onlyOf reports whether every qualifier in quals is me or none ("").
func onlyOf(quals map[string]bool, me string) bool {
	for q := range quals {
		if q != "" && q != me {
			return false
		}
	}
	return true
}

// filterRenderer writes an expression as SQLite text, refusing anything
// outside the constructs both grammars read the same way.
type filterRenderer struct {
	me          string
	unqualified map[string]bool
	b           strings.Builder
	ok, reads   bool
	started     bool
}

// filterFuncs are scalar functions with the same meaning in SQLite.
var filterFuncs = map[string]bool{
	"json_extract": true, "lower": true, "upper": true, "length": true, "coalesce": true, "ifnull": true,
	"substr": true, "instr": true, "trim": true, "abs": true, "json_array_length": true,
}

var filterOps = map[string]bool{
	"=": true, "<": true, ">": true, "<=": true, ">=": true, "!=": true, "<>": true,
	"in": true, "not in": true, "like": true, "not like": true,
}

// infix renders (left) op (right).
func (f *filterRenderer) infix(left sqlparser.Expr, op string, right sqlparser.Expr) {
	f.b.WriteString("(")
	f.render(left)
	f.b.WriteString(") " + op + " (")
	f.render(right)
	f.b.WriteString(")")
}

func (f *filterRenderer) render(e sqlparser.Expr) {
	if !f.started {
		f.started, f.ok = true, true
	}
	if !f.ok {
		return
	}
	w := f.b.WriteString
	switch n := e.(type) {
	case *sqlparser.ColName:
		q, col := qualOf(n), colOf(n)
		switch {
		case q == f.me:
		case q == "" && f.unqualified[col]:
		default:
			f.ok = false
			return
		}
		f.reads = true
		w(QuoteIdent(f.me) + "." + QuoteIdent(col))
	case *sqlparser.SQLVal:
		switch n.Type {
		case sqlparser.StrVal:
			w(QuoteString(string(n.Val)))
		case sqlparser.IntVal, sqlparser.FloatVal:
			w(string(n.Val))
		default:
			f.ok = false
		}
	case sqlparser.BoolVal:
		if n {
			w("1")
		} else {
			w("0")
		}
	case *sqlparser.NullVal:
		w("NULL")
	case *sqlparser.ParenExpr:
		w("(")
		f.render(n.Expr)
		w(")")
	case *sqlparser.NotExpr:
		w("NOT (")
		f.render(n.Expr)
		w(")")
	case *sqlparser.AndExpr:
		f.infix(n.Left, "AND", n.Right)
	case *sqlparser.OrExpr:
		f.infix(n.Left, "OR", n.Right)
	case *sqlparser.IsExpr:
		w("(")
		f.render(n.Expr)
		w(") " + strings.ToUpper(n.Operator))
	case *sqlparser.ComparisonExpr:
		if !filterOps[n.Operator] || n.Escape != nil {
			f.ok = false
			return
		}
		f.render(n.Left)
		w(" " + strings.ToUpper(n.Operator) + " ")
		f.render(n.Right)
	case sqlparser.ValTuple:
		w("(")
		for i, x := range n {
			if i > 0 {
				w(", ")
			}
			f.render(x)
		}
		w(")")
	case *sqlparser.FuncExpr:
		if n.Distinct || n.Over != nil || !n.Qualifier.IsEmpty() || n.IsAggregate() || !filterFuncs[n.Name.Lowered()] {
			f.ok = false
			return
		}
		w(n.Name.Lowered() + "(")
		for i, a := range n.Exprs {
			ae, isAliased := a.(*sqlparser.AliasedExpr)
			if !isAliased {
				f.ok = false
				return
			}
			if i > 0 {
				w(", ")
			}
			f.render(ae.Expr)
		}
		w(")")
	default:
		f.ok = false
	}
}
