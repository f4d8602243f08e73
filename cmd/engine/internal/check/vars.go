package check

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// placeholder is {{name}} (spaces allowed inside the braces).
var placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// ParseVarFlags reads --var NAME=VALUE flags.
func ParseVarFlags(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		name, value, ok := strings.Cut(f, "=")
		name = strings.TrimSpace(name)
		if !ok || !varName.MatchString(name) {
			return nil, fmt.Errorf("--var %q: expected NAME=VALUE, e.g. --var org=myorg", f)
		}
		out[name] = value
	}
	return out, nil
}

// SQLString quotes s as a SQL string literal (” doubles a quote).
func SQLString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Resolve applies command-line variables over the file's and substitutes
// every {{name}} in the controls' SQL. A value is only ever inserted as a
// quoted SQL string literal (a list as 'a', 'b', for IN (...)), so a value
// cannot change the statement's structure. A --var for a list variable is
// split on commas.
func (f *File) Resolve(cli map[string]string) []Problem {
	var ps []Problem
	vals := map[string]*Var{}
	for name, v := range f.Vars {
		vals[name] = v
	}
	names := make([]string, 0, len(cli))
	for name := range cli {
		names = append(names, name)
	}
	sort.Strings(names)
	used := map[string]bool{}
	for _, c := range f.Controls {
		for _, m := range placeholder.FindAllStringSubmatch(c.RawSQL, -1) {
			used[m[1]] = true
		}
	}
	for _, name := range names {
		v, declared := vals[name]
		if !declared && !used[name] {
			ps = append(ps, Problem{File: f.Name, Message: fmt.Sprintf("--var %s: the file neither declares nor uses a variable %s", name, name)})
			continue
		}
		nv := &Var{Name: name, Set: true}
		if declared {
			nv.Line, nv.List = v.Line, v.List
		}
		if nv.List {
			for _, s := range strings.Split(cli[name], ",") {
				if s = strings.TrimSpace(s); s != "" {
					nv.Values = append(nv.Values, s)
				}
			}
			nv.Set = len(nv.Values) > 0
		} else {
			nv.Values = []string{cli[name]}
		}
		vals[name] = nv
	}
	for _, v := range vals {
		for _, s := range v.Values {
			if strings.ContainsAny(s, "\r\n\x00") {
				ps = append(ps, Problem{File: f.Name, Line: v.Line, Message: fmt.Sprintf("variable %s: values must be one line", v.Name)})
			}
		}
	}
	for _, c := range f.Controls {
		c.SQL = c.RawSQL
		if c.RawSQL == "" {
			continue
		}
		var missing []string
		c.SQL = placeholder.ReplaceAllStringFunc(c.RawSQL, func(m string) string {
			name := placeholder.FindStringSubmatch(m)[1]
			v := vals[name]
			if v == nil || !v.Set {
				if !contains(missing, name) {
					missing = append(missing, name)
				}
				return m
			}
			q := make([]string, len(v.Values))
			for i, s := range v.Values {
				q[i] = SQLString(s)
			}
			return strings.Join(q, ", ")
		})
		for _, name := range missing {
			msg := fmt.Sprintf("variable %s has no value: pass --var %s=VALUE", name, name)
			if _, declared := f.Vars[name]; !declared {
				msg = fmt.Sprintf("variable %s is not declared: add it under vars: or pass --var %s=VALUE", name, name)
			}
			ps = append(ps, Problem{File: f.Name, Line: c.SQLLine, Control: c.ID, Message: msg})
		}
		for _, loc := range placeholder.FindAllStringIndex(c.RawSQL, -1) {
			before, after := c.RawSQL[:loc[0]], c.RawSQL[loc[1]:]
			if strings.HasSuffix(before, "'") || strings.HasPrefix(after, "'") || strings.HasSuffix(before, `"`) || strings.HasPrefix(after, `"`) {
				ps = append(ps, Problem{File: f.Name, Line: c.SQLLine, Control: c.ID,
					Message: fmt.Sprintf("write %s without quotes: a variable is substituted as a quoted SQL string", c.RawSQL[loc[0]:loc[1]])})
				break
			}
		}
	}
	return ps
}
