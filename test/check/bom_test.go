package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestControlFileByteOrderMark: a control file saved "UTF-8 with BOM"
// runs as one without the mark; a mark inside a control's SQL (pasted
// from such a file) is a problem that names it, and nothing runs.
func TestControlFileByteOrderMark(t *testing.T) {
	s, env := serverEnv(t)
	const bom = "\ufeff"
	file := testutil.TempFile(t, "bom.yaml", bom+"controls:\n  - id: tiny-has-no-archived\n    sql: SELECT name FROM github.repos.repos WHERE org = 'tiny' AND archived\n")
	if r := runCheck(t, env, file); r.Code != 0 || !strings.Contains(r.Stdout, "PASS  tiny-has-no-archived") {
		t.Errorf("a file that begins with a BOM: exit %d\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	n := len(s.Requests())
	file = testutil.TempFile(t, "pasted.yaml", "controls:\n  - id: pasted\n    sql: \""+bom+"SELECT name FROM github.repos.repos WHERE org = 'tiny'\"\n")
	r := runCheck(t, env, file)
	if r.Code != 2 || !strings.Contains(r.Stdout+r.Stderr, "pasted.yaml:3: control pasted: sql does not parse: SQL error at position 1: a byte-order mark (U+FEFF") {
		t.Errorf("a BOM in a control's SQL: exit %d\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	if len(s.Requests()) != n {
		t.Errorf("a control ran despite the problem: %d requests", len(s.Requests())-n)
	}
}
