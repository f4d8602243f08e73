package hostile

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// TestHostileMCP sends the corpus to one `engine mcp` (stdio) process in
// the sandbox: each statement is an error result of its kind, the next
// normal query answers all three tiny repositories, and when the server
// has exited nothing is left in its TMPDIR, HOME or working directory.
func TestHostileMCP(t *testing.T) {
	fake := fakegithub.ForTest(t)
	sb := newSandbox(t)
	cmd := exec.Command(testutil.EngineBinary(t), "mcp")
	cmd.Env, cmd.Dir = sb.env(t, fake), sb.cwd
	c, cs, stderr := mcptest.StartStdio(t, cmd)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, h := range corpus(sb.tmp) {
		kind, status := h.kind, h.status
		if h.mcpKind != "" {
			kind, status = h.mcpKind, h.mcpStatus
		}
		r := c.Call(t, ctx, "run_select_query", map[string]any{"sql": h.sql})
		if !r.IsError {
			t.Errorf("%s: no error; %d rows", h.name, r.RowCount)
		} else if e := r.Error; string(e.Kind) != kind || e.HTTPStatus != status || len(e.Message) < 10 {
			t.Errorf("%s: error %+v; want kind %s status %d", h.name, *e, kind, status)
		}
		ok := c.Call(t, ctx, "run_select_query", map[string]any{"sql": tiny + " ORDER BY name"})
		if ok.IsError || ok.RowCount != 3 || ok.Rows[0][0] != "alpha" {
			t.Fatalf("after %s the server did not answer a normal query: %+v", h.name, ok)
		}
	}
	cs.Close() // closes stdin and waits for the process
	if cmd.ProcessState == nil {
		t.Fatal("the server is still running after the session closed")
	}
	sb.assertEmpty(t)
	if t.Failed() {
		t.Logf("server stderr:\n%.4000s", stderr.String())
	}
}
