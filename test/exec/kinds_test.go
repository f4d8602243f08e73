package exec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/testutil"
)

// errorBody is exec's -o json error output: {"error": engine.ErrorBody}.
type errorBody struct {
	Error engine.ErrorBody `json:"error"`
}

// errorKind decodes exec's -o json error output and returns its kind.
func errorKind(t *testing.T, r testutil.Result) engine.Kind {
	t.Helper()
	var body errorBody
	if err := json.Unmarshal([]byte(r.Stderr), &body); err != nil {
		t.Fatalf("stderr is not the error object: %v: %s", err, r.Stderr)
	}
	return body.Error.Kind
}

// A credential that cannot be read is a configuration error: kind usage
// (docs/reliability.md, "Error kinds of bad arguments"; it was labelled plan), exit 1 as before, nothing sent.
func TestUnreadableCredentialIsUsage(t *testing.T) {
	fake.ClearFaults()
	fake.ResetRequests()
	r := testutil.Run(t, execEnv(t), "", "exec", "-o", "json", "--auth", `{"github":{"type":"bearer","credentialsenvvar":"UNSET_VAR"}}`, `SELECT 1 FROM github.repos.repos WHERE org = 'tiny'`)
	var body struct{ Error engine.ErrorBody }
	if err := json.Unmarshal([]byte(r.Stderr), &body); err != nil {
		t.Fatalf("stderr is not the error object: %v: %s", err, r.Stderr)
	}
	if r.Code != 1 || body.Error.Kind != engine.KindUsage || !strings.Contains(body.Error.Message, "UNSET_VAR") {
		t.Fatalf("exit %d, error %+v", r.Code, body.Error)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("%d requests with an unreadable credential", n)
	}
}

// The library's limit errors name no flag; exec's advice names the flag
// that raises the limit (cli/cli's FlagError style).
func TestLimitAdviceNamesTheFlag(t *testing.T) {
	fake.ClearFaults()
	r := testutil.Run(t, execEnv(t), "", "exec", "--max-pages", "2", `SELECT count(*) FROM github.repos.repos WHERE org = 'acme'`)
	if r.Code != 1 || !strings.Contains(r.Stderr, "error (plan)") || !strings.Contains(r.Stderr, "the limit is --max-pages") {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t), "", "exec", "--max-requests", "2", `SELECT * FROM github.issues.issues WHERE owner = 'tiny' AND repo IN ('a', 'b', 'c')`)
	if r.Code != 1 || !strings.Contains(r.Stderr, "error (plan)") || !strings.Contains(r.Stderr, "the limit is --max-requests") {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnv(t), "", "exec", "-o", "json", "--max-requests", "2", `SELECT * FROM github.issues.issues WHERE owner = 'tiny' AND repo IN ('a', 'b', 'c')`)
	var body struct{ Error engine.ErrorBody }
	if err := json.Unmarshal([]byte(r.Stderr), &body); err != nil || body.Error.Kind != engine.KindPlan || strings.Contains(body.Error.Message, "--max-requests") {
		t.Fatalf("the error object names the flag (or is not one): %v %s", err, r.Stderr)
	}
}
