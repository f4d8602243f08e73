package sqlfront

import "github.com/dolthub/vitess/go/vt/sqlparser"

// NullRead is a column of a provider table that a top-level AND term of
// a WHERE or HAVING clause reads without deciding what NULL means there:
// no occurrence of the column in that term stands inside coalesce(),
// ifnull(), IS [NOT] NULL, IS [NOT] TRUE / FALSE or <=>. Such a term is
// never true on a NULL, so a row whose value is unknown silently drops
// out (and a control that expects no rows passes on it). The planner
// keeps those of the scan's own response columns; the runner checks, once
// the rows are in, whether every row read holds NULL there.
type NullRead struct {
	Name    string // lower-cased column name
	Written string // as written (r.stat or stat)
	Clause  string // "WHERE" or "HAVING"
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
				var plain, decided []*sqlparser.ColName
				termColumns(term, false, &plain, &decided)
				dec := map[*TableRef]map[string]bool{}
				for _, c := range decided {
					if t := columnOwner(s, c); t != nil {
						if dec[t] == nil {
							dec[t] = map[string]bool{}
						}
						dec[t][colOf(c)] = true
					}
				}
				for _, c := range plain {
					t := columnOwner(s, c)
					name := colOf(c)
					if t == nil || dec[t][name] || t.readsNull(name) {
						continue
					}
					written := c.Name.String()
					if !c.Qualifier.Name.IsEmpty() {
						written = c.Qualifier.Name.String() + "." + written
					}
					t.NullReads = append(t.NullReads, NullRead{Name: name, Written: written, Clause: clause.name})
				}
			}
		}
	}
}

func (t *TableRef) readsNull(name string) bool {
	for _, r := range t.NullReads {
		if r.Name == name {
			return true
		}
	}
	return false
}

// termColumns sorts the column references of node (not those of its
// subqueries) into those inside a NULL-deciding form and the others.
func termColumns(node sqlparser.SQLNode, decided bool, plain, dec *[]*sqlparser.ColName) {
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
				*plain = append(*plain, v)
			}
			return false, nil
		}
		if !decided && n != node && decidesNull(n) {
			termColumns(n, true, plain, dec)
			return false, nil
		}
		return true, nil
	}, node)
}

// decidesNull reports whether an expression says what a NULL inside it
// means: its value is never NULL because of one (coalesce and ifnull
// give another value; IS [NOT] NULL, IS [NOT] TRUE / FALSE and <=> are
// true or false). nullif and CASE without an IS do not decide.
func decidesNull(n sqlparser.SQLNode) bool {
	switch v := n.(type) {
	case *sqlparser.IsExpr:
		return true
	case *sqlparser.ComparisonExpr:
		return v.Operator == sqlparser.NullSafeEqualStr
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
	switch name {
	case "rowid", "oid", "_rowid_":
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
