package check

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// Formats accepted by Write.
var Formats = []string{"text", "json", "junit", "github", "sarif"}

// Write renders the report in the named format. The GitHub job summary is
// written separately (WriteStepSummary).
func Write(w io.Writer, r *Report, format string) error {
	switch format {
	case "", "text":
		return WriteText(w, r)
	case "json":
		return WriteJSON(w, r)
	case "junit":
		return WriteJUnit(w, r)
	case "sarif":
		return WriteSARIF(w, r)
	case "github":
		return WriteGitHub(w, r)
	}
	return fmt.Errorf("unknown output format %q (use %s)", format, strings.Join(Formats, ", "))
}

// WriteText writes a readable summary: one line per control, the offending
// rows of failures, the error of errors, and the totals.
func WriteText(w io.Writer, r *Report) error {
	var b bytes.Buffer
	for _, o := range r.Outcomes {
		c := o.Control
		label := map[Status]string{Pass: "PASS ", Fail: "FAIL ", Error: "ERROR", Waived: "WAIVED"}[o.Status]
		sev := ""
		if c.Severity != "" {
			sev = " [" + c.Severity + "]"
		}
		title := ""
		if c.Title != c.ID {
			title = ": " + oneLine(c.Title)
		}
		fmt.Fprintf(&b, "%s %s%s%s\n", label, result.Sanitize(c.ID), result.Sanitize(sev), title)
		switch o.Status {
		case Fail:
			fmt.Fprintf(&b, "      %s; expected %s\n", failSummary(o), c.Expect)
			if len(o.Waived) > 0 {
				fmt.Fprintf(&b, "      %s waived (%s)\n", result.Plural(len(o.Waived), "row"), oneLine(strings.Join(uniq(o.WaivedReasons), "; ")))
			}
			if len(o.Rows) > 0 {
				var t bytes.Buffer
				_ = result.WriteTable(&t, &result.Result{Columns: o.Columns, Rows: o.Rows}, 120)
				for _, line := range strings.Split(strings.TrimRight(t.String(), "\n"), "\n") {
					b.WriteString("      " + line + "\n")
				}
			}
			if c.Remediation != "" {
				fmt.Fprintf(&b, "      remediation: %s\n", oneLine(c.Remediation))
			}
		case Waived:
			fmt.Fprintf(&b, "      %s waived (%s)\n", result.Plural(len(o.Waived), "row"), oneLine(strings.Join(uniq(o.WaivedReasons), "; ")))
		case Error:
			fmt.Fprintf(&b, "      %s\n", errorSummary(o))
			fmt.Fprintf(&b, "      not evaluated: an error is never a pass\n")
		}
	}
	t := r.Totals()
	fmt.Fprintf(&b, "\n%s in %s\n", totalsLine(t), r.Duration.Round(1e6))
	_, err := w.Write(b.Bytes())
	return err
}

// totalsLine is "8 controls: 5 passed, 2 failed, 1 error".
func totalsLine(t Totals) string {
	errs := "errors"
	if t.Error == 1 {
		errs = "error"
	}
	line := fmt.Sprintf("%s: %d passed, %d failed, %d %s", result.Plural(t.Controls, "control"), t.Pass, t.Fail, t.Error, errs)
	if t.Waived > 0 {
		line += fmt.Sprintf(", %d waived", t.Waived)
	}
	return line
}

// uniq is list without repeats, in order.
func uniq(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// failSummary is "5 rows" or "5 rows (showing 3)".
func failSummary(o *Outcome) string {
	s := result.Plural(o.RowCount, "row")
	if o.RowsTruncated() {
		s += fmt.Sprintf(" (showing %d)", len(o.Rows))
	}
	return s
}

// errorSummary is "provider error, HTTP 403 from github, retryable (after 60s): message".
func errorSummary(o *Outcome) string {
	e := o.Err
	parts := []string{string(e.Kind) + " error"}
	if e.HTTPStatus != 0 {
		parts = append(parts, fmt.Sprintf("HTTP %d", e.HTTPStatus))
	}
	if e.Provider != "" {
		parts = append(parts, "provider "+e.Provider)
	}
	switch {
	case e.Retryable && e.RetryAfterSeconds > 0:
		parts = append(parts, fmt.Sprintf("retryable after %ds", e.RetryAfterSeconds))
	case e.Retryable:
		parts = append(parts, "retryable")
	default:
		parts = append(parts, "not retryable")
	}
	return strings.Join(parts, ", ") + ": " + oneLine(e.Message)
}
