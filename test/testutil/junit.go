package testutil

import (
	"encoding/xml"
	"testing"
)

// JUnit is a JUnit XML report (check -o junit) as CI tools read it,
// decoded with its own types rather than the engine's writer's.
type JUnit struct {
	XMLName xml.Name `xml:"testsuites"`
	JUnitCounts
	Suites []JUnitSuite `xml:"testsuite"`
}

// JUnitCounts are the counts of a <testsuites> or a <testsuite>.
type JUnitCounts struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
}

// JUnitSuite is a <testsuite>.
type JUnitSuite struct {
	Name string `xml:"name,attr"`
	JUnitCounts
	Props []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	} `xml:"properties>property"`
	Cases []JUnitCase `xml:"testcase"`
}

// JUnitCase is a <testcase>: a failure, an error or neither.
type JUnitCase struct {
	Name    string        `xml:"name,attr"`
	Failure *JUnitMessage `xml:"failure"`
	Error   *JUnitMessage `xml:"error"`
}

// JUnitMessage is a <failure> or an <error>.
type JUnitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitOneSuite decodes a JUnit report and fails the test unless it
// holds exactly one suite.
func junitOneSuite(t testing.TB, report string) (JUnit, JUnitSuite) {
	t.Helper()
	var doc JUnit
	if err := xml.Unmarshal([]byte(report), &doc); err != nil || len(doc.Suites) != 1 {
		t.Fatalf("junit report of %d suites, %v:\n%s", len(doc.Suites), err, report)
	}
	return doc, doc.Suites[0]
}

// JUnitSuiteOf decodes a JUnit report of one suite and returns the suite;
// it fails the test unless the suite is named name, both it and the
// report count want, there is a case per test, no case is both a failure
// and an error, and the cases' failures and errors are as counted.
func JUnitSuiteOf(t testing.TB, report, name string, want JUnitCounts) JUnitSuite {
	t.Helper()
	doc, s := junitOneSuite(t, report)
	if doc.JUnitCounts != want {
		t.Fatalf("testsuites: %+v, want %+v", doc.JUnitCounts, want)
	}
	if s.Name != name || s.JUnitCounts != want || len(s.Cases) != want.Tests {
		t.Fatalf("testsuite: %+v", s)
	}
	var got JUnitCounts
	for _, c := range s.Cases {
		if c.Failure != nil && c.Error != nil {
			t.Errorf("%s: both failure and error", c.Name)
		}
		if c.Failure != nil {
			got.Failures++
		}
		if c.Error != nil {
			got.Errors++
		}
	}
	if got.Failures != want.Failures || got.Errors != want.Errors {
		t.Errorf("counted %d failures %d errors; the attributes say %d %d", got.Failures, got.Errors, want.Failures, want.Errors)
	}
	return s
}

// JUnitProperties decodes a JUnit report of one test suite (check -o
// junit) and returns its properties by name; it fails the test unless the
// report holds exactly one suite.
func JUnitProperties(t testing.TB, report string) map[string]string {
	t.Helper()
	_, s := junitOneSuite(t, report)
	props := map[string]string{}
	for _, p := range s.Props {
		props[p.Name] = p.Value
	}
	return props
}
