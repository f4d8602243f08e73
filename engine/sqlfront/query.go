package sqlfront

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// Query is an analysed SELECT (or UNION, or WITH ... SELECT).
type Query struct {
	text string // the original statement text
	toks []token
	// subTexts caches subqueryTexts.
	subTexts map[string][2]int
	AST      sqlparser.SelectStatement
	// Tables are the provider tables the query reads, in text order.
	Tables []*TableRef
	// Root is the outermost scope; every TableRef belongs to one scope.
	Root *Scope
	// Limit is set when the query is a bare single-table scan with a
	// literal LIMIT (no ORDER BY, GROUP BY, DISTINCT, aggregates, joins or
	// subqueries): the count of rows the query can ever need, LIMIT plus
	// OFFSET. Whether the WHERE clause allows pushing it is the planner's
	// call (every conjunct must be consumed by the API).
	Limit int64
}

// TableRef is one occurrence of a provider table in the query.
type TableRef struct {
	Index int
	// Parts is provider, service, resource and optionally a method name.
	Parts []string
	// Alias is the alias as written, "" when none.
	Alias      string
	start, end int
	Scope      *Scope
	// AllColumns is true when the query may read every column (SELECT *);
	// otherwise Columns holds every column name it may read (a superset:
	// any unqualified name, and any name qualified with this table's name,
	// anywhere in the statement).
	AllColumns bool
	Columns    map[string]bool
	// ColumnRefs are the column references that can only mean a column of
	// this table (see attributeColumns); the planner refuses those that
	// the chosen method does not return.
	ColumnRefs []ColumnRef
	// nullable: the table is on the NULL-extended side of an outer join.
	nullable bool
}

// ColumnRef is one column reference as written (e.g. "r.stat" or "stat").
type ColumnRef struct {
	Name    string // lower-cased column name
	Written string
}

// Reads reports whether the query may read the named column of the table.
func (t *TableRef) Reads(column string) bool { return t.AllColumns || t.Columns[column] }

// Name is provider.service.resource.
func (t *TableRef) Name() string { return strings.Join(t.Parts[:3], ".") }

// MethodName is the explicit method of a four-part name, or "".
func (t *TableRef) MethodName() string {
	if len(t.Parts) > 3 {
		return t.Parts[3]
	}
	return ""
}

// RefName is how SQL refers to the table: its alias, else its resource name.
func (t *TableRef) RefName() string {
	if t.Alias != "" {
		return t.Alias
	}
	return t.Parts[2]
}

func (t *TableRef) String() string {
	s := strings.Join(t.Parts, ".")
	if t.Alias != "" {
		s += " AS " + t.Alias
	}
	return s
}

// Scope is one SELECT: its provider tables and the top-level AND
// conjuncts of its WHERE and JOIN ... ON clauses that could bind API
// parameters.
type Scope struct {
	Parent    *Scope
	Tables    []*TableRef
	Conjuncts []*Conjunct
	// Names are every table name or alias visible in the scope's FROM,
	// provider tables or not (CTEs, derived tables, table functions).
	Names []string
	// WhereTerms counts the top-level AND terms of WHERE, recognised as
	// conjuncts or not.
	WhereTerms int
	// terms are those top-level AND terms (see SourceFilter).
	terms []sqlparser.Expr
	// star is set by an unqualified * in the select list; starOf holds
	// the qualifiers of t.* entries.
	star   bool
	starOf []string
	// cols are the column references of this SELECT's own expressions
	// (not those of its subqueries); aliases its select-list aliases.
	cols      []*sqlparser.ColName
	aliases   map[string]bool
	nameCount map[string]int // Names counted, made on first use
}

// Conjunct is a predicate `[q.]col = literal`, `[q.]col IN (literals)`,
// `[q.]col = [r.]col2` or `[q.]col IN (SELECT ...)` at the top level of a
// WHERE or ON clause.
type Conjunct struct {
	Qualifier, Column string
	// Op is "=", "in", "col" (column equality), "expr" (column equals an
	// expression over one other table) or "subquery" (column IN (SELECT)).
	Op     string
	Values []string
	// RefQualifier and RefColumn are the other side of a column equality.
	// For Op "expr" RefQualifier is the one table the other side's
	// expression reads and RefExpr that expression as SQLite text (e.g.
	// json_extract(r.owner, '$.login')).
	RefQualifier, RefColumn string
	RefExpr                 string
	// Sub is the scope of an IN subquery.
	Sub     *Scope
	subNode *sqlparser.Subquery
	subSpan [2]int // byte span of the subquery's text, without parentheses
	expr    sqlparser.Expr
	// InOn is true for conjuncts of a JOIN ... ON clause.
	InOn bool
	// Raw holds the literals of an "=" or "in" conjunct as written (e.g.
	// 'acme', "acme", TRUE, 1.5e3), parallel to Values, when the text could
	// be matched; nil otherwise.
	Raw []string
}

func (c *Conjunct) String() string { return exprText(c.expr) }

// exprText is an expression as written, table placeholders back to names.
func exprText(e sqlparser.Expr) string {
	return placeholderText.ReplaceAllString(sqlparser.String(e), "$1")
}

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

var placeholderRe = regexp.MustCompile(`^(.+)#([0-9]+)$`)

// findTables locates dotted provider table names in the token stream.
func findTables(text string, toks []token, isProvider func(string) bool) []*TableRef {
	var refs []*TableRef
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.typ != sqlparser.ID || (i > 0 && toks[i-1].typ == '.') {
			continue
		}
		// A back-quoted name with dots inside: `github.repos.repos`.
		if strings.Contains(t.val, ".") {
			parts := SplitLower(t.val)
			if len(parts) >= 3 && len(parts) <= 4 && isProvider(parts[0]) {
				refs = append(refs, &TableRef{Index: len(refs), Parts: parts, start: t.start, end: t.end})
			}
			continue
		}
		if !isProvider(strings.ToLower(t.val)) {
			continue
		}
		parts, next, err := dottedName(text, toks, i)
		if err != nil || len(parts) < 3 || len(parts) > 4 {
			continue
		}
		refs = append(refs, &TableRef{Index: len(refs), Parts: parts, start: t.start, end: toks[next-1].end})
		i = next - 1
	}
	return refs
}

// SplitLower splits a dotted name into lower-cased parts.
func SplitLower(s string) []string {
	parts := strings.Split(s, ".")
	for i := range parts {
		parts[i] = strings.ToLower(strings.TrimSpace(parts[i]))
	}
	return parts
}

// withPlaceholders returns text[start:end] with each table name inside it
// replaced by its placeholder.
func withPlaceholders(text string, refs []*TableRef, start, end int) string {
	var b strings.Builder
	pos := start
	for _, r := range refs {
		if r.start < start || r.end > end {
			continue
		}
		b.WriteString(text[pos:r.start])
		b.WriteString(placeholder(r))
		pos = r.end
	}
	b.WriteString(text[pos:end])
	return b.String()
}

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
			w := strings.ToLower(toks[i+1].raw(q.text))
			if w != "select" && w != "with" {
				continue
			}
			span := [2]int{toks[i+1].start, toks[j-1].end}
			st, err := parseSQL(withPlaceholders(q.text, q.Tables, span[0], span[1]))
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

func placeholder(r *TableRef) string {
	return "`" + strings.Join(r.Parts, ".") + "#" + strconv.Itoa(r.Index) + "`"
}

func parseQuery(text string, toks []token, isProvider func(string) bool) (*Query, error) {
	if len(toks) == 0 {
		return nil, &Error{Pos: -1, Msg: "EXPLAIN needs a SELECT statement"}
	}
	start, end := toks[0].start, toks[len(toks)-1].end
	refs := findTables(text, toks, isProvider)
	// The text vitess parses: the statement with each table name replaced
	// by one quoted identifier that carries its occurrence index.
	vtext := withPlaceholders(text, refs, start, end)
	ast, err := parseSQL(vtext)
	if err != nil {
		msg := err.Error()
		if i := strings.Index(msg, "syntax error"); i >= 0 {
			msg = msg[i:]
		}
		msg = strings.TrimSpace(placeholderText.ReplaceAllString(msg, "$1"))
		return nil, &Error{Pos: -1, Msg: msg + hintFor(vtext)}
	}
	sel, ok := ast.(sqlparser.SelectStatement)
	if !ok {
		return nil, &Error{Pos: toks[0].start, Msg: "only read-only SELECT statements can run here"}
	}
	q := &Query{text: text, toks: toks, AST: sel, Tables: refs}
	a := &analyser{q: q, byIndex: map[int]*TableRef{}, subScopes: map[*sqlparser.Subquery]*Scope{}}
	for _, r := range refs {
		a.byIndex[r.Index] = r
	}
	q.Root = &Scope{}
	if err := a.statement(sel, q.Root); err != nil {
		return nil, err
	}
	for _, c := range a.subConjs {
		c.Sub = a.subScopes[c.subNode]
		c.subSpan = q.findSubquery(c.subNode)
	}
	for _, r := range refs {
		if r.Scope == nil {
			return nil, &Error{Pos: r.start, Msg: fmt.Sprintf("%s can only be used as a table in FROM or JOIN", strings.Join(r.Parts, "."))}
		}
	}
	q.Limit = simpleLimit(sel, q)
	q.markColumns()
	q.attributeColumns(a.scopes)
	q.rawLiterals(a.scopes)
	return q, nil
}

// attributeColumns records, for each provider table, the column references
// that can only be its own: qualified with its name or alias (resolved
// through the enclosing scopes as SQL does), or unqualified in a SELECT
// whose FROM holds only that table and that has no enclosing FROM a
// correlated name could come from. Select-list aliases and SQLite's rowid
// names are not column references.
func (q *Query) attributeColumns(scopes []*Scope) {
	for _, s := range scopes {
		for _, c := range s.cols {
			if !c.Qualifier.DbQualifier.IsEmpty() {
				continue
			}
			name := colOf(c)
			switch name {
			case "rowid", "oid", "_rowid_":
				continue
			}
			written := c.Name.String()
			var owner *TableRef
			if ql := qualOf(c); ql != "" {
				written = c.Qualifier.Name.String() + "." + written
				owner = resolveQualifier(s, ql)
			} else {
				if s.aliases[name] || len(s.Names) != 1 || len(s.Tables) != 1 {
					continue
				}
				outer := false
				for p := s.Parent; p != nil; p = p.Parent {
					if len(p.Names) > 0 {
						outer = true
					}
				}
				if outer {
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

// rawLiterals fills Conjunct.Raw from the statement's tokens, in one pass
// over them: each `[q.]col = lit`, `lit = [q.]col` and `[q.]col IN (lit,
// ...)` is keyed like the conjunct it parses to. When the same predicate is
// written twice, differently, the form that is not a single-quoted string
// is kept, so that a refusal is not missed.
func (q *Query) rawLiterals(scopes []*Scope) {
	toks, text := q.toks, q.text
	raws := map[string][]string{}
	record := func(key string, lits []string) {
		prev, ok := raws[key]
		if !ok || (allSingleQuoted(prev) && !allSingleQuoted(lits)) {
			raws[key] = lits
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
					record(k+"\x00=\x00"+v, []string{toks[j+1].raw(text)})
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
						record(k+"\x00in\x00"+strings.Join(vals, "\x00"), lits)
						break
					}
					if n+1 >= len(toks) || toks[n+1].typ != ',' {
						break
					}
				}
			}
		}
		if v, ok := lit(i); ok && i+1 < len(toks) && toks[i+1].typ == '=' {
			if k, _, ok := colref(i + 2); ok {
				record(k+"\x00=\x00"+v, []string{toks[i].raw(text)})
			}
		}
	}
	for _, s := range scopes {
		for _, c := range s.Conjuncts {
			if c.Op == "=" || c.Op == "in" {
				c.Raw = raws[c.Qualifier+"\x00"+c.Column+"\x00"+c.Op+"\x00"+strings.Join(c.Values, "\x00")]
			}
		}
	}
}

func allSingleQuoted(lits []string) bool {
	for _, l := range lits {
		if !strings.HasPrefix(l, "'") {
			return false
		}
	}
	return true
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

func qualOfTable(tn sqlparser.TableName) string {
	q := tn.Name.String()
	if m := placeholderRe.FindStringSubmatch(q); m != nil {
		parts := SplitLower(m[1])
		return parts[len(parts)-1]
	}
	return strings.ToLower(q)
}

var placeholderText = regexp.MustCompile("`?([a-z0-9_.]+)#[0-9]+`?")

func hintFor(s string) string {
	l := strings.ToLower(s)
	switch {
	case strings.Contains(l, " as integer") || strings.Contains(l, " as real") || strings.Contains(l, " as text"):
		return " (the parser follows MySQL's CAST types: use CAST(x AS SIGNED), CAST(x AS DECIMAL) or CAST(x AS CHAR))"
	case strings.Contains(l, " glob "):
		return " (GLOB is not supported; use LIKE)"
	case strings.Contains(l, "nulls first") || strings.Contains(l, "nulls last"):
		return " (NULLS FIRST/LAST is not supported; order by (x IS NULL), x instead)"
	}
	return ""
}

type analyser struct {
	q         *Query
	scopes    []*Scope // every scope, in the order met
	byIndex   map[int]*TableRef
	subScopes map[*sqlparser.Subquery]*Scope
	subConjs  []*Conjunct
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
		if sq, ok := cte.AliasedTableExpr.Expr.(*sqlparser.Subquery); ok {
			if err := a.statement(sq.Select, &Scope{Parent: scope}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *analyser) selectStmt(sel *sqlparser.Select, scope *Scope) error {
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
			if err := a.subquery(sq, scope); err != nil && firstErr == nil {
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

func (a *analyser) subquery(sq *sqlparser.Subquery, scope *Scope) error {
	child := &Scope{Parent: scope}
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
			if m := placeholderRe.FindStringSubmatch(name); m != nil && e.DbQualifier.IsEmpty() {
				idx, _ := strconv.Atoi(m[2])
				if r := a.byIndex[idx]; r != nil {
					r.Alias = alias
					r.Scope = scope
					scope.Tables = append(scope.Tables, r)
					scope.Names = append(scope.Names, strings.ToLower(r.RefName()))
					return nil
				}
			}
			if alias != "" {
				scope.Names = append(scope.Names, strings.ToLower(alias))
			} else {
				scope.Names = append(scope.Names, strings.ToLower(name))
			}
		case *sqlparser.Subquery:
			scope.Names = append(scope.Names, strings.ToLower(n.As.String()))
			return a.subquery(e, scope)
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
			c.RefExpr = quoteIdent(c.RefQualifier) + "." + quoteIdent(c.RefColumn)
			c.Op = "col"
		case lok:
			if v, ok := literal(cmp.Right); ok {
				c.Qualifier, c.Column, c.Op, c.Values = qualOf(left), colOf(left), "=", []string{v}
			} else if q, text, ok := refExpr(cmp.Right); ok && q != qualOf(left) {
				c.Qualifier, c.Column, c.Op, c.RefQualifier, c.RefExpr = qualOf(left), colOf(left), "expr", q, text
			} else {
				return
			}
		case rok:
			if v, ok := literal(cmp.Left); ok {
				c.Qualifier, c.Column, c.Op, c.Values = qualOf(right), colOf(right), "=", []string{v}
			} else if q, text, ok := refExpr(cmp.Left); ok && q != qualOf(right) {
				c.Qualifier, c.Column, c.Op, c.RefQualifier, c.RefExpr = qualOf(right), colOf(right), "expr", q, text
			} else {
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
			c.Op = "in"
		case *sqlparser.Subquery:
			// The subquery's scope is made when expressions are walked;
			// parseQuery links it afterwards.
			c.Op, c.subNode = "subquery", r
		default:
			return
		}
	default:
		return
	}
	if c.Op == "subquery" {
		a.subConjs = append(a.subConjs, c)
	}
	scope.Conjuncts = append(scope.Conjuncts, c)
}

func qualCol(c *sqlparser.ColName) (string, string) { return qualOf(c), colOf(c) }

func qualOf(c *sqlparser.ColName) string {
	q := c.Qualifier.Name.String()
	if m := placeholderRe.FindStringSubmatch(q); m != nil {
		parts := SplitLower(m[1])
		return parts[len(parts)-1]
	}
	return strings.ToLower(q)
}

func colOf(c *sqlparser.ColName) string { return strings.ToLower(c.Name.String()) }

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
			b.WriteString(quoteIdent(q) + "." + quoteIdent(colOf(n)))
		case *sqlparser.SQLVal:
			switch n.Type {
			case sqlparser.StrVal:
				b.WriteString(quoteString(string(n.Val)))
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

func intLiteral(e sqlparser.Expr) (int64, bool) {
	v, ok := e.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.IntVal {
		return 0, false
	}
	n, err := strconv.ParseInt(string(v.Val), 10, 64)
	return n, err == nil && n >= 0
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
	return sqlparser.Parse(text)
}
