package check

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

func TestJUnitParsesBack(t *testing.T) {
	suite := testutil.JUnitSuiteOf(t, render(t, WriteJUnit, stubReport()), "ctl", testutil.JUnitCounts{Tests: 6, Failures: 2, Errors: 2})
	f := suite.Cases[1].Failure
	if f == nil || !strings.Contains(f.Message, "25 rows (showing 20); expected empty") || !strings.Contains(f.Text, "... 5 more rows") {
		t.Errorf("failure: %+v", f)
	}
	e := suite.Cases[4].Error
	if e == nil || e.Type != "provider" || !strings.Contains(e.Message, "HTTP 403") || !strings.Contains(e.Message, "retryable after 60s") {
		t.Errorf("error: %+v", e)
	}
}

// A row, a description or an error holding control characters (an API
// value's ESC sequence, a NUL) still makes a JUnit report XML can read:
// they are shown as escapes.
func TestJUnitControlCharacters(t *testing.T) {
	r := stubReport()
	r.Outcomes[1].Rows[0] = []any{"evil\x1b[2J\x00name"}
	r.Outcomes[1].Control.Description = "desc \x07 bell"
	r.Outcomes[4].Err.Message += " \x1b]0;TITLE\x07"
	suite := testutil.JUnitSuiteOf(t, render(t, WriteJUnit, r), "ctl", testutil.JUnitCounts{Tests: 6, Failures: 2, Errors: 2})
	if f := suite.Cases[1].Failure; f == nil || !strings.Contains(f.Text, `evil\x1b[2J\x00name`) {
		t.Errorf("failure text: %+v", f)
	}
	if e := suite.Cases[4].Error; e == nil || !strings.Contains(e.Text, `\x1b]0;TITLE\x07`) {
		t.Errorf("error text: %+v", e)
	}
}

func TestJSONReport(t *testing.T) {
	out := render(t, WriteJSON, stubReport())
	var got struct {
		Controls []struct {
			ID, Status    string
			RowCount      *int `json:"row_count"`
			Rows          [][]json.RawMessage
			RowsTruncated bool `json:"rows_truncated"`
			Error         *struct {
				Kind       string
				HTTPStatus int `json:"http_status"`
				Provider   string
				Retryable  bool
			}
		}
		Totals   Totals
		ExitCode int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Controls) != 6 || got.ExitCode != 2 || got.Totals.Error != 2 || got.Totals.Fail != 2 || got.Totals.Pass != 2 {
		t.Fatalf("report: %+v", got)
	}
	c := got.Controls[1]
	if c.Status != "fail" || *c.RowCount != 25 || len(c.Rows) != 20 || !c.RowsTruncated || compact(c.Rows[0][1]) != `{"a":1}` {
		t.Errorf("fail control: %+v", c)
	}
	e := got.Controls[4]
	if e.Status != "error" || e.RowCount != nil || e.Error == nil || e.Error.Kind != "provider" || e.Error.HTTPStatus != 403 || e.Error.Provider != "github" || !e.Error.Retryable {
		t.Errorf("error control: %+v", e)
	}
	if got.Controls[0].RowCount == nil || *got.Controls[0].RowCount != 0 {
		t.Errorf("pass control row_count must be present and 0")
	}
}

func TestGitHubEscaping(t *testing.T) {
	if got := EscapeData("100% done\r\nnext: a,b"); got != "100%25 done%0D%0Anext: a,b" {
		t.Errorf("data: %q", got)
	}
	if got := EscapeProperty("a: b, 50%\n"); got != "a%3A b%2C 50%25%0A" {
		t.Errorf("property: %q", got)
	}
	cmd := Command("error", [][2]string{{"file", "c.yaml"}, {"line", "3"}, {"title", "x: y, z"}}, "m%\nn")
	if cmd != "::error file=c.yaml,line=3,title=x%3A y%2C z::m%25%0An" {
		t.Errorf("command: %q", cmd)
	}
	out := render(t, WriteGitHub, stubReport())
	var annotations []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "::error") || strings.HasPrefix(line, "::warning") || strings.HasPrefix(line, "::notice") {
			annotations = append(annotations, line)
		}
	}
	// 2 failures + 2 errors + the totals.
	if len(annotations) != 5 {
		t.Fatalf("annotations:\n%s", strings.Join(annotations, "\n"))
	}
	if !strings.HasPrefix(annotations[0], "::error file=ctl.yaml,title=FAIL empty-bad%3A Title of empty-bad::25 rows (showing 20); expected empty%0Aname\tmeta%0Ar|0, <x>") {
		t.Errorf("failure annotation: %s", annotations[0])
	}
	if !strings.Contains(annotations[0], "remediation: fix, it: now") {
		t.Errorf("remediation (data keeps , and :): %s", annotations[0])
	}
	if !strings.HasPrefix(annotations[2], "::error file=ctl.yaml,title=ERROR rate-limited%3A") || !strings.Contains(annotations[2], "HTTP 403") {
		t.Errorf("error annotation: %s", annotations[2])
	}
	if !strings.HasPrefix(annotations[4], "::error title=engine check::6 controls: 2 passed, 2 failed, 2 errors") {
		t.Errorf("totals: %s", annotations[4])
	}
	if !strings.Contains(out, "::group::engine check ctl.yaml\n") || !strings.Contains(out, "::endgroup::") {
		t.Errorf("group missing")
	}
}

func TestAnnotationLevelBySeverity(t *testing.T) {
	for sev, want := range map[string]string{"critical": "error", "": "error", "low": "warning", "info": "notice"} {
		o := &Outcome{Control: &Control{Severity: sev}, Status: Fail}
		if got := annotationLevel(o); got != want {
			t.Errorf("%q: %s, want %s", sev, got, want)
		}
	}
	if got := annotationLevel(&Outcome{Control: &Control{Severity: "info"}, Status: Error}); got != "error" {
		t.Errorf("an error is always ::error, got %s", got)
	}
}

func TestStepSummaryMarkdown(t *testing.T) {
	testutil.Contains(t, "summary", render(t, WriteStepSummary, stubReport()),
		"## engine check: ctl.yaml",
		"**6 controls: 2 passed, 2 failed, 2 errors**",
		"| ❌ fail | `empty-bad` | Title of empty-bad | high | 25 rows (showing 20); expected empty |",
		"| ⚠️ error | `rate-limited` |",
		"| r\\|0, &lt;x&gt; |",
		"<details><summary>empty-bad: 25 rows (showing 20)</summary>",
	)
}

func TestTextReport(t *testing.T) {
	s := render(t, WriteText, stubReport())
	testutil.Contains(t, "text", s,
		"PASS  empty-ok [high]: Title of empty-ok\n",
		"FAIL  empty-bad [high]: Title of empty-bad\n      25 rows (showing 20); expected empty\n",
		"FAIL  nonempty-bad [high]: Title of nonempty-bad\n      0 rows; expected nonempty\n",
		"ERROR rate-limited [high]: Title of rate-limited\n      provider error, HTTP 403, provider github, retryable after 60s:",
		"remediation: fix, it: now",
		"6 controls: 2 passed, 2 failed, 2 errors in",
	)
	if strings.Contains(s, "secret-token-xyz") {
		t.Error("secret in text report")
	}
}

// render writes r with write and returns the text; a write error fails
// the test.
func render(t *testing.T, write func(io.Writer, *Report) error, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func compact(m json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, m); err != nil {
		return err.Error()
	}
	return b.String()
}
