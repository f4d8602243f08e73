package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

// checkColumns refuses, before any request, a column reference that can
// only mean this scan's table (see sqlfront.TableRef.ColumnRefs) when the
// chosen method does not produce it: its rows hold the method's response
// columns, the bound parameters and, for non-object items, "value".
func checkColumns(s *Scan, cat Catalog) error {
	known := map[string]bool{}
	var names []string
	add := func(n string) {
		if l := strings.ToLower(n); !known[l] {
			known[l] = true
			names = append(names, n)
		}
	}
	for _, c := range s.Method.Columns {
		add(c.Name)
	}
	for _, p := range s.ParamColumns {
		add(p.Name)
	}
	if s.ValueColumn() {
		add("value")
	}
	if s.AnsweredColumn() {
		add(AnsweredName)
	}
	for _, b := range s.Bindings {
		add(b.Param.Name)
	}
	keys := map[string]bool{} // every parameter of the table's methods
	var keyNames []string
	for _, m := range s.Resource.Methods {
		for _, p := range m.Params {
			if l := strings.ToLower(p.Name); !keys[l] {
				keys[l] = true
				keyNames = append(keyNames, p.Name)
			}
		}
	}
	for _, ref := range s.Ref.ColumnRefs {
		if known[ref.Name] {
			continue
		}
		name := s.Ref.Name()
		if p := s.Method.Param(ref.Name); p != nil {
			msg := fmt.Sprintf("%s%s is a parameter of the API method %s, not a column of its rows, and this query does not bind it; bind it at the top level of WHERE (%s = '...' or %s IN (...)) or leave it out",
				writtenPrefix(ref), ref.Name, s.Method.Name, sqlfront.Ident(p.Name), sqlfront.Ident(p.Name))
			if c := renamedColumn(s.Method, ref.Name); c != nil {
				msg += fmt.Sprintf("; the rows' property %s is the column %s (renamed: its name differs from the parameter %s only in case)", c.Key(), sqlfront.Ident(c.Name), p.Name)
			}
			msg += notBinding(s, ref, known, keys)
			return errorf(name, "%s", msg)
		}
		m := keyOfOtherMethod(s, ref.Name)
		// A key the rows have as a renamed column (sid_2 beside the key
		// Sid) is more likely the column: the message below names both.
		if m != nil && renamedColumn(s.Method, ref.Name) == nil && slices.Contains(unbound(s, m), m.Param(ref.Name).Name) {
			return errorf(name, "%s", unboundKey(s, ref, m, known, keys))
		}
		msg := fmt.Sprintf("no such column: %s: the rows of %s (method %s) have no column %s", ref.Written, name, s.Method.Name, ref.Name)
		if c := renamedColumn(s.Method, ref.Name); c != nil {
			msg += fmt.Sprintf("; the rows' property %s is the column %s", c.Key(), sqlfront.Ident(c.Name))
		} else if m != nil {
			// a key of another method: its advice below says what to bind
		} else if near := nearestNames(ref.Name, names, keyNames, known); len(near) > 0 {
			msg += "; nearest: " + strings.Join(near, ", ")
		}
		all := append([]string(nil), names...)
		for _, p := range s.Method.Params {
			all = append(all, p.Name)
		}
		if h := hyphenated(ref.Name, all); h != "" {
			msg += fmt.Sprintf("; %s must be written in backticks, `%s` (without them it reads as a subtraction)", h, h)
		}
		if key, ok := quoteSlip(s, ref.Name, known, keys); ok {
			msg += fmt.Sprintf("; if %s is a value, write it in single quotes: %s = '%s'", ref.Written, key, ref.Written)
		}
		if m != nil {
			msg += fmt.Sprintf("; %s is a WHERE key of method %s (GET %s), which needs %s: bind %s too", ref.Name, m.Name, m.Path, needs(m), strings.Join(unbound(s, m), ", "))
		} else if others := otherMethods(s, ref.Name); len(others) > 0 {
			msg += fmt.Sprintf("; %s is a column of method %s, which needs %s", ref.Name, others[0].Name, needs(others[0]))
		} else if f, ok := cat.(ColumnFinder); ok {
			if tables := f.TablesWithColumn(s.Resource.Provider, s.Resource.Service, ref.Name); len(tables) > 0 {
				if len(tables) > 4 {
					tables = append(tables[:4], "...")
				}
				msg += fmt.Sprintf("; %s is a column of %s", ref.Name, strings.Join(tables, ", "))
			}
		}
		msg += ". DESCRIBE " + name + " lists its columns and WHERE keys"
		return errorf(name, "%s", msg)
	}
	return nil
}

// unboundKey words the refusal of a reference to a WHERE key of another
// method of the table that the query does not bind: the planner then
// chose a method without it, whose rows cannot have it as a column. It
// says that the key exists and how to bind it (see notBinding).
func unboundKey(s *Scan, ref sqlfront.ColumnRef, m *providers.Method, known, keys map[string]bool) string {
	param := m.Param(ref.Name)
	p := sqlfront.Ident(param.Name)
	lit, lits := "'...'", "'...', ..."
	if param.Type == providers.TypeInteger {
		lit, lits = "1", "1, 2, ..."
	}
	msg := fmt.Sprintf("%s%s is a WHERE key of %s (method %s, GET %s), not a column of its rows, and this query does not bind it, so it reads method %s, whose rows have no column %s; bind it at the top level of WHERE with a literal: %s = %s or %s IN (%s)",
		writtenPrefix(ref), ref.Name, s.Ref.Name(), m.Name, m.Path, s.Method.Name, ref.Name, p, lit, p, lits)
	var also []string
	for _, r := range unbound(s, m) {
		if !strings.EqualFold(r, ref.Name) {
			also = append(also, r)
		}
	}
	if len(also) > 0 {
		msg += fmt.Sprintf("; %s also needs %s", m.Name, strings.Join(also, ", "))
	}
	msg += notBinding(s, ref, known, keys)
	var near []string // columns whose name holds the key's or is held in it (number for issue_number)
	for _, c := range s.Method.Columns {
		a, b := strings.ToLower(c.Name), ref.Name
		if len(a) > len(b) {
			a, b = b, a
		}
		if len(a) >= 4 && strings.Contains(b, a) && len(near) < 3 {
			near = append(near, c.Name)
		}
	}
	if len(near) > 0 {
		for i, n := range near {
			near[i] = sqlfront.Ident(n)
		}
		msg += "; to compare the rows' values instead, the nearest columns of " + s.Method.Name + " are " + strings.Join(near, ", ")
	}
	return msg + ". DESCRIBE " + s.Ref.Name() + " lists its columns and WHERE keys"
}

// writtenPrefix is "r.org: " for a qualified reference, "" for one
// written as its bare name (the message names it next).
func writtenPrefix(ref sqlfront.ColumnRef) string {
	if strings.EqualFold(ref.Written, ref.Name) {
		return ""
	}
	return ref.Written + ": "
}

// notBinding says why a key the query mentions is not bound: the WHERE
// term that names it (when the front end could render it, Filter.Term)
// is not one that binds, or it compares the key with a name that is no
// column, most likely a value whose quotes were forgotten (org = acme).
func notBinding(s *Scan, ref sqlfront.ColumnRef, known, keys map[string]bool) string {
	for _, f := range s.Ref.Filters {
		l, op, r, ok := comparison(f.Term)
		if !ok || op != "=" {
			continue
		}
		if isName(l, ref.Name) && bareName(r) && !known[strings.ToLower(r)] && !keys[strings.ToLower(r)] {
			return fmt.Sprintf("; %s is not a column either: for the text, write %s = '%s'", r, l, r)
		}
	}
	why := "OR, LIKE, comparisons other than =, functions, expressions, scalar subqueries and NULL do not bind a key"
	for _, f := range s.Ref.Filters {
		if mentions(f.Term, ref.Name) {
			return fmt.Sprintf("; the term %s does not bind it: %s", f.Term, why)
		}
	}
	return "; " + why
}

// quoteSlip reports whether a WHERE term compares name, which is no
// column, with a column or key of the table (acme in org = acme), and
// returns that other side as written.
func quoteSlip(s *Scan, name string, known, keys map[string]bool) (string, bool) {
	ours := func(w string) bool {
		if !nameRE.MatchString(w) {
			return false
		}
		if i := strings.LastIndexByte(w, '.'); i >= 0 {
			w = w[i+1:]
		}
		w = strings.ToLower(strings.Trim(w, "`"))
		return known[w] || keys[w]
	}
	for _, f := range s.Ref.Filters {
		l, op, r, ok := comparison(f.Term)
		if !ok || op != "=" {
			continue
		}
		if isName(r, name) && bareName(r) && ours(l) {
			return l, true
		}
		if isName(l, name) && bareName(l) && ours(r) {
			return r, true
		}
	}
	return "", false
}

// comparison splits a rendered term "a op b" whose sides are single
// words.
func comparison(term string) (l, op, r string, ok bool) {
	f := strings.Fields(term)
	if len(f) != 3 {
		return "", "", "", false
	}
	return f[0], f[1], f[2], true
}

var (
	bareNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	nameRE     = regexp.MustCompile("^[A-Za-z_`][A-Za-z0-9_.`-]*$")
	wordRE     = regexp.MustCompile("[A-Za-z0-9_.`-]+")
)

// bareName reports whether w is an unqualified identifier (not NULL,
// TRUE or FALSE, which the parser prints alike).
func bareName(w string) bool {
	switch strings.ToLower(w) {
	case "null", "true", "false":
		return false
	}
	return bareNameRE.MatchString(w)
}

// isName reports whether the written w (perhaps qualified) names the
// column name.
func isName(w, name string) bool {
	if i := strings.LastIndexByte(w, '.'); i >= 0 {
		w = w[i+1:]
	}
	return strings.EqualFold(strings.Trim(w, "`"), name)
}

// mentions reports whether a rendered term reads the column name
// outside its string literals.
func mentions(term, name string) bool {
	var b strings.Builder
	in := false
	for _, r := range term {
		switch {
		case r == '\'':
			in = !in
			b.WriteRune(' ')
		case in:
		default:
			b.WriteRune(r)
		}
	}
	for _, w := range wordRE.FindAllString(b.String(), -1) {
		if isName(w, name) {
			return true
		}
	}
	return false
}

// renamedColumn returns the column whose API name is name (ignoring
// case) but whose SQL name differs (sid read as sid_2 beside a parameter
// Sid), or nil.
func renamedColumn(m *providers.Method, name string) *providers.Column {
	for i := range m.Columns {
		if c := &m.Columns[i]; c.API != "" && strings.EqualFold(c.API, name) && !strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// hyphenated returns the name among names that the reference name
// begins when the parser split it at a hyphen (api of api-version), or "".
func hyphenated(name string, names []string) string {
	for _, n := range names {
		if i := strings.IndexAny(n, "-"); i > 0 && strings.EqualFold(n[:i], name) {
			return n
		}
	}
	return ""
}

// keyOfOtherMethod returns the table's other method that takes the name
// as a parameter and whose required parameters are not all bound (the
// query meant that method but left a key out, or wrote one that does not
// bind), the one with the fewest left out; or nil.
func keyOfOtherMethod(s *Scan, name string) *providers.Method {
	var best *providers.Method
	fewest := 0
	for _, m := range s.Resource.Methods {
		if m == s.Method || m.Param(name) == nil {
			continue
		}
		if n := len(unbound(s, m)); n > 0 && (best == nil || n < fewest) {
			best, fewest = m, n
		}
	}
	return best
}

// unbound lists m's required parameters that the query does not bind:
// no literal equality or IN, join equality or IN subquery at the top
// level of the table's WHERE or ON names it (the predicates node.collect
// reads; merely reading a key as a column does not bind it).
func unbound(s *Scan, m *providers.Method) []string {
	bound := map[string]bool{}
	me := strings.ToLower(s.Ref.RefName())
	others := map[string]bool{}
	for _, t := range s.Ref.Scope.Tables {
		if t != s.Ref {
			others[strings.ToLower(t.RefName())] = true
		}
	}
	for _, c := range s.Ref.Scope.Conjuncts {
		switch c.Op {
		case sqlfront.OpEq, sqlfront.OpIn, sqlfront.OpSubquery:
			if c.Qualifier == "" || c.Qualifier == me {
				bound[c.Column] = true
			}
		case sqlfront.OpCol, sqlfront.OpExpr:
			if c.Qualifier == me && others[c.RefQualifier] {
				bound[c.Column] = true
			}
			if c.Op == sqlfront.OpCol && c.RefQualifier == me && others[c.Qualifier] {
				bound[c.RefColumn] = true
			}
		}
	}
	var out []string
	for _, r := range m.Required() {
		if !bound[strings.ToLower(r)] {
			out = append(out, r)
		}
	}
	return out
}

// otherMethods lists the table's other methods whose rows have the column.
func otherMethods(s *Scan, col string) []*providers.Method {
	var out []*providers.Method
	for _, m := range s.Resource.Methods {
		if m != s.Method && m.Column(col) != nil {
			out = append(out, m)
		}
	}
	return out
}

func needs(m *providers.Method) string {
	req := m.Required()
	if len(req) == 0 {
		return "no WHERE keys"
	}
	return "WHERE " + strings.Join(req, ", ")
}

// nearestNames are the names to suggest for an unknown column: WHERE
// keys of the table's methods that are not columns here and are one typo
// away (orgg: org), then the nearest columns; three at most, keys marked.
func nearestNames(name string, columns, keys []string, known map[string]bool) []string {
	var out []string
	lower := strings.ToLower(name)
	for _, k := range providers.Nearest(name, keys, func(c string, d int) (int, bool) {
		return d, d <= max(1, len(lower)/4) && !known[strings.ToLower(c)] && !strings.EqualFold(c, name)
	}) {
		if len(out) < 3 {
			out = append(out, sqlfront.Ident(k.Name)+" (a WHERE key)")
		}
	}
	for _, c := range nearest(name, columns, 3-len(out)) {
		out = append(out, sqlfront.Ident(c))
	}
	return out
}

// nearest returns up to n candidates closest to name by edit distance
// (ties by name), leaving out those too far to be a typo; a candidate
// that holds the name, or its words (providers.SharesWords: stars for
// stargazers_count), ranks as two edits away.
func nearest(name string, candidates []string, n int) []string {
	lower := strings.ToLower(name)
	ranked := providers.Nearest(name, candidates, func(c string, d int) (int, bool) {
		if providers.SharesWords(name, c) {
			d = min(d, 2)
		}
		if c = strings.ToLower(c); strings.Contains(c, lower) || strings.Contains(lower, c) {
			d = min(d, 2)
		}
		return d, d <= max(2, len(lower)/2)
	})
	var out []string
	for i := 0; i < len(ranked) && i < n; i++ {
		out = append(out, ranked[i].Name)
	}
	return out
}

// checkLiteral refuses binding a parameter from a literal that the API
// and SQLite would read differently (the predicate may also run in
// SQLite, or be shown as what was asked): only single-quoted strings and
// plain integers bind, plus TRUE/FALSE for boolean parameters.
func checkLiteral(s *Scan, p providers.Param, c *sqlfront.Conjunct, consumed bool) error {
	for i, raw := range c.Raw {
		if raw == "" {
			continue
		}
		v := c.Values[i]
		pred := fmt.Sprintf("`%s = %s`", c.Column, raw)
		if c.Op == sqlfront.OpIn {
			pred = fmt.Sprintf("`%s IN (... %s ...)`", c.Column, raw)
		}
		switch {
		case raw[0] == '\'':
			if p.Type == providers.TypeBoolean && !consumed && ParamBool(v) == "" {
				return errorf(s.Ref.Name(), "%s: %s is a boolean (0/1 in SQLite); write %s = TRUE or %s = FALSE", pred, p.Name, p.Name, p.Name)
			}
			if p.Type == providers.TypeBoolean && !consumed {
				return errorf(s.Ref.Name(), "%s: %s is a boolean, stored as 0/1, so SQLite would compare it with the text %s; write %s = %s", pred, p.Name, raw, p.Name, strings.ToUpper(ParamBool(v)))
			}
		case raw[0] == '"':
			return errorf(s.Ref.Name(), "%s: double quotes name a column in SQLite; write '%s'", pred, strings.ReplaceAll(v, "'", "''"))
		case strings.EqualFold(raw, "true") || strings.EqualFold(raw, "false"):
			if p.Type != providers.TypeBoolean {
				return errorf(s.Ref.Name(), "%s: %s is the number %d in SQLite; write '%s' for the text", pred, strings.ToUpper(raw), map[bool]int{true: 1, false: 0}[strings.EqualFold(raw, "true")], strings.ToLower(raw))
			}
		default: // a number
			n, err := strconv.ParseInt(raw, 10, 64)
			if err != nil || strconv.FormatInt(n, 10) != raw {
				return errorf(s.Ref.Name(), "%s: SQLite reads %s as a number, whose text is not %s; write the value as a string, '%s'", pred, raw, raw, raw)
			}
		}
	}
	return nil
}

// ParamBool is "true" or "false" for the texts a boolean parameter
// accepts, else "".
func ParamBool(v string) string {
	switch strings.ToLower(v) {
	case "true", "1":
		return "true"
	case "false", "0":
		return "false"
	}
	return ""
}

// checkBoolLiterals refuses comparing a BOOLEAN column of the scan's rows
// with a string (`private = 'true'`, `private IN ('false')`): SQLite holds
// booleans as 1 and 0 (results show them as true and false), so the text
// never matches and the query would return no rows without a word. The
// error gives the form to write. Bound boolean parameters are
// checkLiteral's.
func checkBoolLiterals(s *Scan) error {
	me := strings.ToLower(s.Ref.RefName())
	mine := map[string]bool{}
	for _, ref := range s.Ref.ColumnRefs {
		mine[ref.Name] = true
	}
	for _, c := range s.Ref.Scope.Conjuncts {
		if c.Op != sqlfront.OpEq && c.Op != sqlfront.OpIn {
			continue
		}
		if c.Qualifier != me && (c.Qualifier != "" || !mine[c.Column]) {
			continue
		}
		if s.Method.Param(c.Column) != nil {
			continue
		}
		col := s.Method.Column(c.Column)
		if col == nil || col.Type != providers.TypeBoolean {
			continue
		}
		for i, raw := range c.Raw {
			if raw == "" || raw[0] != '\'' {
				continue
			}
			pred := fmt.Sprintf("`%s = %s`", c.Column, raw)
			if c.Op == sqlfront.OpIn {
				pred = fmt.Sprintf("`%s IN (... %s ...)`", c.Column, raw)
			}
			want := "TRUE"
			if b := ParamBool(c.Values[i]); b != "" {
				want = strings.ToUpper(b)
			}
			form := fmt.Sprintf("%s = %s", col.Name, want)
			if want == "TRUE" {
				form += fmt.Sprintf(" (or %s = 1, or just WHERE %s)", col.Name, col.Name)
			} else {
				form += fmt.Sprintf(" (or %s = 0, or WHERE NOT %s)", col.Name, col.Name)
			}
			return errorf(s.Ref.Name(), "%s: %s is a BOOLEAN column, 1 or 0 in SQL (results show true or false), so it never equals the text %s and the query would match no rows; write %s",
				pred, col.Name, raw, form)
		}
	}
	return nil
}
