package sqlfront

import "github.com/dolthub/vitess/go/vt/sqlparser"

// sqliteAggregates are SQLite's aggregate functions (min and max only
// with one argument: with more they are scalar). An aggregate in the
// select list of a SELECT without GROUP BY makes it one group: one row.
var sqliteAggregates = map[string]bool{
	"avg": true, "count": true, "group_concat": true, "string_agg": true,
	"sum": true, "total": true, "max": true, "min": true,
	"json_group_array": true, "json_group_object": true,
	"jsonb_group_array": true, "jsonb_group_object": true,
}

// singleRow reports whether the outermost statement always returns
// exactly one row, whatever the tables hold: a plain SELECT (not a
// UNION or another compound) whose select list calls an aggregate
// function (not as a window, and not inside a subquery), with no GROUP
// BY and no HAVING (HAVING makes it zero or one row), and no LIMIT or
// OFFSET that could drop the row.
func singleRow(s sqlparser.SelectStatement) bool {
	for {
		p, ok := s.(*sqlparser.ParenSelect)
		if !ok {
			break
		}
		s = p.Select
	}
	sel, ok := s.(*sqlparser.Select)
	if !ok || len(sel.GroupBy) > 0 || sel.Having != nil {
		return false
	}
	if sel.Limit != nil {
		n, ok := intLiteral(sel.Limit.Rowcount)
		if !ok || n == 0 || sel.Limit.Offset != nil {
			return false
		}
	}
	agg, _ := selectCalls(sel)
	return agg
}

// selectCalls reports whether the SELECT's own expressions (not inside
// a subquery) call an aggregate function other than as a window, and
// whether they call a window function.
func selectCalls(sel *sqlparser.Select) (aggregate, window bool) {
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *sqlparser.Subquery:
			return false, nil // its calls are its own
		case *sqlparser.FuncExpr:
			if n.Over != nil {
				window = true
				return false, nil // one value per row
			}
			name := n.Name.Lowered()
			if n.Qualifier.IsEmpty() && sqliteAggregates[name] && ((name != "min" && name != "max") || len(n.Exprs) == 1) {
				aggregate = true
			}
		case *sqlparser.GroupConcatExpr:
			aggregate = true
		}
		return true, nil
	}, sel.SelectExprs)
	return aggregate, window
}
