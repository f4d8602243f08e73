package check

import (
	"context"
	"fmt"
	"strings"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/sqlfront"
)

// Preparer parses and plans statements without running them
// (*engine.Engine): the plan it makes is the one the statement runs.
type Preparer interface {
	Prepare(ctx context.Context, text string) (*engine.Prepared, error)
}

// Validate prepares every control's SQL (no requests are made) and
// reports each statement that would not run, at the line of its sql.
// Controls whose variables Resolve reported (unset, quoted, inside a
// string or a comment) are skipped: their SQL is not what the author
// meant, and its parse error would only repeat the problem. A control that prepares keeps its prepared statement, and Run
// runs exactly that one: what was validated is what runs, planned once.
func Validate(ctx context.Context, p Preparer, f *File) []Problem {
	var ps []Problem
	for _, c := range f.Controls {
		if c.SQL == "" || c.varProblem || placeholder.MatchString(c.SQL) {
			continue
		}
		st, err := p.Prepare(ctx, c.SQL)
		if err == nil && st.Kind() != sqlfront.KindSelect {
			ps = append(ps, Problem{File: f.Name, Line: c.SQLLine, Control: c.ID,
				Message: fmt.Sprintf("sql is a %s statement; a control must be a SELECT", st.Kind())})
			continue
		}
		if err == nil && st.SingleRow() {
			ps = append(ps, Problem{File: f.Name, Line: c.SQLLine, Control: c.ID, Message: singleRowMessage(c)})
			continue
		}
		if err == nil {
			// A table read with a method that needs no key while its
			// table has keyed ones reads the credentials' scope, not
			// one the control names: fail closed unless the control
			// names the method (a four-part name).
			notes := st.ScopeNotices()
			for _, n := range notes {
				ps = append(ps, Problem{File: f.Name, Line: sqlLine(c, n.Pos), Control: c.ID,
					Message: "sql: " + n.Text + "; a control must name the scope it reads"})
			}
			if len(notes) > 0 {
				continue
			}
		}
		if err == nil {
			c.prepared = st
		}
		if err != nil {
			e := engine.Classify(err)
			ps = append(ps, Problem{File: f.Name, Line: sqlErrorLine(c, e), Control: c.ID,
				Message: fmt.Sprintf("sql does not %s: %s", map[bool]string{true: "parse", false: "plan"}[e.Kind == engine.KindSQL], e.Error())})
		}
	}
	return ps
}

// singleRowMessage explains why a statement that always returns one row
// (an aggregate without GROUP BY) cannot be a control, and what to write.
func singleRowMessage(c *Control) string {
	verdict := "never passes"
	if c.Expect.Met(1) {
		verdict = "always passes"
	}
	return fmt.Sprintf("sql aggregates (count, sum, max, ...) without GROUP BY, so it returns exactly one row whatever the data, "+
		"and expect: %s, which judges the number of rows, %s; put the condition in HAVING and expect empty "+
		"(SELECT count(*) AS n FROM ... HAVING count(*) > 2: a row only when there are too many), "+
		"or select the offending rows themselves (SELECT login FROM ...) and compare their count (expect: count <= 2)",
		c.Expect, verdict)
}

// sqlErrorLine maps a syntax error's offset to a file line when the sql is
// a literal block (sql: |), whose lines are the file's lines.
func sqlErrorLine(c *Control, e *engine.Error) int { return sqlLine(c, e.Pos) }

// sqlLine is the file line of byte offset pos of the control's sql: its
// line in a literal block (sql: |), else the line of the sql key.
func sqlLine(c *Control, pos int) int {
	if !c.sqlLiteral || pos < 0 || pos > len(c.SQL) {
		return c.SQLLine
	}
	return c.SQLLine + 1 + strings.Count(c.SQL[:pos], "\n")
}

// Select returns the controls named by only (all when only is empty), in
// file order, and a problem for each name that matches no control.
func Select(f *File, only []string) ([]*Control, []Problem) {
	if len(only) == 0 {
		return f.Controls, nil
	}
	want := map[string]bool{}
	for _, id := range only {
		if id = strings.TrimSpace(id); id != "" {
			want[id] = true
		}
	}
	var out []*Control
	for _, c := range f.Controls {
		if want[c.ID] {
			out = append(out, c)
			delete(want, c.ID)
		}
	}
	var ps []Problem
	for _, id := range only {
		if id = strings.TrimSpace(id); want[id] {
			ps = append(ps, Problem{File: f.Name, Message: fmt.Sprintf("--only %s: no control has this id%s", id, didYouMean(f, id))})
			delete(want, id)
		}
	}
	return out, ps
}
