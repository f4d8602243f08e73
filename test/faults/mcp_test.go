package faults

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// callMCP runs the query through run_select_query; the client checks the
// result against the declared output schema and the error contract.
func callMCP(t *testing.T, c *mcptest.Client) outcome {
	t.Helper()
	r := c.QueryBounded(t, query)
	o := outcome{raw: r.Text}
	if r.IsError {
		o.err = r.Error
		return o
	}
	o.ok, o.rows = true, r.RowCount
	return o
}

// TestMCPStdioFaultMatrix drives one `engine mcp` process over stdio
// through the whole matrix; after every fault the same process must answer
// the complete listing.
func TestMCPStdioFaultMatrix(t *testing.T) {
	t.Parallel()
	fake := fakegithub.ForTest(t)
	cmd := exec.Command(testutil.EngineBinary(t), "mcp")
	cmd.Env = faultEnv(t, fake)
	c, cs, stderr := mcptest.StartStdio(t, cmd)
	pid := cmd.Process.Pid

	runMatrix(t, fake, true, func(t *testing.T) outcome { return callMCP(t, c) })
	if cmd.ProcessState != nil || cmd.Process.Pid != pid {
		t.Fatalf("the server process did not survive the matrix: %v", cmd.ProcessState)
	}
	if err := cs.Ping(mcptest.Context(t), nil); err != nil {
		t.Fatalf("ping after the matrix: %v", err)
	}
	if strings.Contains(stderr.String(), token) {
		t.Fatal("the token appears in the server's stderr")
	}
}
