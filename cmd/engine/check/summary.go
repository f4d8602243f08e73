package check

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// WriteStepSummary writes the markdown job summary (for
// $GITHUB_STEP_SUMMARY): a table of controls, then the offending rows of
// each failure and the error of each error.
func WriteStepSummary(w io.Writer, r *Report) error {
	var b bytes.Buffer
	t := r.Totals()
	icon := map[Status]string{Pass: "✅ pass", Fail: "❌ fail", Error: "⚠️ error", Waived: "➖ waived"}
	fmt.Fprintf(&b, "## engine check: %s\n\n", mdCell(r.File))
	fmt.Fprintf(&b, "**%s**\n\n", totalsLine(t))
	b.WriteString("| status | id | title | severity | result |\n|---|---|---|---|---|\n")
	for _, o := range r.Outcomes {
		c := o.Control
		res := ""
		switch o.Status {
		case Pass:
			res = result.Plural(o.RowCount, "row")
		case Fail:
			res = failSummary(o) + "; expected " + c.Expect.String()
		case Waived:
			res = result.Plural(len(o.Waived), "row") + " waived: " + strings.Join(uniq(o.WaivedReasons), "; ")
		case Error:
			res = errorSummary(o)
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", icon[o.Status], mdCell(c.ID), mdCell(c.Title), mdCell(c.Severity), mdCell(res))
	}
	for _, o := range r.Outcomes {
		c := o.Control
		if o.Status != Fail || len(o.Rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n<details><summary>%s: %s</summary>\n\n", mdCell(c.ID), mdCell(failSummary(o)))
		b.WriteString("|")
		for _, col := range o.Columns {
			b.WriteString(" " + mdCell(col.Name) + " |")
		}
		b.WriteString("\n|" + strings.Repeat("---|", len(o.Columns)) + "\n")
		for _, row := range o.Rows {
			b.WriteString("|")
			for j, v := range row {
				b.WriteString(" " + mdCell(result.CellText(o.Columns[j], v)) + " |")
			}
			b.WriteString("\n")
		}
		if c.Remediation != "" {
			b.WriteString("\nRemediation: " + mdCell(c.Remediation) + "\n")
		}
		b.WriteString("\n</details>\n")
	}
	b.WriteString("\n")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteProblemsSummary writes the job summary of a run stopped by
// control-file problems.
func WriteProblemsSummary(w io.Writer, file string, ps []Problem) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "## engine check: %s\n\n**%s in the control file; no control was run.**\n\n", mdCell(file), result.Plural(len(ps), "problem"))
	for _, p := range ps {
		b.WriteString("- " + mdCell(p.String()) + "\n")
	}
	b.WriteString("\n")
	_, err := w.Write(b.Bytes())
	return err
}
