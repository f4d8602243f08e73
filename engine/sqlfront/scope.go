package sqlfront

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// unparen strips the parentheses around an expression.
func unparen(e sqlparser.Expr) sqlparser.Expr {
	for {
		p, ok := e.(*sqlparser.ParenExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}

// attributeColumns records, for each provider table, the column references
// that can only be its own: qualified with its name or alias (resolved
// through the enclosing scopes as SQL does), or unqualified in a SELECT
// whose FROM holds only that table and that sees no enclosing FROM a
// correlated name could come from (correlatable). Select-list aliases and
// SQLite's rowid names are not column references.
func (q *Query) attributeColumns(scopes []*Scope) {
	for _, s := range scopes {
		for _, c := range s.cols {
			if !c.Qualifier.DbQualifier.IsEmpty() {
				// p.user.login: SQL reads schema p, table user.
				if owner := resolveQualifier(s, qualName(c.Qualifier.DbQualifier.String())); owner != nil && c.Qualifier.SchemaQualifier.IsEmpty() {
					owner.PathRefs = append(owner.PathRefs, ColumnRef{Name: qualOf(c), Path: c.Name.String(),
						Written: c.Qualifier.DbQualifier.String() + "." + c.Qualifier.Name.String() + "." + c.Name.String()})
				}
				continue
			}
			name := colOf(c)
			if rowidName(name) {
				continue
			}
			written := c.Name.String()
			var owner *TableRef
			if ql := qualOf(c); ql != "" {
				written = c.Qualifier.Name.String() + "." + written
				owner = resolveQualifier(s, ql)
				if owner == nil && !visible(s, ql) && len(s.Names) == 1 && len(s.Tables) == 1 && !correlatable(s) {
					// user.login where nothing is named user: a key of
					// the one table's column user, or a misspelt name.
					s.Tables[0].PathRefs = append(s.Tables[0].PathRefs, ColumnRef{Name: ql, Path: c.Name.String(), Written: written})
				}
			} else {
				if s.aliases[name] || len(s.Names) != 1 || len(s.Tables) != 1 || correlatable(s) {
					continue
				}
				owner = s.Tables[0]
			}
			if owner != nil {
				owner.ColumnRefs = append(owner.ColumnRefs, ColumnRef{Name: name, Written: written})
			}
		}
	}
}

// correlatable reports whether the FROM of an enclosing SELECT is
// visible to s, so that an unqualified name in s could be one of its
// columns. A subquery in FROM or a CTE's body does not see the FROM of
// the SELECT it belongs to (SQLite has no LATERAL), but it sees what that
// SELECT sees: SELECT (SELECT c FROM (SELECT x.a AS c) z) FROM x is
// correlated with x.
func correlatable(s *Scope) bool {
	for p := s; p.Parent != nil; p = p.Parent {
		if !p.derived && len(p.Parent.Names) > 0 {
			return true
		}
	}
	return false
}

// resolveQualifier finds the provider table a qualifier names, looking in
// the scope then its parents; nil when the nearest scope that has the name
// gives it to something else (a CTE, a derived table) or to several tables.
func resolveQualifier(s *Scope, ql string) *TableRef {
	for ; s != nil; s = s.Parent {
		if s.nameCount == nil {
			s.nameCount = make(map[string]int, len(s.Names))
			for _, name := range s.Names {
				s.nameCount[name]++
			}
		}
		n := s.nameCount[ql]
		if n == 0 {
			continue
		}
		if n > 1 {
			return nil
		}
		for _, t := range s.Tables {
			if strings.ToLower(t.RefName()) == ql {
				return t
			}
		}
		return nil
	}
	return nil
}

// visible reports whether a FROM name of s or of a scope around it is
// name.
func visible(s *Scope, name string) bool {
	for ; s != nil; s = s.Parent {
		if slices.Contains(s.Names, name) {
			return true
		}
	}
	return false
}

// markColumns records, for each table, the columns the query may read.
func (q *Query) markColumns() {
	names := map[string][]string{} // column -> qualifiers ("" for none)
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *sqlparser.ColName:
			names[colOf(n)] = append(names[colOf(n)], qualOf(n))
		case sqlparser.JoinCondition:
			for _, c := range n.Using {
				names[strings.ToLower(c.String())] = append(names[strings.ToLower(c.String())], "")
			}
		}
		return true, nil
	}, q.AST)
	for _, t := range q.Tables {
		me := strings.ToLower(t.RefName())
		t.AllColumns = t.Scope.star
		for _, s := range t.Scope.starOf {
			if s == me {
				t.AllColumns = true
			}
		}
		t.Columns = map[string]bool{}
		for col, quals := range names {
			for _, ql := range quals {
				if ql == "" || ql == me {
					t.Columns[col] = true
					break
				}
			}
		}
	}
}

type analyser struct {
	q         *Query
	scopes    []*Scope // every scope, in the order met
	byIndex   map[int]*TableRef
	subScopes map[*sqlparser.Subquery]*Scope
	subConjs  []*Conjunct
	// withNames are the names WITH gives anywhere in the statement, and
	// shortNames the other names of one or two parts in FROM (see
	// Query.ShortNames).
	withNames  map[string]bool
	shortNames [][]string
	// withScopes are the scopes of WITH tables' bodies, by name.
	withScopes map[string]*Scope
}

func (a *analyser) statement(s sqlparser.SelectStatement, scope *Scope) error {
	switch n := s.(type) {
	case *sqlparser.Select:
		a.scopes = append(a.scopes, scope)
		if n.Into != nil {
			return &Error{Pos: -1, Msg: "SELECT ... INTO is not allowed"}
		}
		if n.Lock != "" {
			return &Error{Pos: -1, Msg: "locking clauses are not allowed"}
		}
		return a.selectStmt(n, scope)
	case *sqlparser.SetOp:
		if n.Into != nil {
			return &Error{Pos: -1, Msg: "SELECT ... INTO is not allowed"}
		}
		if err := a.with(n.With, scope); err != nil {
			return err
		}
		if err := a.statement(n.Left, &Scope{Parent: scope}); err != nil {
			return err
		}
		if err := a.statement(n.Right, &Scope{Parent: scope}); err != nil {
			return err
		}
		return a.exprs(scope, n.OrderBy, n.Limit)
	case *sqlparser.ParenSelect:
		return a.statement(n.Select, scope)
	}
	return &Error{Pos: -1, Msg: fmt.Sprintf("unsupported query form %T", s)}
}

func (a *analyser) with(w *sqlparser.With, scope *Scope) error {
	if w == nil {
		return nil
	}
	for _, cte := range w.Ctes {
		a.withNames[strings.ToLower(cte.As.String())] = true
		if sq, ok := cte.AliasedTableExpr.Expr.(*sqlparser.Subquery); ok {
			body := &Scope{Parent: scope, derived: true}
			if a.withScopes == nil {
				a.withScopes = map[string]*Scope{}
			}
			a.withScopes[strings.ToLower(cte.As.String())] = body
			if err := a.statement(sq.Select, body); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *analyser) selectStmt(sel *sqlparser.Select, scope *Scope) error {
	scope.sel = sel
	if err := a.with(sel.With, scope); err != nil {
		return err
	}
	for _, se := range sel.SelectExprs {
		if ae, ok := se.(*sqlparser.AliasedExpr); ok && !ae.As.IsEmpty() {
			if scope.aliases == nil {
				scope.aliases = map[string]bool{}
			}
			scope.aliases[strings.ToLower(ae.As.String())] = true
		}
		if st, ok := se.(*sqlparser.StarExpr); ok {
			if st.TableName.IsEmpty() {
				scope.star = true
			} else {
				scope.starOf = append(scope.starOf, qualOfTable(st.TableName))
			}
		}
	}
	for _, te := range sel.From {
		if err := a.tableExpr(te, scope); err != nil {
			return err
		}
	}
	if sel.Where != nil {
		terms := splitAnd(sel.Where.Expr)
		scope.WhereTerms, scope.terms = len(terms), terms
		for _, e := range terms {
			a.conjunct(e, scope, false)
		}
	}
	if sel.Having != nil {
		scope.having = splitAnd(sel.Having.Expr)
	}
	return a.exprs(scope, sel.SelectExprs, sel.Where, sel.GroupBy, sel.Having, sel.OrderBy, sel.Limit)
}

// exprs finds subqueries in expressions and analyses each in its own scope.
func (a *analyser) exprs(scope *Scope, nodes ...sqlparser.SQLNode) error {
	var firstErr error
	visit := func(node sqlparser.SQLNode) (bool, error) {
		if c, ok := node.(*sqlparser.ColName); ok {
			scope.cols = append(scope.cols, c)
		}
		if sq, ok := node.(*sqlparser.Subquery); ok {
			if err := a.subquery(sq, scope, false); err != nil && firstErr == nil {
				firstErr = err
			}
			return false, nil
		}
		return true, nil
	}
	for _, n := range nodes {
		if n == nil || isNilNode(n) {
			continue
		}
		_ = sqlparser.Walk(visit, n)
	}
	return firstErr
}

func isNilNode(n sqlparser.SQLNode) bool {
	switch v := n.(type) {
	case *sqlparser.Where:
		return v == nil
	case *sqlparser.Limit:
		return v == nil
	}
	return false
}

func (a *analyser) subquery(sq *sqlparser.Subquery, scope *Scope, derived bool) error {
	child := &Scope{Parent: scope, derived: derived}
	a.subScopes[sq] = child
	return a.statement(sq.Select, child)
}

func (a *analyser) tableExpr(te sqlparser.TableExpr, scope *Scope) error {
	switch n := te.(type) {
	case *sqlparser.AliasedTableExpr:
		switch e := n.Expr.(type) {
		case sqlparser.TableName:
			name := e.Name.String()
			alias := n.As.String()
			if _, idx, ok := parsePlaceholder(name); ok && e.DbQualifier.IsEmpty() {
				if r := a.byIndex[idx]; r != nil {
					r.Alias = alias
					r.Scope = scope
					scope.Tables = append(scope.Tables, r)
					scope.Names = append(scope.Names, strings.ToLower(r.RefName()))
					return nil
				}
			}
			if _, _, ph := parsePlaceholder(name); !ph && e.SchemaQualifier.IsEmpty() {
				short := SplitLower(name) // a back-quoted `github.repos` is one identifier
				if !e.DbQualifier.IsEmpty() {
					short = append(SplitLower(e.DbQualifier.String()), short...)
				}
				if len(short) <= 2 {
					a.shortNames = append(a.shortNames, short)
				}
			}
			given := strings.ToLower(name)
			if alias != "" {
				given = strings.ToLower(alias)
			}
			scope.Names = append(scope.Names, given)
			if body := a.withScopes[strings.ToLower(name)]; body != nil && e.DbQualifier.IsEmpty() {
				scope.from(given, body)
			}
		case *sqlparser.Subquery:
			scope.Names = append(scope.Names, strings.ToLower(n.As.String()))
			if err := a.subquery(e, scope, true); err != nil {
				return err
			}
			scope.from(strings.ToLower(n.As.String()), a.subScopes[e])
			return nil
		default:
			scope.Names = append(scope.Names, strings.ToLower(n.As.String()))
		}
		return nil
	case *sqlparser.JoinTableExpr:
		before := len(scope.Tables)
		if err := a.tableExpr(n.LeftExpr, scope); err != nil {
			return err
		}
		mid := len(scope.Tables)
		if err := a.tableExpr(n.RightExpr, scope); err != nil {
			return err
		}
		markNullable(n.Join, scope.Tables[before:mid], scope.Tables[mid:])
		if n.Condition.On != nil {
			for _, e := range splitAnd(n.Condition.On) {
				a.conjunct(e, scope, true)
			}
			return a.exprs(scope, n.Condition.On)
		}
		return nil
	case *sqlparser.ParenTableExpr:
		for _, t := range n.Exprs {
			if err := a.tableExpr(t, scope); err != nil {
				return err
			}
		}
		return nil
	}
	// Table functions and other forms: they name rows too (so an
	// unqualified column may be theirs); look for subqueries inside.
	switch n := te.(type) {
	case *sqlparser.TableFuncExpr:
		scope.Names = append(scope.Names, strings.ToLower(n.Alias.String()))
	case *sqlparser.JSONTableExpr:
		scope.Names = append(scope.Names, strings.ToLower(n.Alias.String()))
	default:
		scope.Names = append(scope.Names, "")
	}
	return a.exprs(scope, te)
}

func qualCol(c *sqlparser.ColName) (string, string) { return qualOf(c), colOf(c) }

func qualOf(c *sqlparser.ColName) string { return qualName(c.Qualifier.Name.String()) }

func colOf(c *sqlparser.ColName) string { return strings.ToLower(c.Name.String()) }

// rowidName reports whether name is one of SQLite's names of a row's id
// (rowid, oid, _rowid_), which no table of a provider has.
func rowidName(name string) bool { return name == "rowid" || name == "oid" || name == "_rowid_" }
