package plan

import (
	"fmt"
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
	for _, ref := range s.Ref.ColumnRefs {
		if known[ref.Name] {
			continue
		}
		name := s.Ref.Name()
		if p := s.Method.Param(ref.Name); p != nil {
			msg := fmt.Sprintf("%s: %s is a parameter of the API method %s, not a column of its rows, and this query does not bind it; bind it at the top level of WHERE (%s = '...' or %s IN (...)) or leave it out",
				ref.Written, ref.Name, s.Method.Name, sqlfront.Ident(p.Name), sqlfront.Ident(p.Name))
			if c := renamedColumn(s.Method, ref.Name); c != nil {
				msg += fmt.Sprintf("; the rows' property %s is the column %s (renamed: its name differs from the parameter %s only in case)", c.Key(), sqlfront.Ident(c.Name), p.Name)
			}
			return errorf(name, "%s", msg)
		}
		msg := fmt.Sprintf("no such column: %s: the rows of %s (method %s) have no column %s", ref.Written, name, s.Method.Name, ref.Name)
		if c := renamedColumn(s.Method, ref.Name); c != nil {
			msg += fmt.Sprintf("; the rows' property %s is the column %s", c.Key(), sqlfront.Ident(c.Name))
		} else if near := nearest(ref.Name, names, 3); len(near) > 0 {
			for i, n := range near {
				near[i] = sqlfront.Ident(n)
			}
			msg += "; nearest: " + strings.Join(near, ", ")
		}
		all := append([]string(nil), names...)
		for _, p := range s.Method.Params {
			all = append(all, p.Name)
		}
		if h := hyphenated(ref.Name, all); h != "" {
			msg += fmt.Sprintf("; %s must be written in backticks, `%s` (without them it reads as a subtraction)", h, h)
		}
		if m := keyOfOtherMethod(s, ref.Name); m != nil {
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

// keyOfOtherMethod returns the table's first other method that takes the
// name as a parameter and whose required parameters are not all bound
// (the query meant that method but left a key out), or nil.
func keyOfOtherMethod(s *Scan, name string) *providers.Method {
	for _, m := range s.Resource.Methods {
		if m != s.Method && m.Param(name) != nil && len(unbound(s, m)) > 0 {
			return m
		}
	}
	return nil
}

// unbound lists m's required parameters that the query does not bind
// (neither as this scan's binding nor as a column reference).
func unbound(s *Scan, m *providers.Method) []string {
	bound := map[string]bool{}
	for _, ref := range s.Ref.ColumnRefs {
		bound[ref.Name] = true
	}
	var out []string
	for _, r := range m.Required() {
		if !bound[r] {
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

// nearest returns up to n candidates closest to name by edit distance
// (ties by name), leaving out those too far to be a typo.
func nearest(name string, candidates []string, n int) []string {
	lower := strings.ToLower(name)
	ranked := providers.Nearest(name, candidates, func(c string, d int) (int, bool) {
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
