package check

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// JUnit XML as CI tools read it (Jenkins, GitLab, GitHub test reporters):
// a failed control is a <failure>, a control that could not be evaluated
// an <error>, so dashboards keep them apart.

// JUnitSuites is the <testsuites> root.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one <testsuite>: one control file.
type JUnitSuite struct {
	Name      string          `xml:"name,attr"`
	Tests     int             `xml:"tests,attr"`
	Failures  int             `xml:"failures,attr"`
	Errors    int             `xml:"errors,attr"`
	Skipped   int             `xml:"skipped,attr"`
	Time      string          `xml:"time,attr"`
	Timestamp string          `xml:"timestamp,attr,omitempty"`
	Props     []JUnitProperty `xml:"properties>property,omitempty"`
	Cases     []JUnitCase     `xml:"testcase"`
}

// JUnitProperty is a <property name value>.
type JUnitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// JUnitCase is one <testcase>: one control.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *JUnitMessage `xml:"failure,omitempty"`
	Error     *JUnitMessage `xml:"error,omitempty"`
	Skipped   *JUnitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

// JUnitMessage is a <failure> or <error>.
type JUnitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

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
	t := r.Totals()
	s := JUnitSuite{Name: suiteName(r.File), Tests: t.Controls, Failures: t.Fail, Errors: t.Error,
		Time: seconds(r.Duration.Milliseconds()), Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05"),
		Props: append(append([]JUnitProperty{{Name: "file", Value: r.File}}, statsProperties(r.Stats())...), rateLimitProps(r)...)}
	for _, o := range r.Outcomes {
		c := o.Control
		tc := JUnitCase{Name: c.ID + ": " + c.Title, Classname: "engine.check." + suiteName(r.File), Time: seconds(o.Duration.Milliseconds())}
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
			tc.Failure = &JUnitMessage{Message: fmt.Sprintf("%s; expected %s", failSummary(o), c.Expect), Type: severityOr(c, "fail"), Text: b.String()}
		case Waived:
			tc.Skipped = &JUnitMessage{Message: fmt.Sprintf("%s waived: %s", result.Plural(len(o.Waived), "row"), strings.Join(uniq(o.WaivedReasons), "; "))}
		case Error:
			tc.Error = &JUnitMessage{Message: errorSummary(o), Type: string(o.Err.Kind), Text: o.Err.Message}
		}
		if c.Description != "" {
			tc.SystemOut = c.Description
		}
		s.Cases = append(s.Cases, tc)
	}
	return writeSuites(w, JUnitSuites{Name: "engine check", Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Time: s.Time, Suites: []JUnitSuite{s}})
}

func severityOr(c *Control, def string) string {
	if c.Severity != "" {
		return c.Severity
	}
	return def
}

func writeSuites(w io.Writer, s JUnitSuites) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteProblemsJUnit reports the problems that stopped a run as one
// errored testcase each, so a CI dashboard shows why nothing ran.
func WriteProblemsJUnit(w io.Writer, file string, ps []Problem) error {
	s := JUnitSuite{Name: suiteName(file), Tests: len(ps), Errors: len(ps), Time: "0.000",
		Props: []JUnitProperty{{Name: "file", Value: file}}}
	for _, p := range ps {
		name := "control file"
		if p.Line > 0 {
			name = fmt.Sprintf("control file line %d", p.Line)
		}
		s.Cases = append(s.Cases, JUnitCase{Name: name, Classname: "engine.check." + suiteName(file), Time: "0.000",
			Error: &JUnitMessage{Message: p.String(), Type: "control_file", Text: p.String()}})
	}
	return writeSuites(w, JUnitSuites{Name: "engine check", Tests: s.Tests, Errors: s.Errors, Time: "0.000", Suites: []JUnitSuite{s}})
}
