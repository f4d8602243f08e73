package sqlfront

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// Views are named queries the engine keeps (CREATE VIEW); they never
// reach SQLite as DDL. A statement that reads a view is expanded before
// it is parsed (ExpandViews): each FROM name that is a view becomes its
// query as a subquery, `(SELECT ...) AS name`, and the literal
// conditions of the statement's WHERE on a column the view passes
// through unchanged (`org = 'acme'` where the view selects r.org) are
// added to that query's WHERE as well (`r.org = 'acme'`), so that they
// bind the API parameters of the view's tables exactly as they would
// written against the table itself. The condition stays in the outer
// WHERE too, so the answer is the same whether or not it was pushed.
// A condition is pushed only into a plain SELECT (no GROUP BY, HAVING,
// aggregate, window function or LIMIT), where filtering before or after
// the view is the same.

// ViewDef is a CREATE VIEW or DROP VIEW statement's subject.
type ViewDef struct {
	Name string
	// Query is the view's SELECT as written (CREATE VIEW only).
	Query     string
	OrReplace bool
	IfExists  bool
}

// viewName is the form of a view's name: one lower-case identifier.
var viewName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// ValidViewName reports whether name can name a view.
func ValidViewName(name string) bool { return viewName.MatchString(name) }

// parseCreateView reads CREATE [OR REPLACE] VIEW name AS SELECT ... .
// The query is checked to parse as a SELECT; its tables are the
// engine's to check.
func parseCreateView(st *Statement, text string, toks []token, isProvider func(string) bool) error {
	word := func(i int) string {
		if i < len(toks) {
			return strings.ToLower(toks[i].raw(text))
		}
		return ""
	}
	st.View = &ViewDef{}
	i := 1
	if word(1) == "or" {
		if word(2) != "replace" {
			return &Error{Pos: toks[1].start, Msg: "expected CREATE OR REPLACE VIEW name AS SELECT ..."}
		}
		st.View.OrReplace = true
		i = 3
	}
	switch word(i) {
	case "view":
	case "materialized":
		return &Error{Pos: toks[i].start, Msg: "materialized views are not supported; CREATE VIEW name AS SELECT ... keeps the query, and each statement that reads it asks the API again"}
	default:
		return &Error{Pos: toks[0].start, Msg: "CREATE statements are not allowed except CREATE [OR REPLACE] VIEW name AS SELECT ...: the engine only reads from APIs"}
	}
	i++
	if i >= len(toks) || !toks[i].isWord(text) || (i+1 < len(toks) && toks[i+1].typ == '.') {
		return &Error{Pos: posOf(text, toks, i), Msg: "CREATE VIEW needs a name of one part (letters, digits, _), e.g. CREATE VIEW go_repos AS SELECT ..."}
	}
	name := strings.ToLower(identText(text, toks[i]))
	if !ValidViewName(name) {
		return &Error{Pos: toks[i].start, Msg: fmt.Sprintf("view name %q: use lower-case letters, digits and _, starting with a letter or _", name)}
	}
	if isProvider(name) {
		return &Error{Pos: toks[i].start, Msg: fmt.Sprintf("view name %q is a provider's name; choose another", name)}
	}
	st.View.Name = name
	i++
	if word(i) == "(" {
		return &Error{Pos: toks[i].start, Msg: "a view's column list is not supported; name the columns in its SELECT (SELECT x AS name ...)"}
	}
	if word(i) != "as" {
		return &Error{Pos: posOf(text, toks, i), Msg: "expected AS SELECT ... after the view's name"}
	}
	i++
	if i >= len(toks) {
		return &Error{Pos: len(text), Msg: "CREATE VIEW needs a SELECT after AS"}
	}
	body := text[toks[i].start:toks[len(toks)-1].end]
	switch word(i) {
	case "select", "with", "(":
	default:
		return &Error{Pos: toks[i].start, Msg: "a view is a SELECT: CREATE VIEW name AS SELECT ..."}
	}
	if _, err := parseQuery(body, code(mustTokens(body)), isProvider); err != nil {
		return err
	}
	st.Kind, st.View.Query = KindCreateView, body
	return nil
}

// parseDropView reads DROP VIEW [IF EXISTS] name.
func parseDropView(st *Statement, text string, toks []token) error {
	word := func(i int) string {
		if i < len(toks) {
			return strings.ToLower(toks[i].raw(text))
		}
		return ""
	}
	if word(1) != "view" {
		return &Error{Pos: toks[0].start, Msg: "DROP statements are not allowed except DROP VIEW [IF EXISTS] name: the engine only reads from APIs"}
	}
	st.View = &ViewDef{}
	i := 2
	if word(2) == "if" && word(3) == "exists" {
		st.View.IfExists = true
		i = 4
	}
	if i >= len(toks) || !toks[i].isWord(text) {
		return &Error{Pos: posOf(text, toks, i), Msg: "DROP VIEW needs the view's name, e.g. DROP VIEW go_repos"}
	}
	st.View.Name = strings.ToLower(identText(text, toks[i]))
	st.Kind = KindDropView
	return expectEnd(text, toks, i+1)
}

func posOf(text string, toks []token, i int) int {
	if i < len(toks) {
		return toks[i].start
	}
	return len(text)
}

// mustTokens tokenizes text that was tokenized before as part of a
// larger text (so cannot fail differently); an error gives no tokens.
func mustTokens(text string) []token {
	toks, err := tokenize(text)
	if err != nil {
		return nil
	}
	toks, _ = trimStatement(toks)
	return toks
}

// MaxViewDepth bounds views read through views.
const MaxViewDepth = 16

// ExpandViews returns text with every view named in a FROM or JOIN of a
// SELECT or EXPLAIN replaced by its query (see the comment at the top of
// this file), and the names of the views it read. view returns a view's
// query by name (lower-case). Text that names no view is returned as it
// is; so is text that does not parse: Parse says what is wrong with it.
func ExpandViews(text string, isProvider func(string) bool, view func(name string) (string, bool)) (string, []string, error) {
	var used []string
	out, err := expandViews(text, isProvider, view, nil, &used)
	return out, used, err
}

func expandViews(text string, isProvider func(string) bool, view func(string) (string, bool), stack []string, used *[]string) (string, error) {
	toks, err := statementCode(text)
	if err != nil || len(toks) == 0 {
		return text, nil // Parse says what is wrong with it
	}
	switch strings.ToLower(toks[0].raw(text)) {
	case "explain":
		toks = toks[1:]
	case "select", "with", "(":
	default:
		return text, nil
	}
	cands := viewCandidates(text, toks, view)
	if len(cands) == 0 {
		return text, nil
	}
	q, err := parseQueryViews(text, toks, isProvider, cands)
	if err != nil || q == nil {
		return text, nil // Parse reports it
	}
	var b strings.Builder
	pos := 0
	for _, r := range q.Tables {
		if !r.View {
			continue
		}
		name := r.Parts[0]
		if slices.Contains(stack, name) {
			return "", &Error{Pos: r.Span[0], Msg: fmt.Sprintf("view %s reads itself (%s -> %s)", name, strings.Join(stack, " -> "), name)}
		}
		if len(stack) >= MaxViewDepth {
			return "", &Error{Pos: r.Span[0], Msg: fmt.Sprintf("views read through more than %d other views", MaxViewDepth)}
		}
		body, _ := view(name)
		if !slices.Contains(*used, name) {
			*used = append(*used, name)
		}
		body = pushDown(body, isProvider, pushable(q, r))
		body, err := expandViews(body, isProvider, view, append(stack, name), used)
		if err != nil {
			return "", err
		}
		b.WriteString(text[pos:r.Span[0]])
		b.WriteString("(" + body + "\n)")
		if r.Alias == "" {
			b.WriteString(" AS " + name)
		}
		pos = r.Span[1]
	}
	b.WriteString(text[pos:])
	return b.String(), nil
}

// viewCandidates are the one-part names in the tokens that name a view:
// not a part of a dotted name. Which of them stand in FROM is the
// parser's to say.
func viewCandidates(text string, toks []token, view func(string) (string, bool)) []*TableRef {
	var out []*TableRef
	for i, t := range toks {
		if t.typ != sqlparser.ID || strings.Contains(t.val, ".") || (i > 0 && toks[i-1].typ == '.') || (i+1 < len(toks) && toks[i+1].typ == '.') {
			continue
		}
		name := strings.ToLower(t.val)
		if _, ok := view(name); ok {
			out = append(out, &TableRef{Parts: []string{name}, View: true, Span: [2]int{t.start, t.end}})
		}
	}
	return out
}

// parseQueryViews parses the query with the candidate view names as
// tables: first all of them, then only those that stood as a table in
// FROM and are not a WITH name of the statement.
func parseQueryViews(text string, toks []token, isProvider func(string) bool, cands []*TableRef) (*Query, error) {
	refs := mergeRefs(findTables(text, toks, isProvider), cands)
	edits := vitessEdits(toks, text)
	ast, err := parseSQL(withPlaceholders(text, refs, edits, toks[0].start, toks[len(toks)-1].end))
	if err != nil {
		return nil, err
	}
	inFrom, withs := map[int]bool{}, map[string]bool{}
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		switch n := node.(type) {
		case *sqlparser.AliasedTableExpr:
			if tn, ok := n.Expr.(sqlparser.TableName); ok && tn.DbQualifier.IsEmpty() {
				if _, idx, ok := parsePlaceholder(tn.Name.String()); ok {
					inFrom[idx] = true
				}
			}
		case *sqlparser.CommonTableExpr:
			withs[qualName(n.As.String())] = true
		}
		return true, nil
	}, ast)
	var kept []*TableRef
	for _, r := range refs {
		if r.View && inFrom[r.Index] && !withs[r.Parts[0]] {
			kept = append(kept, &TableRef{Parts: r.Parts, View: true, Span: r.Span})
		}
	}
	if len(kept) == 0 {
		return nil, nil
	}
	return parseQueryWith(text, toks, isProvider, kept)
}

// mergeRefs merges two lists of table occurrences in text order and
// numbers them again.
func mergeRefs(a, b []*TableRef) []*TableRef {
	out := append(append([]*TableRef(nil), a...), b...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span[0] < out[j].Span[0] })
	for i, r := range out {
		r.Index = i
	}
	return out
}

// A pushed condition: the view's output column and the literals.
type pushed struct {
	column string
	op     Op
	raw    []string
}

// pushable are the literal WHERE conditions of the view occurrence r's
// scope on one of its columns: qualified with its name, or unqualified
// where it is the scope's only FROM item.
func pushable(q *Query, r *TableRef) []pushed {
	var out []pushed
	s := r.Scope
	for _, c := range s.Conjuncts {
		if c.InOn || (c.Op != OpEq && c.Op != OpIn) || len(c.Raw) != len(c.Values) || len(c.Raw) == 0 {
			continue
		}
		if c.Qualifier != "" && c.Qualifier != strings.ToLower(r.RefName()) {
			continue
		}
		if c.Qualifier == "" && (len(s.Names) != 1 || len(s.Tables) != 1) {
			continue
		}
		if resolveQualifier(s, strings.ToLower(r.RefName())) != r {
			continue
		}
		out = append(out, pushed{column: c.Column, op: c.Op, raw: c.Raw})
	}
	return out
}

// pushDown adds the conditions to the view's query, on the columns it
// passes through unchanged; body is returned as it is when it is not a
// plain SELECT or has none of the columns.
func pushDown(body string, isProvider func(string) bool, conds []pushed) string {
	if len(conds) == 0 {
		return body
	}
	toks := code(mustTokens(body))
	if len(toks) == 0 {
		return body
	}
	q, err := parseQuery(body, toks, isProvider)
	if err != nil {
		return body
	}
	sel, ok := q.AST.(*sqlparser.Select)
	if !ok || len(sel.GroupBy) > 0 || sel.Having != nil || sel.Limit != nil || aggregates(sel) {
		return body
	}
	from := len(q.Root.Names)
	cols := map[string]string{} // output column -> the SQL of its source column
	for _, se := range sel.SelectExprs {
		switch e := se.(type) {
		case *sqlparser.AliasedExpr:
			cn, ok := e.Expr.(*sqlparser.ColName)
			if !ok || !cn.Qualifier.DbQualifier.IsEmpty() {
				continue
			}
			out := colOf(cn)
			if !e.As.IsEmpty() {
				out = strings.ToLower(e.As.String())
			}
			src := backquote(cn.Name.String())
			if ql := cn.Qualifier.Name.String(); ql != "" {
				if _, _, ph := parsePlaceholder(ql); ph {
					continue
				}
				src = backquote(ql) + "." + src
			}
			if _, dup := cols[out]; dup {
				cols[out] = "" // two columns of one name: neither
				continue
			}
			cols[out] = src
		case *sqlparser.StarExpr:
			cols["*"] = "*"
			if !e.TableName.IsEmpty() {
				if _, _, ph := parsePlaceholder(e.TableName.Name.String()); ph {
					continue
				}
				cols["*"] = backquote(e.TableName.Name.String()) + "."
			}
		}
	}
	var terms []string
	for _, c := range conds {
		src, ok := cols[c.column]
		if !ok {
			switch star := cols["*"]; {
			case star == "*" && from == 1:
				src = backquote(c.column)
			case star != "" && star != "*":
				src = star + backquote(c.column)
			}
		}
		if src == "" {
			continue
		}
		if c.op == OpIn {
			terms = append(terms, src+" IN ("+strings.Join(c.raw, ", ")+")")
		} else {
			terms = append(terms, src+" = "+c.raw[0])
		}
	}
	if len(terms) == 0 {
		return body
	}
	add := strings.Join(terms, " AND ")
	// The top-level WHERE's expression ends where ORDER BY begins, or at
	// the end (no GROUP BY, HAVING or LIMIT here).
	depth, where, end := 0, -1, len(toks)
	for i, t := range toks {
		switch t.typ {
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth != 0 || !t.isWord(body) {
			continue
		}
		switch strings.ToLower(t.raw(body)) {
		case "where":
			if where < 0 {
				where = i
			}
		case "order", "window":
			if end == len(toks) {
				end = i
			}
		}
	}
	endPos := toks[len(toks)-1].end
	if end < len(toks) {
		endPos = toks[end].start
	}
	if where >= 0 && where+1 < end {
		a, z := toks[where+1].start, toks[end-1].end
		return body[:a] + "(" + body[a:z] + ") AND " + add + body[z:]
	}
	return strings.TrimRight(body[:endPos], " \t\r\n") + " WHERE " + add + " " + body[endPos:]
}

// aggregates reports whether the SELECT's own expressions call an
// aggregate or a window function (not inside a subquery).
func aggregates(sel *sqlparser.Select) bool {
	agg, window := selectCalls(sel)
	return agg || window
}

// backquote writes a name as an identifier both grammars read alike
// (double quotes are a string to the parser).
func backquote(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// ViewColumn is one entry of a view's select list: Name is the column it
// makes ("*" for all of a table's); Table (provider.service.resource
// parts) and Column are the provider table column it passes through,
// when it is one.
type ViewColumn struct {
	Name   string
	Table  []string
	Column string
}

// ViewColumns reads a view's select list (its query with views already
// expanded), for DESCRIBE.
func ViewColumns(body string, isProvider func(string) bool) ([]ViewColumn, error) {
	toks := code(mustTokens(body))
	q, err := parseQuery(body, toks, isProvider)
	if err != nil {
		return nil, err
	}
	sel, ok := q.AST.(*sqlparser.Select)
	if !ok {
		return nil, nil
	}
	table := func(qual string) []string {
		if qual == "" {
			if len(q.Root.Tables) == 1 && len(q.Root.Names) == 1 {
				return q.Root.Tables[0].Parts[:3]
			}
			return nil
		}
		if t := resolveQualifier(q.Root, qual); t != nil {
			return t.Parts[:3]
		}
		return nil
	}
	var out []ViewColumn
	for _, se := range sel.SelectExprs {
		switch e := se.(type) {
		case *sqlparser.AliasedExpr:
			vc := ViewColumn{Name: strings.ToLower(e.As.String())}
			if cn, ok := e.Expr.(*sqlparser.ColName); ok && cn.Qualifier.DbQualifier.IsEmpty() {
				if vc.Name == "" {
					vc.Name = colOf(cn)
				}
				vc.Table, vc.Column = table(qualOf(cn)), colOf(cn)
			}
			if vc.Name == "" {
				vc.Name = unplaceholder(sqlparser.String(e.Expr))
			}
			out = append(out, vc)
		case *sqlparser.StarExpr:
			vc := ViewColumn{Name: "*"}
			if e.TableName.IsEmpty() {
				vc.Table = table("")
			} else {
				vc.Table = table(qualOfTable(e.TableName))
			}
			out = append(out, vc)
		}
	}
	return out, nil
}
