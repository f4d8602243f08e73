package check

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/enginehq/engine/engine/result"
)

// Waived is the status of a control that failed only on rows its waivers
// cover: it does not fail the run, and every report says which rows were
// waived and why. A waiver never turns an error into anything else.
const Waived Status = "waived"

// Waiver suppresses the rows of one control that match it (every row when
// it has no match), with a reason, until it expires.
type Waiver struct {
	Control string
	// Match is column -> value: a row matches when each column's value,
	// as text, equals the value.
	Match   map[string]string
	Reason  string
	Expires time.Time // zero: never
	Line    int
}

// Waivers are the waivers of a --waivers file.
type Waivers struct {
	File string
	List []*Waiver
}

var waiverKeys = []string{"control", "match", "reason", "expires"}

// LoadWaivers reads a waivers file:
//
//	waivers:
//	  - control: repo-branch-protected
//	    match: {repo: legacy-site}
//	    reason: archived next quarter (TICKET-123)
//	    expires: 2027-03-31
//
// Every waiver needs a control and a reason; expires is a date
// (YYYY-MM-DD, the end of that day UTC) or an RFC 3339 time.
func LoadWaivers(path string) (*Waivers, []Problem) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, []Problem{{File: path, Message: "the waivers file cannot be read: " + err.Error()}}
	}
	l := &loader{file: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, []Problem{yamlProblem(path, err)}
	}
	w := &Waivers{File: path}
	if len(doc.Content) == 0 {
		l.add(nil, "", "the waivers file is empty; expected a top-level waivers: list")
		return w, l.problems
	}
	top := l.mapping(doc.Content[0], []string{"waivers"}, "top level", "")
	list := top["waivers"]
	if top != nil && (list == nil || list.Kind != yaml.SequenceNode) {
		l.add(doc.Content[0], "", "waivers must be a list (- control: ID ...)")
		return w, l.problems
	}
	if list == nil {
		return w, l.problems
	}
	for _, n := range list.Content {
		m := l.mapping(n, waiverKeys, "waiver", "")
		if m == nil {
			continue
		}
		wv := &Waiver{Control: l.str(m["control"], "control", ""), Reason: strings.TrimSpace(l.str(m["reason"], "reason", "")), Line: n.Line}
		if wv.Control == "" {
			l.add(n, "", "a waiver names its control (control: ID)")
		}
		if wv.Reason == "" {
			l.add(n, wv.Control, "a waiver says why (reason: ...): an unexplained suppression is not reviewable")
		}
		if mn := m["match"]; mn != nil {
			wv.Match = map[string]string{}
			for col, v := range l.mapping(mn, nil, "match", wv.Control) {
				if v.Kind != yaml.ScalarNode {
					l.add(v, wv.Control, "match.%s: give one value", col)
					continue
				}
				wv.Match[col] = v.Value
			}
			if len(wv.Match) == 0 {
				l.add(mn, wv.Control, "match is empty: leave it out to waive every row of the control")
			}
		}
		if en := m["expires"]; en != nil {
			s := l.str(en, "expires", wv.Control)
			t, err := parseExpiry(s)
			if err != nil {
				l.add(en, wv.Control, "expires %q: give a date (2027-03-31) or an RFC 3339 time", s)
			}
			wv.Expires = t
		}
		w.List = append(w.List, wv)
	}
	return w, l.problems
}

func parseExpiry(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.Add(24*time.Hour - time.Nanosecond), nil
	}
	return time.Parse(time.RFC3339, s)
}

// Check reports waivers that name no control of the run.
func (w *Waivers) Check(controls []*Control) []Problem {
	if w == nil {
		return nil
	}
	ids := map[string]bool{}
	for _, c := range controls {
		ids[c.ID] = true
	}
	var ps []Problem
	for _, wv := range w.List {
		if wv.Control != "" && !ids[wv.Control] {
			ps = append(ps, Problem{File: w.File, Line: wv.Line, Control: wv.Control, Message: fmt.Sprintf("the waiver names control %q, which the run does not have", wv.Control)})
		}
	}
	return ps
}

// matches reports whether row (of columns cols) is covered by wv; a match
// on a column the result lacks covers nothing.
func (wv *Waiver) matches(cols []string, row []any) bool {
	for col, want := range wv.Match {
		i := -1
		for j, c := range cols {
			if strings.EqualFold(c, col) {
				i = j
				break
			}
		}
		if i < 0 || i >= len(row) || result.Text(row[i]) != want {
			return false
		}
	}
	return true
}

// Apply moves the failed rows that a live waiver covers into each
// outcome's Waived rows; a failed control whose every row is waived ends
// Waived. A row the report does not hold (past --max-rows) is never
// waived, so such a control keeps failing; a count expectation can be
// waived only whole (a waiver without match). Errors are never waived.
// It returns the notices of expired waivers, which waive nothing.
func (w *Waivers) Apply(r *Report, now time.Time) []string {
	if w == nil {
		return nil
	}
	var notices []string
	live := map[string][]*Waiver{}
	for _, wv := range w.List {
		if !wv.Expires.IsZero() && now.After(wv.Expires) {
			notices = append(notices, fmt.Sprintf("notice: the waiver of %s at %s:%d expired on %s and waives nothing: %s", wv.Control, w.File, wv.Line, wv.Expires.UTC().Format("2006-01-02"), wv.Reason))
			continue
		}
		live[wv.Control] = append(live[wv.Control], wv)
	}
	for _, o := range r.Outcomes {
		ws := live[o.Control.ID]
		if o.Status != Fail || len(ws) == 0 {
			continue
		}
		cols := make([]string, len(o.Columns))
		for i, c := range o.Columns {
			cols[i] = c.Name
		}
		whole := ""
		for _, wv := range ws {
			if len(wv.Match) == 0 {
				whole = wv.Reason
				break
			}
			for _, col := range slices.Sorted(maps.Keys(wv.Match)) {
				if !slices.ContainsFunc(cols, func(c string) bool { return strings.EqualFold(c, col) }) {
					notices = append(notices, fmt.Sprintf("notice: the waiver of %s at %s:%d matches on column %s, which the control's rows do not have (%s), so it waives nothing: match on one of those", wv.Control, w.File, wv.Line, col, strings.Join(cols, ", ")))
				}
			}
		}
		if whole != "" {
			o.Waived, o.WaivedReasons, o.Rows = o.Rows, slices.Repeat([]string{whole}, len(o.Rows)), nil
			o.Status = Waived
			continue
		}
		if o.Control.Expect.Kind != "" && o.Control.Expect.Kind != "empty" {
			continue
		}
		var kept [][]any
		for _, row := range o.Rows {
			reason := ""
			for _, wv := range ws {
				if wv.matches(cols, row) {
					reason = wv.Reason
					break
				}
			}
			if reason == "" {
				kept = append(kept, row)
				continue
			}
			o.Waived = append(o.Waived, row)
			o.WaivedReasons = append(o.WaivedReasons, reason)
		}
		o.Rows = kept
		if len(kept) == 0 && len(o.Waived) == o.RowCount {
			o.Status = Waived
		}
	}
	return notices
}
