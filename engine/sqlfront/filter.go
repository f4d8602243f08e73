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

// SourceFilter returns the top-level WHERE terms of ref's scope that read
// only ref's own columns, as SQLite conditions over ref's rows (columns
// qualified with ref's lower-cased reference name), for narrowing the rows
// that feed a dependent fan-out: a row of ref that fails one of them
// cannot be part of any result row, so the requests its bindings would
// cause are useless. Terms in skip (predicates the API applied and the
// rows cannot express) are left out, as are terms with subqueries,
// aggregates or constructs outside a small set whose meaning is the same
// in the parser's grammar and in SQLite; so is everything when ref is on
// the NULL-extended side of an outer join, or when the statement contains
// `||` or a double-quoted string, which the two dialects read differently.
// It returns nil when nothing applies.
func (q *Query) SourceFilter(ref *TableRef, skip []*Conjunct) []string {
	if ref == nil || ref.Scope == nil || ref.nullable {
		return nil
	}
	for _, t := range q.toks {
		if r := t.raw(q.text); r == "||" || strings.HasPrefix(r, `"`) {
			return nil
		}
	}
	skipped := map[string]bool{}
	for _, c := range skip {
		skipped[c.String()] = true
	}
	me := strings.ToLower(ref.RefName())
	unqualified := map[string]bool{}
	for _, c := range ref.ColumnRefs {
		if !strings.Contains(c.Written, ".") {
			unqualified[c.Name] = true
		}
	}
	var out []string
	for _, e := range ref.Scope.terms {
		e = unparen(e)
		if skipped[exprText(e)] {
			continue
		}
		f := filterRenderer{me: me, unqualified: unqualified}
		f.render(e)
		if f.ok && f.reads {
			out = append(out, f.b.String())
		}
	}
	return out
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
			w(quoteString(string(n.Val)))
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
