package check

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// GitHub Actions workflow commands, escaped as actions/toolkit does
// (command.ts): data escapes % \r \n; property values also : and ,.

// EscapeData escapes a workflow command's message.
func EscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeProperty escapes a workflow command's property value (title=...).
func EscapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// Command renders ::name prop=v,...::message. Control characters other
// than the message's newlines are shown escaped first (result.Sanitize),
// so no value can end the command early or colour the log.
func Command(name string, props [][2]string, msg string) string {
	var b strings.Builder
	b.WriteString("::" + name)
	for i, p := range props {
		if i == 0 {
			b.WriteString(" ")
		} else {
			b.WriteString(",")
		}
		b.WriteString(p[0] + "=" + EscapeProperty(result.Sanitize(p[1])))
	}
	b.WriteString("::" + EscapeData(result.SanitizeText(msg)))
	return b.String()
}

// controlFile is the file a control comes from: its own when the run
// combined several (a pack's is "pack:NAME"), else the report's.
func controlFile(r *Report, c *Control) string {
	if c.File != "" {
		return c.File
	}
	return r.File
}

// annotationLevel is error for errors and for failures of severity
// critical, high, medium or none; warning for low; notice for info.
// Severity never changes the exit code.
func annotationLevel(o *Outcome) string {
	if o.Status == Fail {
		switch o.Control.Severity {
		case "low":
			return "warning"
		case "info":
			return "notice"
		}
	}
	return "error"
}

// WriteGitHub writes the text report inside a collapsed group, then one
// annotation per failed or errored control and a closing notice with the
// totals.
func WriteGitHub(w io.Writer, r *Report) error {
	var b bytes.Buffer
	b.WriteString("::group::engine check " + EscapeData(oneLine(r.File)) + "\n")
	if err := WriteText(&b, r); err != nil {
		return err
	}
	b.WriteString("::endgroup::\n")
	for _, o := range r.Outcomes {
		c := o.Control
		switch o.Status {
		case Fail:
			msg := fmt.Sprintf("%s; expected %s", failSummary(o), c.Expect)
			if len(o.Rows) > 0 {
				msg += "\n" + result.TSVHeader(o.Columns)
				for _, row := range o.Rows[:min(len(o.Rows), 5)] {
					msg += "\n" + result.TSVRow(o.Columns, row)
				}
				if o.RowCount > 5 {
					msg += fmt.Sprintf("\n... %d more", o.RowCount-5)
				}
			}
			if c.Remediation != "" {
				msg += "\nremediation: " + oneLine(c.Remediation)
			}
			b.WriteString(Command(annotationLevel(o), annotationProps(controlFile(r, c), c, "FAIL"), msg) + "\n")
		case Error:
			b.WriteString(Command("error", annotationProps(controlFile(r, c), c, "ERROR"), errorSummary(o)+"\nnot evaluated: an error is never a pass") + "\n")
		}
	}
	t := r.Totals()
	level := "notice"
	if r.ExitCode() != ExitPass {
		level = "error"
	}
	b.WriteString(Command(level, [][2]string{{"title", "engine check"}}, totalsLine(t)) + "\n")
	_, err := w.Write(b.Bytes())
	return err
}

// annotationProps place a control's annotation at its line of the file
// (shown on the file in pull requests, as the file's problems are) and
// title it "FAIL <id>: <title>", or "FAIL <id>" for a control without a
// title of its own (its title is its id).
func annotationProps(file string, c *Control, status string) [][2]string {
	props := fileProps(file, c.Line)
	title := status + " " + c.ID
	if c.Title != c.ID {
		title += ": " + oneLine(c.Title)
	}
	return append(props, [2]string{"title", title})
}

// fileProps place an annotation at a file of the repository and its line;
// none for a pack's control (pack:NAME is no file of the repository: the
// annotation then stands on the run, its title naming the control) or a
// problem of the command line.
func fileProps(file string, line int) [][2]string {
	if file == "" || strings.HasPrefix(file, "pack:") {
		return nil
	}
	props := [][2]string{{"file", file}}
	if line > 0 {
		props = append(props, [2]string{"line", fmt.Sprint(line)})
	}
	return props
}

// WriteProblemsGitHub annotates each problem at its file and line.
func WriteProblemsGitHub(w io.Writer, ps []Problem) error {
	var b bytes.Buffer
	for _, p := range ps {
		props := append(fileProps(p.File, p.Line), [2]string{"title", "engine check: control file"})
		msg := p.Message
		if p.Control != "" {
			msg = "control " + p.Control + ": " + msg
		}
		b.WriteString(Command("error", props, msg) + "\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}
