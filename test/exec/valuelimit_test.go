package exec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestValueLimitWhileLoading: an API value longer than --max-value-bytes
// is an error of kind sql that names the table and the setting (SQLite's
// length limit applies while the answer is loaded, not only to what the
// query computes); the same statement without the long column, or with
// the limit raised, answers. Before the fix the limit was SQLite's 1e9.
func TestValueLimitWhileLoading(t *testing.T) {
	s := fakegithub.ForTest(t)
	body, _ := json.Marshal([]map[string]any{{"id": 1, "name": "big", "full_name": "b/big", "description": strings.Repeat("x", 3000)}})
	s.Inject(fakegithub.Fault{Path: "^/orgs/big/repos$", Kind: fakegithub.KindBody, Body: string(body)})
	const sql = "SELECT name, length(description) AS n FROM github.repos.repos WHERE org = 'big'"
	r := testutil.Run(t, execEnvOn(t, s, "ENGINE_MAX_VALUE_BYTES=1000"), "", "exec", "-o", "json", sql)
	var out struct{ Error engine.ErrorBody }
	if r.Code != 1 || json.Unmarshal([]byte(r.Stderr), &out) != nil || out.Error.Kind != engine.KindSQL ||
		!strings.Contains(out.Error.Message, "github.repos.repos") || !strings.Contains(out.Error.Message, "max-value-bytes") {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnvOn(t, s, "ENGINE_MAX_VALUE_BYTES=1000"), "", "exec", sql)
	if r.Code != 1 || !strings.Contains(r.Stderr, "--max-value-bytes") {
		t.Fatalf("text error does not name the flag: exit %d: %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnvOn(t, s), "", "exec", "-o", "json", "--max-value-bytes", "4000", sql)
	if r.Code != 0 || !strings.Contains(r.Stdout, `"n": 3000`) {
		t.Fatalf("exit %d: %s%s", r.Code, r.Stdout, r.Stderr)
	}
}
