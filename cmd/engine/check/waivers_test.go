package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
)

func writeWaivers(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "waivers.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func failed(id string, expect Expect, total int, rows ...[]any) *Outcome {
	return &Outcome{Control: &Control{ID: id, Expect: expect}, Status: Fail, RowCount: total,
		Columns: []result.Column{{Name: "repo"}, {Name: "private"}}, Rows: rows}
}

// TestWaiversApply: a waiver covers the rows it matches until it
// expires; a control passes as waived only when every row is covered,
// rows the report does not hold are never covered, a count expectation is
// waived only whole, and an error is never waived.
func TestWaiversApply(t *testing.T) {
	w, ps := LoadWaivers(writeWaivers(t, `waivers:
  - control: public
    match: {repo: legacy}
    reason: archived next quarter
    expires: 2099-01-31
  - control: public
    match: {repo: old}
    reason: expired one
    expires: 2020-01-01
  - control: owners
    match: {repo: x}
    reason: not for counts
  - control: broken
    reason: never hides an error
`))
	if len(ps) != 0 {
		t.Fatal(ps)
	}
	now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	allWaived := failed("public", Expect{}, 1, []any{"legacy", true})
	partly := failed("public", Expect{}, 2, []any{"legacy", true}, []any{"old", true})
	unseen := failed("public", Expect{}, 5, []any{"legacy", true})
	count := failed("owners", Expect{Kind: "count", Op: "<=", N: 0}, 1, []any{"x", false})
	broken := &Outcome{Control: &Control{ID: "broken"}, Status: Error, Err: &engine.ErrorBody{Kind: engine.KindProvider}}
	rep := &Report{Outcomes: []*Outcome{allWaived, partly, unseen, count, broken}}
	notes := w.Apply(rep, now)
	if len(notes) != 1 || !strings.Contains(notes[0], "expired on 2020-01-01") {
		t.Fatalf("notices %q", notes)
	}
	if allWaived.Status != Waived || len(allWaived.Waived) != 1 || allWaived.WaivedReasons[0] != "archived next quarter" {
		t.Errorf("every row waived: %+v", allWaived)
	}
	if partly.Status != Fail || len(partly.Rows) != 1 || partly.Rows[0][0] != "old" || len(partly.Waived) != 1 {
		t.Errorf("an expired waiver waived a row: %+v", partly)
	}
	if unseen.Status != Fail {
		t.Errorf("rows past --max-rows were taken as waived: %+v", unseen)
	}
	if count.Status != Fail {
		t.Errorf("a row waiver waived a count expectation: %+v", count)
	}
	if broken.Status != Error {
		t.Errorf("an error was waived: %+v", broken)
	}
	if got := rep.ExitCode(); got != ExitError {
		t.Errorf("exit %d", got)
	}
	if c := w.Check([]*Control{{ID: "public"}, {ID: "owners"}}); len(c) != 1 || !strings.Contains(c[0].Message, `"broken"`) {
		t.Errorf("a waiver of an unknown control: %v", c)
	}
}

// TestWaiverProblems: a waiver needs a control and a reason, and an
// expiry that parses.
func TestWaiverProblems(t *testing.T) {
	_, ps := LoadWaivers(writeWaivers(t, "waivers:\n  - match: {repo: a}\n  - control: c\n    reason: r\n    expires: next week\n"))
	text := problemText(ps)
	for _, want := range []string{"names its control", "says why", `expires "next week"`} {
		if !strings.Contains(text, want) {
			t.Errorf("problems lack %q:\n%s", want, text)
		}
	}
}
