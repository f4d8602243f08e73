package faults

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// runExec runs `engine exec -o json` and reads rows or the error object.
// It also checks exec's exit codes (docs/architecture.md): 0 for rows, 2 for a
// provider error, and nothing on stdout for a failure.
func runExec(t *testing.T, fake *fakegithub.Server) outcome {
	t.Helper()
	env := faultEnv(t, fake)
	r := testutil.Run(t, env, "", "exec", "-o", "json", query)
	o := outcome{raw: r.Stdout + r.Stderr}
	switch r.Code {
	case 0:
		rows := testutil.JSONRows(t, r)
		o.ok, o.rows = true, len(rows)
	case 2:
		if strings.TrimSpace(r.Stdout) != "" {
			t.Fatalf("a failed exec printed rows: %s", r.Stdout)
		}
		var body struct{ Error *errorBody }
		if err := json.Unmarshal([]byte(strings.TrimSpace(r.Stderr)), &body); err != nil {
			t.Fatalf("stderr is not the JSON error object: %v\n%s", err, r.Stderr)
		}
		o.err = body.Error
	default:
		t.Fatalf("exit %d; exec exits 0 (rows) or 2 (provider error)\n%s", r.Code, o.raw)
	}
	return o
}

func TestExecFaultMatrix(t *testing.T) {
	t.Parallel()
	fake := fakegithub.ForTest(t)
	runMatrix(t, fake, false, func(t *testing.T) outcome { return runExec(t, fake) })
}
