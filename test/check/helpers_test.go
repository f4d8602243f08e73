package check

import (
	"encoding/json"
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
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil {
		t.Fatalf("check -o json: %v\nstdout:\n%s\nstderr:\n%s", err, r.Stdout, r.Stderr)
	}
	return rep
}

func statuses(rep jsonReport) map[string]string {
	m := map[string]string{}
	for _, c := range rep.Controls {
		m[c.ID] = c.Status
	}
	return m
}
