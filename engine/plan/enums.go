package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

// checkEnum refuses a literal binding of p (the predicate c) to a value
// the description does not allow (providers.Param.Enum), before any
// request: the API would answer an error, or, as GitHub often does,
// ignore the value and answer every row. Values compare exactly, as the
// API reads them.
func checkEnum(s *Scan, p providers.Param, c *sqlfront.Conjunct) error {
	if len(p.Enum) == 0 {
		return nil
	}
	for i, v := range c.Values {
		if p.Allows(v) {
			continue
		}
		lit := "'" + strings.ReplaceAll(v, "'", "''") + "'"
		if i < len(c.Raw) && c.Raw[i] != "" {
			lit = c.Raw[i]
		}
		pred := fmt.Sprintf("%s = %s", c.Column, lit)
		if c.Op == sqlfront.OpIn {
			pred = fmt.Sprintf("%s IN (... %s ...)", c.Column, lit)
		}
		hint := ""
		for _, e := range p.Enum {
			if strings.EqualFold(e, v) {
				hint = fmt.Sprintf(" (values are compared exactly: write '%s')", e)
				break
			}
		}
		def := ""
		if p.Default != "" && p.Allows(p.Default) {
			def = fmt.Sprintf("; unbound, the API reads %s = '%s'", p.Name, p.Default)
		}
		return errorf(s.Ref.Name(), "%s: %s: %s takes one of %s%s%s", s.Ref.Name(), pred, p.Name, strings.Join(p.Enum, ", "), hint, def)
	}
	return nil
}

// allValues are the enum values that mean "no filter": a default other
// than these answers only part of the rows.
var allValues = []string{"all", "any"}

// defaultNotes says, for each key of the scan's method that the query
// leaves unbound while the API then filters by its default (a declared
// default among the enum's values, other than "all"), and whose name is
// a column of the rows the query reads, that only the rows with the
// default value were read (issues: state = 'open'). Nothing otherwise.
func (s *Scan) defaultNotes() []string {
	if s.NoRequest != "" {
		return nil
	}
	var out []string
	for _, p := range s.Method.Params {
		if p.Required || p.Default == "" || len(p.Enum) < 2 || !p.Allows(p.Default) || slices.Contains(allValues, strings.ToLower(p.Default)) {
			continue
		}
		if s.binds(p.Name) || s.Method.Column(p.Name) == nil || !s.Ref.Reads(strings.ToLower(p.Name)) {
			continue
		}
		wider := ""
		for _, e := range p.Enum {
			if slices.Contains(allValues, strings.ToLower(e)) {
				wider = fmt.Sprintf("%s = '%s' (or IN (...))", p.Name, e)
				break
			}
		}
		if wider == "" {
			wider = p.Name + " IN (" + strings.Join(quoteAll(p.Enum), ", ") + ")"
		}
		out = append(out, fmt.Sprintf("%s: %s is not bound: the API answers with its default, %s = '%s', so only those rows are read; bind %s for the others", s.Ref, p.Name, p.Name, p.Default, wider))
	}
	return out
}

// binds reports whether the scan binds the parameter (a literal, another
// table's rows or a subquery).
func (s *Scan) binds(name string) bool {
	for _, b := range s.Bindings {
		if b.Param.Name == name {
			return true
		}
	}
	for _, d := range s.Deps {
		if d.Param.Name == name {
			return true
		}
	}
	for _, sb := range s.Subs {
		if sb.Param.Name == name {
			return true
		}
	}
	return false
}
