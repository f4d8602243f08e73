package check

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/enginehq/engine/engine/result"
)

// JUnit XML as CI tools read it (Jenkins, GitLab, GitHub test reporters),
// written with go-junit-report's junit types: a failed control is a
// <failure>, a control that could not be evaluated an <error>, so
// dashboards keep them apart, and a waived one is <skipped>.

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

// suiteName is the suite's name: the control file's base name without its
// extension (controls/org.yaml is suite org, its testcases' classname
// engine.check.org), the same wherever the job runs from; the path as
// given is the suite's file property.
func suiteName(file string) string {
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
}

// WriteJUnit writes the report as JUnit XML.
func WriteJUnit(w io.Writer, r *Report) error {
	s := junit.Testsuite{Name: suiteName(r.File), Time: seconds(r.Duration.Milliseconds()), Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05")}
	s.AddProperty("file", r.File)
	for _, p := range append(statsProperties(r.Stats()), rateLimitProps(r)...) {
		s.AddProperty(p.Name, p.Value)
	}
	for _, o := range r.Outcomes {
		c := o.Control
		tc := junit.Testcase{Name: c.ID + ": " + c.Title, Classname: "engine.check." + suiteName(r.File), Time: seconds(o.Duration.Milliseconds())}
		switch o.Status {
		case Fail:
			var b bytes.Buffer
			b.WriteString(result.TSVHeader(o.Columns) + "\n")
			for _, row := range o.Rows {
				b.WriteString(result.TSVRow(o.Columns, row) + "\n")
			}
			if o.RowsTruncated() {
				fmt.Fprintf(&b, "... %d more rows\n", o.RowCount-len(o.Rows))
			}
			if c.Remediation != "" {
				b.WriteString("remediation: " + c.Remediation + "\n")
			}
			tc.Failure = &junit.Result{Message: fmt.Sprintf("%s; expected %s", failSummary(o), c.Expect), Type: severityOr(c, "fail"), Data: cdata(b.String())}
		case Waived:
			tc.Skipped = &junit.Result{Message: fmt.Sprintf("%s waived: %s", result.Plural(len(o.Waived), "row"), strings.Join(uniq(o.WaivedReasons), "; "))}
		case Error:
			tc.Error = &junit.Result{Message: errorSummary(o), Type: string(o.Err.Kind), Data: cdata(o.Err.Message)}
		}
		if c.Description != "" {
			tc.SystemOut = &junit.Output{Data: cdata(c.Description)}
		}
		s.AddTestcase(tc)
	}
	return writeSuites(w, s)
}

// cdata is text for a CDATA section, which XML cannot escape: its
// control characters shown as escapes (an API value's ESC or NUL would
// make the report XML no reader takes), its lines and tabs kept.
func cdata(s string) string { return result.SanitizeText(s) }

func severityOr(c *Control, def string) string {
	if c.Severity != "" {
		return c.Severity
	}
	return def
}

// writeSuites writes the one suite of a run under <testsuites name="engine
// check">, after the XML header.
func writeSuites(w io.Writer, s junit.Testsuite) error {
	all := junit.Testsuites{Name: "engine check", Time: s.Time}
	all.AddSuite(s)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	return all.WriteXML(w)
}

// WriteProblemsJUnit reports the problems that stopped a run as one
// errored testcase each, so a CI dashboard shows why nothing ran.
func WriteProblemsJUnit(w io.Writer, file string, ps []Problem) error {
	s := junit.Testsuite{Name: suiteName(file), Time: "0.000"}
	s.AddProperty("file", file)
	for _, p := range ps {
		name := "control file"
		if p.Line > 0 {
			name = fmt.Sprintf("control file line %d", p.Line)
		}
		s.AddTestcase(junit.Testcase{Name: name, Classname: "engine.check." + suiteName(file), Time: "0.000",
			Error: &junit.Result{Message: p.String(), Type: "control_file", Data: cdata(p.String())}})
	}
	return writeSuites(w, s)
}
