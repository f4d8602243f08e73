package hostile

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHostileMCP sends the corpus to `engine mcp` (stdio) processes in
// the sandbox: each statement is an error result of its kind, the next
// normal query answers all three tiny repositories, and when the server
// has exited nothing is left in its TMPDIR, HOME or working directory.
func TestHostileMCP(t *testing.T) {
	fake := fakegithub.ForTest(t)
	sb := newSandbox(t)
	// Two servers: one whose 1 s limit the resource bombs meet, one with a
	// limit no busy machine reaches for everything else (hostile.timeout).
	bombs := sb.startMCP(t, fake, "1s")
	others := sb.startMCP(t, fake, "60s")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	for _, h := range corpus(sb.tmp) {
		c := others.c
		if h.timeout() == "1s" {
			c = bombs.c
		}
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
	for _, s := range []mcpServer{bombs, others} {
		s.cs.Close() // closes stdin and waits for the process
		if s.cmd.ProcessState == nil {
			t.Fatal("the server is still running after the session closed")
		}
		if t.Failed() {
			t.Logf("server stderr:\n%.4000s", s.stderr.String())
		}
	}
	sb.assertEmpty(t)
}

// mcpServer is one `engine mcp` over stdio in the sandbox.
type mcpServer struct {
	cmd    *exec.Cmd
	c      *mcptest.Client
	cs     *mcp.ClientSession
	stderr *testutil.SyncBuffer
}

func (s sandbox) startMCP(t *testing.T, fake *fakegithub.Server, timeout string) mcpServer {
	cmd := exec.Command(testutil.EngineBinary(t), "mcp")
	cmd.Env, cmd.Dir = s.env(t, fake, timeout), s.cwd
	c, cs, stderr := mcptest.StartStdio(t, cmd)
	return mcpServer{cmd: cmd, c: c, cs: cs, stderr: stderr}
}
