package sqlfront

import (
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// Query is an analysed SELECT (or UNION, or WITH ... SELECT).
type Query struct {
	// Text is the statement as written, and Span the byte span of its
	// code in Text (without a trailing semicolon or comments). The
	// planner writes the SQLite text by editing Text at the spans the
	// front end records: TableRef.Span, Conjunct.Spans, Conjunct.SubSpan.
	Text string
	Span [2]int
	toks []token
	// edits are the spans vitess reads as other text (vitessEdits).
	edits []textEdit
	// subTexts caches subqueryTexts.
	subTexts map[string][2]int
	AST      sqlparser.SelectStatement
	// Tables are the provider tables the query reads, in text order.
	Tables []*TableRef
	// Root is the outermost scope; every TableRef belongs to one scope.
	Root *Scope
	// ShortNames are the table names in FROM or JOIN of one or two parts
	// (repos, github.repos) that name no WITH table of the statement,
	// split and lower-cased, in the order met: SQLite has no such table
	// (a table function such as json_each is not one of them), so the
	// engine can say which provider.service.resource they may mean.
	ShortNames [][]string
	// Limit is set when the query is a bare single-table scan with a
	// literal LIMIT (no ORDER BY, GROUP BY, DISTINCT, aggregates, joins or
	// subqueries): the count of rows the query can ever need, LIMIT plus
	// OFFSET. Whether the WHERE clause allows pushing it is the planner's
	// call (every conjunct must be consumed by the API).
	Limit int64
	// UnorderedLimit is set when the outermost SELECT has LIMIT or OFFSET
	// but no ORDER BY: which rows it keeps depends on the order the API
	// returned them in, which is not guaranteed.
	UnorderedLimit bool
	// LimitZero is set when the outermost SELECT (or UNION) has the
	// literal LIMIT 0: its answer has no rows whatever the tables hold.
	LimitZero bool
	// SingleRow is set when the statement returns exactly one row
	// whatever the tables hold: the outermost SELECT aggregates (count,
	// sum, max, ... in its select list) without GROUP BY or HAVING, so
	// its row count says nothing about the data (see singlerow.go).
	SingleRow bool
}

// TableRef is one occurrence of a provider table in the query.
type TableRef struct {
	Index int
	// Parts is provider, service, resource and optionally a method name.
	Parts []string
	// Alias is the alias as written, "" when none.
	Alias string
	// Span is the byte span of the table's name in Query.Text.
	Span  [2]int
	Scope *Scope
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
	// PathRefs are the references that read a key of one of this table's
	// columns as a name part, which SQL has no syntax for: p.user.login
	// (p this table) or, in a SELECT over this table alone, user.login
	// where no table is named user. Name is the column, Path the key;
	// SQLite would only answer "no such column", so the planner says
	// what to write for a JSON column.
	PathRefs []ColumnRef
	// Filters are the top-level WHERE terms of the table's scope that read
	// only its own columns, as SQLite conditions over its rows (see
	// filter.go); the planner narrows a fan-out's source rows with them.
	Filters []Filter
	// NullReads are the columns of this table that a WHERE or HAVING term
	// reads without saying what NULL means in that term (nullreads.go),
	// once each, in the order met: when every row read holds NULL there,
	// the term cannot decide and the engine says so.
	NullReads []NullRead
	// nullable: the table is on the NULL-extended side of an outer join.
	nullable bool
	// View is set for a view's name (Parts holds only it), read while
	// views are expanded (ExpandViews), never by the planner.
	View bool
}

// Filter is one WHERE term that reads only one table's columns: Term is
// its text as Conjunct.Text would print it (so that the planner can leave
// out the terms the API already applied), SQL the SQLite condition.
type Filter struct {
	Term, SQL string
}

// ColumnRef is one column reference as written (e.g. "r.stat" or "stat").
type ColumnRef struct {
	Name    string // lower-cased column name
	Written string
	Path    string // the key read as a name part, as written (PathRefs only)
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
	if t.View {
		return t.Parts[0]
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
	Parent *Scope
	// derived: the scope is a subquery in FROM or a CTE's body, which
	// does not see the FROM of the SELECT it is in (see correlatable).
	derived   bool
	Tables    []*TableRef
	Conjuncts []*Conjunct
	// Names are every table name or alias visible in the scope's FROM,
	// provider tables or not (CTEs, derived tables, table functions).
	Names []string
	// WhereTerms counts the top-level AND terms of WHERE, recognised as
	// conjuncts or not.
	WhereTerms int
	// terms are those top-level AND terms (see setFilters), and having
	// the top-level AND terms of HAVING (see nullReads).
	terms  []sqlparser.Expr
	having []sqlparser.Expr
	// sel is the scope's SELECT (nil for a UNION's scope), and froms the
	// scopes of the subqueries in its FROM and of the WITH tables it
	// names, by the name the scope gives them (see passThrough).
	sel   *sqlparser.Select
	froms map[string]*Scope
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

// Op is the form of a Conjunct. Its text is how EXPLAIN and errors name it.
type Op string

// The forms of a conjunct.
const (
	OpEq       Op = "="        // column = literal
	OpIn       Op = "in"       // column IN (literals)
	OpCol      Op = "col"      // column = column of another table
	OpExpr     Op = "expr"     // column = expression over one other table
	OpSubquery Op = "subquery" // column IN (SELECT ...)
)

func (o Op) String() string { return string(o) }

// Conjunct is a predicate `[q.]col = literal`, `[q.]col IN (literals)`,
// `[q.]col = [r.]col2` or `[q.]col IN (SELECT ...)` at the top level of a
// WHERE or ON clause.
type Conjunct struct {
	Qualifier, Column string
	Op                Op
	Values            []string
	// RefQualifier and RefColumn are the other side of a column equality.
	// For Op "expr" RefQualifier is the one table the other side's
	// expression reads and RefExpr that expression as SQLite text (e.g.
	// json_extract(r.owner, '$.login')).
	RefQualifier, RefColumn string
	RefExpr                 string
	// Text is the predicate as the parser prints it: how EXPLAIN and
	// errors show it, and the key under which equal predicates are one.
	Text string
	// Sub is the scope of an IN subquery, and SubSpan the byte span of
	// its text in Query.Text, without parentheses ({-1, -1}: not found).
	Sub     *Scope
	SubSpan [2]int
	subNode *sqlparser.Subquery
	// Spans are the byte spans in Query.Text of every occurrence of an
	// "=" or "in" predicate's text (col = lit, lit = col, col IN (lits)),
	// and Occurs how many comparisons of the parsed statement print as
	// Text: a predicate the API applied is replaced by 1 in the SQLite
	// text only when the two agree (see the planner's sqlite.go).
	Spans  [][2]int
	Occurs int
	expr   sqlparser.Expr
	// InOn is true for conjuncts of a JOIN ... ON clause.
	InOn bool
	// Raw holds the literals of an "=" or "in" conjunct as written (e.g.
	// 'acme', "acme", TRUE, 1.5e3), parallel to Values, when the text could
	// be matched; nil otherwise.
	Raw []string
}

func (c *Conjunct) String() string { return c.Text }
