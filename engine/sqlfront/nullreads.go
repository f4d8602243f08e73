package sqlfront

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// NullRead is a column of a provider table that a top-level AND term of
// a WHERE or HAVING clause reads (itself, or through a subquery in FROM,
// a view or a WITH table that passes it through unchanged) without
// deciding what NULL means there: no occurrence of the column in that
// term stands inside coalesce(), ifnull(), IS [NOT] NULL, IS [NOT] TRUE /
// FALSE or <=>. Such a term is never true on a NULL, so a row whose value
// is unknown silently drops out (and a control that expects no rows
// passes on it). A read of one key of a JSON column (col ->> '$.a.b',
// col -> '$.a', json_extract(col, '$.a')) is a read of that path. The
// planner keeps those of the scan's own response columns; the runner
// checks, once the rows are in, whether every row read holds NULL there.
type NullRead struct {
	Name    string // lower-cased column name of the provider table
	Written string // as the term writes it (r.stat, stat, or v.x of a view)
	Clause  string // "WHERE" or "HAVING"
	// Path is the JSON path the term reads of the column ("$.a.b"), ""
	// for the column itself.
	Path string
	// Expr is the read as SQL writes it: Written, then ->> 'Path' for a
	// path.
	Expr string
}

// nullReads records TableRef.NullReads: for each scope's WHERE and HAVING
// terms (subqueries are their own scopes), the column references that
// can only mean one provider table (the rules of attributeColumns) and
// that the term does not decide NULL for. A term decides NULL for a
// column when one occurrence of it stands inside a NULL-deciding form
// (`x IS NULL OR x <> 'enabled'` decides for both occurrences).
func (q *Query) nullReads(scopes []*Scope) {
	for _, s := range scopes {
		for _, clause := range []struct {
			name  string
			terms []sqlparser.Expr
		}{{"WHERE", s.terms}, {"HAVING", s.having}} {
			for _, term := range clause.terms {
				var plain []colRead
				var decided []*sqlparser.ColName
				termColumns(term, false, &plain, &decided)
				dec := map[*TableRef]map[string]bool{}
				for _, c := range decided {
					ts, name, _ := aliasedReaders(s, c)
					for _, t := range ts {
						if dec[t] == nil {
							dec[t] = map[string]bool{}
						}
						dec[t][name] = true
					}
				}
				for _, r := range plain {
					c := r.col
					ts, name, aliasPath := aliasedReaders(s, c)
					written := c.Name.String()
					if !c.Qualifier.Name.IsEmpty() {
						written = c.Qualifier.Name.String() + "." + written
					}
					expr, path := written, r.path
					switch {
					case aliasPath != "" && path != "":
						continue // a path of a path: not followed
					case aliasPath != "":
						path = aliasPath // the alias is the read; the term writes it
					case path != "":
						expr += " ->> " + QuoteString(path)
					}
					for _, t := range ts {
						if !dec[t][name] && !t.readsNull(name, path) {
							t.NullReads = append(t.NullReads, NullRead{Name: name, Written: written, Clause: clause.name, Path: path, Expr: expr})
						}
					}
				}
			}
		}
	}
}

func (t *TableRef) readsNull(name, path string) bool {
	for _, r := range t.NullReads {
		if r.Name == name && r.Path == path {
			return true
		}
	}
	return false
}

// colRead is a column reference, or a read of one JSON path of it.
type colRead struct {
	col  *sqlparser.ColName
	path string
}

// termColumns sorts the column references of node (not those of its
// subqueries) into those inside a NULL-deciding form and the others.
func termColumns(node sqlparser.SQLNode, decided bool, plain *[]colRead, dec *[]*sqlparser.ColName) {
	if !decided && decidesNull(node) {
		decided = true
	}
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch v := n.(type) {
		case *sqlparser.Subquery:
			return false, nil
		case *sqlparser.ColName:
			if decided {
				*dec = append(*dec, v)
			} else {
				*plain = append(*plain, colRead{col: v})
			}
			return false, nil
		}
		if !decided && n != node && decidesNull(n) {
			termColumns(n, true, plain, dec)
			return false, nil
		}
		if c, path, ok := jsonPathRead(n); ok && !decided {
			*plain = append(*plain, colRead{col: c, path: path})
			return false, nil
		}
		return true, nil
	}, node)
}

// nullPropagating are SQLite's functions whose value is NULL when their
// argument is (lower(NULL) is NULL; hex(NULL) is the empty string, so it
// is not one).
var nullPropagating = map[string]bool{"lower": true, "upper": true, "trim": true, "ltrim": true, "rtrim": true,
	"length": true, "abs": true, "round": true, "substr": true, "substring": true, "replace": true, "instr": true}

// nullComparisons are the comparisons that are NULL when a side is.
var nullComparisons = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true, "like": true, "not like": true}

// propagatesNull returns the one column (and JSON path) an expression
// reads when the expression is NULL whenever that read is: it is made of
// that read, literals, arithmetic, comparisons, NOT, CAST and functions
// that return NULL on NULL (lower(x), x + 0, x = 0, NOT x). A column of
// a view or WITH table computed so is NULL in every row where the
// provider's column is, so the NULL rule follows it through.
func propagatesNull(e sqlparser.Expr) (*sqlparser.ColName, string, bool) {
	var col *sqlparser.ColName
	path, ok := "", true
	var walk func(e sqlparser.Expr)
	walk = func(e sqlparser.Expr) {
		if !ok {
			return
		}
		e = unparen(e)
		if c, p, isPath := jsonPathRead(e); isPath {
			if col != nil {
				ok = false
				return
			}
			col, path = c, p
			return
		}
		switch v := e.(type) {
		case *sqlparser.ColName:
			if col != nil {
				ok = false
				return
			}
			col = v
		case *sqlparser.SQLVal, sqlparser.BoolVal:
		case *sqlparser.BinaryExpr:
			walk(v.Left)
			walk(v.Right)
		case *sqlparser.ComparisonExpr:
			if !nullComparisons[strings.ToLower(v.Operator)] {
				ok = false
				return
			}
			walk(v.Left)
			walk(v.Right)
		case *sqlparser.NotExpr:
			walk(v.Expr)
		case *sqlparser.UnaryExpr:
			walk(v.Expr)
		case *sqlparser.ConvertExpr:
			walk(v.Expr)
		case *sqlparser.FuncExpr:
			if !v.Qualifier.IsEmpty() || !nullPropagating[v.Name.Lowered()] {
				ok = false
				return
			}
			for _, a := range v.Exprs {
				ae, isExpr := a.(*sqlparser.AliasedExpr)
				if !isExpr {
					ok = false
					return
				}
				walk(ae.Expr)
			}
		default:
			ok = false
		}
	}
	walk(e)
	return col, path, ok && col != nil
}

// jsonPathRead recognises a read of one literal path of a column: col ->
// 'path', col ->> 'path', json_extract(col, 'path').
func jsonPathRead(n sqlparser.SQLNode) (*sqlparser.ColName, string, bool) {
	var left, right sqlparser.Expr
	switch v := n.(type) {
	case *sqlparser.BinaryExpr:
		if v.Operator != sqlparser.JSONExtractOp && v.Operator != sqlparser.JSONUnquoteExtractOp {
			return nil, "", false
		}
		left, right = v.Left, v.Right
	case *sqlparser.FuncExpr:
		if !v.Qualifier.IsEmpty() || v.Name.Lowered() != "json_extract" || len(v.Exprs) != 2 {
			return nil, "", false
		}
		a, ok1 := v.Exprs[0].(*sqlparser.AliasedExpr)
		b, ok2 := v.Exprs[1].(*sqlparser.AliasedExpr)
		if !ok1 || !ok2 {
			return nil, "", false
		}
		left, right = a.Expr, b.Expr
	default:
		return nil, "", false
	}
	c, ok := unparen(left).(*sqlparser.ColName)
	lit, ok2 := unparen(right).(*sqlparser.SQLVal)
	if !ok || !ok2 || lit.Type != sqlparser.StrVal {
		return nil, "", false
	}
	return c, string(lit.Val), true
}

// decidesNull reports whether an expression says what a NULL inside it
// means: its value is never NULL because of one (coalesce and ifnull
// give another value; IS [NOT] NULL and IS NOT TRUE / FALSE are true or
// false; MySQL's <=> is refused, checkDialect). IS TRUE and IS FALSE do not decide: they are a
// boolean's test, false on NULL, so the row whose value is unknown drops
// out as under = (WHERE x IS FALSE passes on what the token cannot see).
// nullif and CASE without an IS do not decide either.
func decidesNull(n sqlparser.SQLNode) bool {
	switch v := n.(type) {
	case *sqlparser.IsExpr:
		return v.Operator != sqlparser.IsTrueStr && v.Operator != sqlparser.IsFalseStr
	case *sqlparser.FuncExpr:
		if !v.Qualifier.IsEmpty() {
			return false
		}
		switch v.Name.Lowered() {
		case "coalesce", "ifnull":
			return true
		}
	}
	return false
}

// columnOwner is the provider table a column reference of scope s can
// only mean (attributeColumns' rules), or nil.
func columnOwner(s *Scope, c *sqlparser.ColName) *TableRef {
	if !c.Qualifier.DbQualifier.IsEmpty() {
		return nil
	}
	name := colOf(c)
	if rowidName(name) {
		return nil
	}
	if ql := qualOf(c); ql != "" {
		return resolveQualifier(s, ql)
	}
	if s.aliases[name] || len(s.Names) != 1 || len(s.Tables) != 1 || correlatable(s) {
		return nil
	}
	return s.Tables[0]
}

// from records that the scope's FROM name given reads the derived scope
// body (a subquery in FROM, a view, a WITH table).
func (s *Scope) from(given string, body *Scope) {
	if body == nil {
		return
	}
	if s.froms == nil {
		s.froms = map[string]*Scope{}
	}
	s.froms[given] = body
}

// aliasedReaders is readers, also for a select-list alias of the scope
// that the term reads (SQLite lets WHERE and HAVING read one) when the
// alias is a column or one JSON path of one (x AS m, c ->> '$.a' AS m):
// then the column it names, with that path.
func aliasedReaders(s *Scope, c *sqlparser.ColName) ([]*TableRef, string, string) {
	name := colOf(c)
	if qualOf(c) != "" || !s.aliases[name] || s.sel == nil {
		return readers(s, c)
	}
	for _, se := range s.sel.SelectExprs {
		ae, ok := se.(*sqlparser.AliasedExpr)
		if !ok || strings.ToLower(ae.As.String()) != name {
			continue
		}
		e := unparen(ae.Expr)
		if inner, ok := e.(*sqlparser.ColName); ok {
			return readers(s, inner)
		}
		if inner, path, ok := propagatesNull(e); ok {
			if ts, name, innerPath := readers(s, inner); innerPath == "" || path == "" {
				return ts, name, cmp.Or(path, innerPath)
			}
		}
		break // an expression decides its own NULLs
	}
	return nil, name, ""
}

// readers are the provider tables a column reference of scope s may
// read, with the column's name (and the JSON path of a pass-through):
// the one resolveColumn finds, else, for an unqualified name in a FROM
// of provider tables only, each of them (below).
func readers(s *Scope, c *sqlparser.ColName) ([]*TableRef, string, string) {
	if t, name, path := resolveColumn(s, c); t != nil {
		return []*TableRef{t}, name, path
	}
	name := colOf(c)
	// An unqualified name of a scope whose FROM items are all provider
	// tables is, in SQL, the column of the one of them that has it (two
	// would make SQLite refuse it as ambiguous), before any outer scope's
	// (a subquery in WHERE sees its own FROM first): each may own it, and
	// the planner keeps the read of the one whose method has the column.
	if qualOf(c) != "" || !c.Qualifier.DbQualifier.IsEmpty() || s.aliases[name] || rowidName(name) || len(s.Tables) == 0 || len(s.Names) != len(s.Tables) {
		return nil, name, ""
	}
	return s.Tables, name, ""
}

// resolveColumn is the provider table and column a column reference of
// scope s reads: its own (columnOwner), or the one a derived table in
// FROM passes through unchanged (passThrough); nil when neither.
func resolveColumn(s *Scope, c *sqlparser.ColName) (*TableRef, string, string) {
	if t := columnOwner(s, c); t != nil {
		return t, colOf(c), ""
	}
	return passThrough(s, c, 0)
}

// passThrough follows a reference to a derived table's column (v.x, or x
// in a SELECT whose one FROM item is v) into its SELECT: when the column
// is a bare column of a provider table there (x, t.x, or y AS x; or any
// name under SELECT * over one table), or one JSON path of one (c ->>
// '$.a' AS x), that table's column (and the path), through nested
// derived tables; else nil (an expression decides its own NULLs).
func passThrough(s *Scope, c *sqlparser.ColName, depth int) (*TableRef, string, string) {
	if depth > 8 || !c.Qualifier.DbQualifier.IsEmpty() {
		return nil, "", ""
	}
	name := colOf(c)
	var body *Scope
	if ql := qualOf(c); ql != "" {
		body = derivedNamed(s, ql)
	} else if len(s.Names) == 1 && len(s.Tables) == 0 && !s.aliases[name] && !correlatable(s) {
		body = s.froms[s.Names[0]]
	}
	if body == nil || body.sel == nil {
		return nil, "", ""
	}
	for _, se := range body.sel.SelectExprs {
		switch e := se.(type) {
		case *sqlparser.AliasedExpr:
			inner, ok := unparen(e.Expr).(*sqlparser.ColName)
			out := strings.ToLower(e.As.String())
			if out == "" && ok {
				out = colOf(inner)
			}
			if out != name {
				continue
			}
			if ok {
				return resolveInner(body, inner, depth)
			}
			if inner, path, ok := propagatesNull(unparen(e.Expr)); ok {
				if t, col, innerPath := resolveInner(body, inner, depth); t != nil && (innerPath == "" || path == "") {
					return t, col, cmp.Or(path, innerPath)
				}
			}
			return nil, "", ""
		case *sqlparser.StarExpr:
			if len(body.Names) != 1 {
				continue
			}
			if len(body.Tables) == 1 {
				return body.Tables[0], name, ""
			}
			inner := &sqlparser.ColName{Name: sqlparser.NewColIdent(name)}
			return passThrough(body, inner, depth+1)
		}
	}
	return nil, "", ""
}

func resolveInner(body *Scope, c *sqlparser.ColName, depth int) (*TableRef, string, string) {
	if t := columnOwner(body, c); t != nil {
		return t, colOf(c), ""
	}
	return passThrough(body, c, depth+1)
}

// derivedNamed is the derived scope the FROM name ql gives, looking in s
// then its parents as SQL does; nil when the nearest scope that has the
// name gives it to something else.
func derivedNamed(s *Scope, ql string) *Scope {
	for ; s != nil; s = s.Parent {
		if slices.Contains(s.Names, ql) {
			return s.froms[ql]
		}
	}
	return nil
}
