package faults

import (
	"encoding/json"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// control passes only on the complete listing: a success with fewer rows
// would be a fail (exit 1), which the matrix also rejects.
const control = `controls:
  - id: all-acme-repos
    title: The listing of acme is complete
    sql: ` + query + `
    expect: count = 250
`

// runCheck runs `engine check -o json` on the one-control file. Exit 0 is
// the pass (all 250 rows), 2 an error; 1 (fail) and anything else is a bug.
func runCheck(t *testing.T, fake *fakegithub.Server, file string) outcome {
	t.Helper()
	env := faultEnv(t, fake)
	r := testutil.Run(t, env, "", "check", "-o", "json", file)
	o := outcome{raw: r.Stdout + r.Stderr}
	var rep struct {
		Controls []struct {
			Status   string     `json:"status"`
			RowCount *int       `json:"row_count"`
			Error    *errorBody `json:"error"`
		} `json:"controls"`
		ExitCode int `json:"exit_code"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil || len(rep.Controls) != 1 {
		t.Fatalf("check -o json: %v\n%s", err, o.raw)
	}
	c := rep.Controls[0]
	if rep.ExitCode != r.Code {
		t.Fatalf("report exit_code %d, process exit %d", rep.ExitCode, r.Code)
	}
	switch {
	case r.Code == 0 && c.Status == "pass" && c.RowCount != nil:
		o.ok, o.rows = true, *c.RowCount
	case r.Code == 2 && c.Status == "error":
		o.err = c.Error
	default:
		t.Fatalf("exit %d status %q: check exits 0 on pass, 2 on error (never 1 or a pass under a fault)\n%s", r.Code, c.Status, o.raw)
	}
	return o
}

func TestCheckFaultMatrix(t *testing.T) {
	t.Parallel()
	fake := fakegithub.ForTest(t)
	file := testutil.TempFile(t, "controls.yaml", control)
	runMatrix(t, fake, false, func(t *testing.T) outcome { return runCheck(t, fake, file) })
}
