package check

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/enginehq/engine/engine/sqlfront"
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
		if strings.TrimSpace(value) == "" {
			// said once, not once per control that reads it
			return nil, fmt.Errorf("--var %s= is empty: give it a value (in CI, the variable that sets it may be unset)", name)
		}
		out[name] = value
	}
	return out, nil
}

// SQLString quotes s as a SQL string literal (a quote inside is doubled).
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
		c.keepRawText()
		for _, text := range append([]string{c.RawSQL}, c.rawText[:]...) {
			for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
				used[m[1]] = true
			}
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
	// A variable without a value is one problem, however many controls
	// use it: at its declaration (or its first use, when undeclared), with
	// the controls that use it.
	type unset struct {
		name     string
		line     int
		controls []string
	}
	var missingVars []*unset
	byName := map[string]*unset{}
	for _, c := range f.Controls {
		c.substituteText(vals)
		c.SQL = c.RawSQL
		c.varProblem = false
		if c.RawSQL == "" {
			continue
		}
		var missing []string
		var out strings.Builder
		var spans []valueSpan
		pos := 0
		for _, loc := range placeholder.FindAllStringSubmatchIndex(c.RawSQL, -1) {
			out.WriteString(c.RawSQL[pos:loc[0]])
			pos = loc[1]
			name := c.RawSQL[loc[2]:loc[3]]
			v := vals[name]
			if v == nil || !v.Set {
				if !contains(missing, name) {
					missing = append(missing, name)
				}
				out.WriteString(c.RawSQL[loc[0]:loc[1]])
				continue
			}
			q := make([]string, len(v.Values))
			for i, s := range v.Values {
				q[i] = SQLString(s)
			}
			start := out.Len()
			out.WriteString(strings.Join(q, ", "))
			spans = append(spans, valueSpan{name: name, start: start, end: out.Len(), n: len(q)})
		}
		out.WriteString(c.RawSQL[pos:])
		c.SQL = out.String()

		for _, name := range missing {
			u := byName[name]
			if u == nil {
				u = &unset{name: name, line: c.SQLLine}
				if v, declared := f.Vars[name]; declared && v.Line > 0 {
					u.line = v.Line
				}
				byName[name] = u
				missingVars = append(missingVars, u)
			}
			u.controls = append(u.controls, c.ID)
		}
		quoted := false
		for _, loc := range placeholder.FindAllStringIndex(c.RawSQL, -1) {
			before, after := c.RawSQL[:loc[0]], c.RawSQL[loc[1]:]
			if strings.HasSuffix(before, "'") || strings.HasPrefix(after, "'") || strings.HasSuffix(before, `"`) || strings.HasPrefix(after, `"`) {
				ps = append(ps, Problem{File: f.Name, Line: c.SQLLine, Control: c.ID,
					Message: fmt.Sprintf("write %s without quotes: a variable is substituted as a quoted SQL string", c.RawSQL[loc[0]:loc[1]])})
				quoted = true
				break
			}
		}
		c.varProblem = len(missing) > 0 || quoted
		if !c.varProblem {
			if msg := checkSpans(c.SQL, spans); msg != "" {
				ps = append(ps, Problem{File: f.Name, Line: c.SQLLine, Control: c.ID, Message: msg})
				c.varProblem = true
			}
		}
	}
	for _, u := range missingVars {
		msg := fmt.Sprintf("variable %s has no value: pass --var %s=VALUE", u.name, u.name)
		if _, declared := f.Vars[u.name]; !declared {
			msg = fmt.Sprintf("variable %s is not declared: add it under vars: or pass --var %s=VALUE", u.name, u.name)
		}
		p := Problem{File: f.Name, Line: u.line}
		if len(u.controls) == 1 {
			p.Control = u.controls[0]
		} else {
			msg += fmt.Sprintf(" (used by %d controls: %s)", len(u.controls), strings.Join(u.controls, ", "))
		}
		p.Message = msg
		ps = append(ps, p)
	}
	return ps
}

// valueSpan is where a variable's value (n quoted literals) landed in the
// substituted SQL.
type valueSpan struct {
	name       string
	start, end int
	n          int
}

// checkSpans tokenises the substituted statement and requires each value
// to be exactly its string literal tokens (a list: literals separated by
// commas), starting and ending on token boundaries. A placeholder inside
// a comment or a string literal fails this (the value would be part of
// another token, or could close it and add SQL of its own), so a value can
// never change the statement's structure.
func checkSpans(sql string, spans []valueSpan) string {
	if len(spans) == 0 {
		return ""
	}
	toks, err := sqlfront.Tokens(sql)
	if err != nil {
		// A value that cannot be read where it stands was put inside a
		// string or a comment: substitute a plain literal instead to name
		// the variable, rather than quote the tokenizer.
		if plain, pspans := plainValues(sql, spans); plain != sql {
			if ptoks, perr := sqlfront.Tokens(plain); perr == nil {
				if msg := misplaced(ptoks, pspans); msg != "" {
					return msg
				}
			}
		}
		return fmt.Sprintf("after substituting the variables the statement does not read: %v", err)
	}
	return misplaced(toks, spans)
}

// plainValues rewrites sql with every value replaced by the same number of
// 'v' literals, so that only where a placeholder stands decides whether
// the statement tokenises.
func plainValues(sql string, spans []valueSpan) (string, []valueSpan) {
	var b strings.Builder
	out := make([]valueSpan, len(spans))
	pos := 0
	for i, sp := range spans {
		b.WriteString(sql[pos:sp.start])
		start := b.Len()
		b.WriteString(strings.TrimSuffix(strings.Repeat("'v', ", sp.n), ", "))
		out[i] = valueSpan{name: sp.name, start: start, end: b.Len(), n: sp.n}
		pos = sp.end
	}
	b.WriteString(sql[pos:])
	return b.String(), out
}

// misplaced is the problem of the first value that is not exactly its
// string literal tokens, or "".
func misplaced(toks []sqlfront.Token, spans []valueSpan) string {
	for _, sp := range spans {
		var in []sqlfront.Token
		good := true
		for _, t := range toks {
			switch {
			case t.End <= sp.start || t.Start >= sp.end:
				continue
			case t.Start < sp.start || t.End > sp.end:
				good = false // a token straddles the value: comment or string
			default:
				in = append(in, t)
			}
		}
		if good && len(in) == 2*sp.n-1 && in[0].Start == sp.start && in[len(in)-1].End == sp.end {
			for i, t := range in {
				if (i%2 == 0) != t.String || (i%2 == 1 && t.Text != ",") {
					good = false
				}
			}
		} else {
			good = false
		}
		if !good {
			return fmt.Sprintf("variable %s: {{%s}} must stand where a value goes (e.g. WHERE org = {{%s}}), not inside a comment, a string or a name; its value must be substituted as exactly one quoted SQL string", sp.name, sp.name, sp.name)
		}
	}
	return ""
}

// keepRawText records the control's text fields as written, once.
func (c *Control) keepRawText() {
	if !c.rawKept {
		c.rawText, c.rawKept = [3]string{c.Title, c.Description, c.Remediation}, true
	}
}

// substituteText writes the values of the variables into the control's
// text fields (title, description, remediation) as plain text, a list as
// "a, b": the report then says which org a control was about. A variable
// without a value stays {{name}} there (the SQL's use reports it).
func (c *Control) substituteText(vals map[string]*Var) {
	c.keepRawText()
	out := make([]string, len(c.rawText))
	for i, text := range c.rawText {
		out[i] = placeholder.ReplaceAllStringFunc(text, func(m string) string {
			name := placeholder.FindStringSubmatch(m)[1]
			if v := vals[name]; v != nil && v.Set {
				return strings.Join(v.Values, ", ")
			}
			return m
		})
	}
	c.Title, c.Description, c.Remediation = out[0], out[1], out[2]
}
