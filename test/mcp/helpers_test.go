package mcp_test

import (
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// serverFlags are the flags every test server gets: the fake's auth and
// a short request timeout (testutil.FakeEnv adds small retry budgets, so
// that faults surface at once); serverArgs run them over stdio.
var (
	serverFlags = []string{"--auth", `{"github":{"type":"null_auth"}}`, "--request-timeout", "10s"}
	serverArgs  = append([]string{"mcp"}, serverFlags...)
)

// stdioClient starts `engine mcp` (stdio) against fake and connects a
// client through mcp.CommandTransport.
func stdioClient(t *testing.T, fake *fakegithub.Server, extraEnv []string, args ...string) (*mcptest.Client, *testutil.SyncBuffer) {
	t.Helper()
	c, _, stderr := mcptest.Stdio(t, testutil.FakeEnv(t, fake.URL(), extraEnv...), append(append([]string{}, serverArgs...), args...)...)
	return c, stderr
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
	return mcptest.StartHTTP(t, testutil.FakeEnv(t, fake.URL()), append(append([]string{}, serverFlags...), args...)...)
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
