package check

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

const mistakes = `defaults:
  base_url: {gitlab: http://127.0.0.1:1}
vars:
  org: acme
controls:
  - id: fine
    sql: SELECT name FROM github.repos.repos WHERE org = {{org}}
  - id: fine
    sql: SELECT name FROM github.repos.repos WHERE org = {{org}}
  - id: no-sql
    title: Forgot the SQL
  - id: bad-expect
    expect: at most 3
    sql: SELECT login FROM github.orgs.members WHERE org = {{org}}
  - id: unplannable
    sql: SELECT name FROM github.branches.branches WHERE owner = {{org}}
  - id: typo
    sql: SELEC name FROM github.repos.repos WHERE org = {{org}}
  - id: extra
    sverity: high
    sql: SELECT login FROM github.orgs.members WHERE org = {{org}}
  - id: unset
    sql: SELECT login FROM github.orgs.members WHERE org = {{team}}
`

// Every mistake is reported at once, with its line, and nothing runs.
func TestMistakesReportedBeforeAnythingRuns(t *testing.T) {
	s, env := serverEnv(t)
	file := testutil.TempFile(t, "bad.yaml", mistakes)
	want := []struct {
		line int
		text string
	}{
		{2, "defaults.base_url.gitlab: no such provider"},
		{8, "control fine: duplicate id (first defined at line 6)"},
		{10, "control no-sql: missing sql"},
		{13, "control bad-expect: expect \"at most 3\""},
		{16, "control unplannable: sql does not plan"},
		{18, "control typo: sql does not parse"},
		{20, "control extra: unknown key \"sverity\""},
		{23, "control unset: variable team is not declared"},
	}
	r := runCheck(t, env, file)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
	if len(lines) != len(want)+1 {
		t.Fatalf("stderr has %d lines, want %d problems + summary:\n%s", len(lines), len(want), r.Stderr)
	}
	for i, w := range want {
		prefix := file + ":" + strconv.Itoa(w.line) + ":"
		if !strings.HasPrefix(lines[i], prefix) || !strings.Contains(lines[i], w.text) {
			t.Errorf("problem %d: %q; want %s ... %s", i, lines[i], prefix, w.text)
		}
	}
	if !strings.Contains(lines[len(lines)-1], "8 problems in") || !strings.Contains(lines[len(lines)-1], "no control was run") {
		t.Errorf("summary: %s", lines[len(lines)-1])
	}
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests made before the file was valid: %+v", n, s.Requests())
	}

	// The JSON and JUnit forms carry the same problems for CI.
	rep := parseJSON(t, runCheck(t, env, file, "-o", "json"))
	if len(rep.Problems) != len(want) || rep.ExitCode != 2 || len(rep.Controls) != 0 {
		t.Fatalf("json problems: %+v", rep)
	}
	for i, w := range want {
		if rep.Problems[i].Line != w.line {
			t.Errorf("json problem %d at line %d, want %d", i, rep.Problems[i].Line, w.line)
		}
	}
	ju := runCheck(t, env, file, "-o", "junit")
	var doc struct {
		Errors int `xml:"errors,attr"`
	}
	if err := xml.Unmarshal([]byte(ju.Stdout), &doc); err != nil || doc.Errors != len(want) || ju.Code != 2 {
		t.Errorf("junit problems: %v errors=%d exit %d", err, doc.Errors, ju.Code)
	}
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests made", n)
	}
}

func TestUsageMistakesExit2(t *testing.T) {
	env := testutil.Env(t)
	file := testutil.TempFile(t, "c.yaml", testutil.GhostControl)
	for _, args := range [][]string{
		{file, "-o", "xml"},
		{file, "--parallel", "0"},
		{file, "--var", "no-equals"},
		{file + ".missing"},
		{file, "--only", "nope"},
		{file, "--var", "org=acme"}, // the file has no variable org
	} {
		if r := runCheck(t, env, args...); r.Code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, r.Code, r.Stderr)
		}
	}
	// An empty --var (a CI variable unset) is one problem, not one per
	// control that reads it
	r := runCheck(t, env, "--pack", "github", "--var", "org=")
	if r.Code != 2 || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0 || !strings.Contains(r.Stderr, "--var org= is empty") {
		t.Errorf("--var org=: exit %d, want 2 and one line\n%s", r.Code, r.Stderr)
	}
	// A command line that does not parse still gives the report a job reads
	// (before: plain text on stderr, nothing on stdout for -o json or sarif)
	r = runCheck(t, env, "-o", "json", "--bogus", file)
	var rep struct {
		ExitCode int `json:"exit_code"`
		Problems []struct{ Message string }
	}
	testutil.StdoutJSON(t, r, &rep)
	if r.Code != 2 || rep.ExitCode != 2 || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].Message, "unknown flag: --bogus") {
		t.Errorf("-o json --bogus: exit %d, report %+v", r.Code, rep)
	}
	if l := parseSARIF(t, runCheck(t, env, "--output=sarif", "--bogus", file)); len(l.Runs[0].Invocations) != 1 || l.Runs[0].Invocations[0].ExecutionSuccessful {
		t.Errorf("-o sarif --bogus: invocations %+v, want executionSuccessful false", l.Runs[0].Invocations)
	}
}

// The JUnit suite is named after the control file's base name without its
// extension, its testcases' classname is engine.check.<that name>, and the
// path as given is the suite's file property (docs/check.md, "Output
// formats"): in a run's report and in the report of a file's problems.
func TestJUnitSuiteNamesTheFile(t *testing.T) {
	_, env := serverEnv(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		t.Helper()
		path := filepath.Join(dir, "controls", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	ok := write("org.v2.yaml", "controls:\n  - id: one\n    sql: SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name = 'none'\n")
	bad := write("broken.yml", "controls:\n  - id: one\n")
	for _, c := range []struct {
		path, suite string
		code        int
	}{{ok, "org.v2", 0}, {bad, "broken", 2}} {
		r := runCheck(t, env, c.path, "-o", "junit")
		var doc struct {
			Suites []struct {
				Name  string `xml:"name,attr"`
				Props []struct {
					Name  string `xml:"name,attr"`
					Value string `xml:"value,attr"`
				} `xml:"properties>property"`
				Cases []struct {
					Classname string `xml:"classname,attr"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal([]byte(r.Stdout), &doc); err != nil || r.Code != c.code || len(doc.Suites) != 1 {
			t.Fatalf("%s: exit %d (want %d), %v\n%s%s", c.path, r.Code, c.code, err, r.Stdout, r.Stderr)
		}
		s := doc.Suites[0]
		if s.Name != c.suite || len(s.Cases) != 1 || s.Cases[0].Classname != "engine.check."+c.suite {
			t.Errorf("%s: suite %q, cases %+v; want suite %q, classname engine.check.%s", c.path, s.Name, s.Cases, c.suite, c.suite)
		}
		file := ""
		for _, p := range s.Props {
			if p.Name == "file" {
				file = p.Value
			}
		}
		if file != c.path {
			t.Errorf("%s: file property %q, want the path as given", c.path, file)
		}
	}
}
