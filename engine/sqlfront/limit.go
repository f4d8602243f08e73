package sqlfront

import (
	"strconv"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// simpleLimit returns LIMIT+OFFSET for a bare single-table scan, else 0.
func simpleLimit(s sqlparser.SelectStatement, q *Query) int64 {
	sel, ok := s.(*sqlparser.Select)
	if !ok || sel.Limit == nil || sel.With != nil || len(q.Tables) != 1 || len(sel.From) != 1 {
		return 0
	}
	if _, ok := sel.From[0].(*sqlparser.AliasedTableExpr); !ok || q.Tables[0].Scope != q.Root {
		return 0
	}
	if sel.QueryOpts.Distinct || len(sel.GroupBy) > 0 || sel.Having != nil || len(sel.OrderBy) > 0 || len(sel.Window) > 0 {
		return 0
	}
	agg := false
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *sqlparser.FuncExpr:
			if n.IsAggregate() || n.Over != nil || n.Name.Lowered() == "total" {
				agg = true
			}
		case *sqlparser.GroupConcatExpr, *sqlparser.Subquery:
			agg = true
		}
		return !agg, nil
	}, sel.SelectExprs, sel.Where)
	if agg {
		return 0
	}
	count, ok := intLiteral(sel.Limit.Rowcount)
	if !ok {
		return 0
	}
	offset := int64(0)
	if sel.Limit.Offset != nil {
		if offset, ok = intLiteral(sel.Limit.Offset); !ok {
			return 0
		}
	}
	if count <= 0 {
		return 0
	}
	return count + offset
}

// zeroLimit reports whether the outermost statement has the literal
// LIMIT 0 (MySQL's LIMIT n, 0 too): it returns no rows, so nothing needs
// to be fetched.
func zeroLimit(s sqlparser.SelectStatement) bool {
	var l *sqlparser.Limit
	switch n := s.(type) {
	case *sqlparser.Select:
		l = n.Limit
	case *sqlparser.SetOp:
		l = n.Limit
	}
	if l == nil {
		return false
	}
	n, ok := intLiteral(l.Rowcount)
	return ok && n == 0
}

func intLiteral(e sqlparser.Expr) (int64, bool) {
	v, ok := e.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.IntVal {
		return 0, false
	}
	n, err := strconv.ParseInt(string(v.Val), 10, 64)
	return n, err == nil && n >= 0
}
