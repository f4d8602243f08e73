// Package sqlfront is the SQL front end: it turns one statement of text into
// a Statement value the planner can work with, and it is entered once per
// statement (Parse): everything the planner needs later is in that value,
// as data.
//
// The model: the user's text is parsed by the vitess SQL parser (MySQL
// grammar) for validation and analysis, but what SQLite executes is the
// user's own text with precise, token-position edits (three-part table
// names replaced by materialised table names, consumed parameter
// predicates replaced by 1). The front end records where those things
// stand in the text (Query.Span, TableRef.Span, Conjunct.Spans and
// SubSpan, and TableRef.Filters, the source-row conditions already
// written as SQLite text); the planner, which decides the edits, makes
// them. Regenerating SQL from the vitess AST would
// silently change SQLite semantics (`||`, double-quoted identifiers), so it
// is never done. Constructs on which the two dialects disagree about
// statement boundaries (`#` comments, `/*!` comments) are refused; a
// backslash in a string, an escape to MySQL's grammar and itself to
// SQLite, is read as SQLite reads it (backslash.go).
//
// Table names have three parts, provider.service.resource, optionally a
// fourth naming a method (github.repos.repos.list_for_user). The stock
// grammar takes two parts, so the tokenizer finds the dotted names whose
// first part is a known provider and the text handed to vitess carries one
// quoted identifier per occurrence instead. A statement that does not
// parse so is tried once more with every dotted name of three or four
// parts read as a table: if it parses, the unknown provider is the
// planner's to name (the catalog's error, with the closest names), not a
// syntax error. FROM names of one or two parts that no WITH gives
// (FROM repos, FROM github.repos) are listed in Query.ShortNames, for the
// engine to say which three-part names they may mean. SQLite's negative
// LIMIT ("no limit") is handed to vitess as MySQL's largest count
// (nolimit.go).
//
// Column references that can only mean one provider table (qualified with
// its name or alias, or unqualified in a SELECT whose only FROM item it is,
// with no enclosing FROM it could see: a subquery in FROM and a CTE's body
// do not see the FROM they are in; select aliases and rowid excepted) are
// listed in
// TableRef.ColumnRefs for the planner to check, and those that read a key
// of a column as a name part (p.user.login) in TableRef.PathRefs. Tokens
// exposes the
// tokenizer, so that callers can compare statement structures (check's
// --var substitution).
//
// Files by concern: model.go (Query, TableRef, Scope, Conjunct and its Op),
// query.go (parsing a statement), placeholders.go (the table-name
// placeholder notation), scope.go (scopes and column attribution),
// conjuncts.go (predicates that can bind API parameters), limit.go (LIMIT
// pushdown), nolimit.go (negative LIMIT and OFFSET), filter.go
// (TableRef.Filters), quote.go (the one SQLite identifier quoter),
// tokens.go.
//
// sqlfront knows nothing of providers beyond their names, nothing of HTTP,
// SQLite or MCP.
package sqlfront
