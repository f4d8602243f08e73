package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// serverEnv starts a fake server and returns it with the engine's
// environment pointed at it.
func serverEnv(t *testing.T, opts ...fakegithub.Option) (*fakegithub.Server, []string) {
	t.Helper()
	s := fakegithub.ForTest(t, opts...)
	return s, testutil.FakeEnv(t, s.URL())
}

func runCheck(t *testing.T, env []string, args ...string) testutil.Result {
	t.Helper()
	return testutil.Run(t, env, "", append([]string{"check"}, args...)...)
}

// branchProtectedControl is the control entry (of a controls: list) id,
// "every default branch is protected", over the repositories of org: the
// CIS branch control, which reads one protection answer per repository.
func branchProtectedControl(id, org string) string {
	return strings.NewReplacer("ID", id, "ORG", org).Replace(`  - id: ID
    title: every default branch is protected
    sql: |
      SELECT r.name FROM github.repos.repos r
      LEFT JOIN github.branches.branch_protection bp
        ON bp.owner = 'ORG' AND bp.repo = r.name AND bp.branch = r.default_branch
      WHERE r.org = 'ORG' AND bp.url IS NULL
`)
}

// checkControls writes controls to a file named name, runs check on it with the
// further args and fails the test unless it exits want (docs/check.md:
// 0 all pass, 1 a control failed, 2 an error); it returns the file and
// the run.
func checkControls(t *testing.T, env []string, name, controls string, want int, args ...string) (string, testutil.Result) {
	t.Helper()
	file := testutil.TempFile(t, name, controls)
	r := runCheck(t, env, append([]string{file}, args...)...)
	if r.Code != want {
		t.Fatalf("exit %d, want %d\n%s\n%s", r.Code, want, r.Stdout, r.Stderr)
	}
	return file, r
}

// jsonReport is the part of `check -o json` the tests read.
type jsonReport struct {
	Controls []struct {
		ID       string `json:"id"`
		Status   string `json:"status"`
		RowCount *int   `json:"row_count"`
		Rows     [][]any
		Error    *struct {
			Message    string `json:"message"`
			Kind       string `json:"kind"`
			HTTPStatus int    `json:"http_status"`
			Provider   string `json:"provider"`
			Retryable  bool   `json:"retryable"`
		} `json:"error"`
	} `json:"controls"`
	Totals struct {
		Controls, Pass, Fail, Error int
	} `json:"totals"`
	ExitCode int `json:"exit_code"`
	Problems []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Control string `json:"control"`
		Message string `json:"message"`
	} `json:"problems"`
}

func parseJSON(t *testing.T, r testutil.Result) jsonReport {
	t.Helper()
	var rep jsonReport
	testutil.StdoutJSON(t, r, &rep)
	return rep
}

func statuses(rep jsonReport) map[string]string {
	m := map[string]string{}
	for _, c := range rep.Controls {
		m[c.ID] = c.Status
	}
	return m
}
