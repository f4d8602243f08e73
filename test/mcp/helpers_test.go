package mcp_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// serverFlags are the flags every test server gets (mcptest.FakeFlags:
// the fake's auth and a short request timeout); serverArgs run them over
// stdio.
var (
	serverFlags = mcptest.FakeFlags
	serverArgs  = append([]string{"mcp"}, serverFlags...)
)

// stdioClient starts `engine mcp` (stdio) against fake and connects a
// client through mcp.CommandTransport.
func stdioClient(t *testing.T, fake *fakegithub.Server, extraEnv []string, args ...string) (*mcptest.Client, *testutil.SyncBuffer) {
	t.Helper()
	c, _, stderr := mcptest.Stdio(t, testutil.FakeEnv(t, fake.URL(), extraEnv...), append(append([]string{}, serverArgs...), args...)...)
	return c, stderr
}

// fakeEnv starts a fake GitHub server and returns it with the engine's
// environment pointed at it.
func fakeEnv(t *testing.T) (*fakegithub.Server, []string) {
	t.Helper()
	fake := fakegithub.ForTest(t)
	return fake, testutil.FakeEnv(t, fake.URL())
}

// fakeClient starts a fake GitHub server and an MCP client of `engine
// mcp` over stdio pointed at it: the setup of most tests.
func fakeClient(t *testing.T) (*fakegithub.Server, *mcptest.Client) {
	t.Helper()
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	return fake, c
}

// httpServer starts `engine mcp --transport http` on a free loopback port
// and returns its endpoint URL.
func httpServer(t *testing.T, fake *fakegithub.Server, args ...string) string {
	t.Helper()
	u, _ := httpServerLog(t, fake, args...)
	return u
}

// httpServerLog is httpServer that also returns the server's stderr.
func httpServerLog(t *testing.T, fake *fakegithub.Server, args ...string) (string, *testutil.SyncBuffer) {
	t.Helper()
	return mcptest.FakeHTTP(t, fake, args...)
}

func apiRequests(fake *fakegithub.Server) int {
	n := 0
	for _, r := range fake.Requests() {
		if r.Path != "/rate_limit" {
			n++
		}
	}
	return n
}

// stdioServer is stdioClient for tests that measure the server: it also
// returns the server's process id (vmHWM).
func stdioServer(t *testing.T, fake *fakegithub.Server) (*mcptest.Client, int, *testutil.SyncBuffer) {
	t.Helper()
	return mcptest.StdioPID(t, testutil.FakeEnv(t, fake.URL()), serverArgs...)
}

// rawStdio runs `engine mcp` (stdio) against fake, writes lines (raw
// JSON-RPC frames) to it and returns what it answered on stdout.
func rawStdio(t *testing.T, fake *fakegithub.Server, lines ...string) string {
	t.Helper()
	out, _ := mcptest.RawStdio(t, testutil.FakeEnv(t, fake.URL()), lines, "\n", serverArgs...)
	return out
}

// vmHWM is a process's peak resident set in bytes (Linux /proc).
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	n, err := testutil.VmHWM(pid)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sizedQuery calls run_select_query with sql and returns the checked
// result, its text block and the size of the whole tool result (text and
// structuredContent) in bytes.
func sizedQuery(t *testing.T, c *mcptest.Client, sql string) (mcptest.Result, string, int) {
	t.Helper()
	res := c.CallRaw(t, "run_select_query", map[string]any{"sql": sql})
	sc, _ := json.Marshal(res.StructuredContent)
	text := res.Content[0].(*mcp.TextContent).Text
	return c.Check(t, "run_select_query", res), text, len(text) + len(sc)
}

// providerClient connects a client to `engine mcp` with the OpenAPI
// document doc as provider acme (--provider acme=FILE).
func providerClient(t *testing.T, doc string) *mcptest.Client {
	t.Helper()
	fake := fakegithub.New()
	t.Cleanup(fake.Close)
	c, _ := stdioClient(t, fake, nil, "--provider", "acme="+testutil.TempFile(t, "acme.json", doc))
	return c
}

// Two principals' tokens for --tokens-file.
var alice, bob = strings.Repeat("a1", 20), strings.Repeat("b2", 20)

// tokensFile writes a --tokens-file of content with mode.
func tokensFile(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	file := testutil.TempFile(t, "tokens", content)
	if err := os.Chmod(file, mode); err != nil {
		t.Fatal(err)
	}
	return file
}

// stdioCommand is the `engine mcp` (stdio) command against fake, with the
// further flags args, its stderr collected, for a test that connects to
// it its own way.
func stdioCommand(t *testing.T, fake *fakegithub.Server, args ...string) (*exec.Cmd, *testutil.SyncBuffer) {
	t.Helper()
	return mcptest.Command(t, testutil.FakeEnv(t, fake.URL()), append(append([]string{}, serverArgs...), args...)...)
}

// stdioClientWith is stdioClient with a client made with opts (handlers,
// capabilities) that asks for protocol version ("": the SDK's newest).
func stdioClientWith(t *testing.T, fake *fakegithub.Server, opts *mcp.ClientOptions, version string) *mcptest.Client {
	t.Helper()
	c, _, _ := mcptest.StdioWith(t, opts, version, testutil.FakeEnv(t, fake.URL()), serverArgs...)
	return c
}

// atOnce calls f(0) to f(n-1) concurrently and returns what each call
// returned, in order.
func atOnce[T any](n int, f func(i int) T) []T {
	out := make([]T, n)
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() {
			out[i] = f(i)
		})
	}
	wg.Wait()
	return out
}

// jsonrpcError is the JSON-RPC error err carries, or nil.
func jsonrpcError(err error) *jsonrpc.Error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	return nil
}
