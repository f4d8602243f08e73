package mcp_test

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// serverArgs are the flags every test server gets: the fake's auth and a
// short request timeout (testutil.FakeEnv adds small retry budgets, so
// that faults surface at once).
var serverArgs = []string{"mcp", "--auth", `{"github":{"type":"null_auth"}}`, "--request-timeout", "10s"}

// stdioClient starts `engine mcp` (stdio) against fake and connects a
// client through mcp.CommandTransport.
func stdioClient(t *testing.T, fake *fakegithub.Server, extraEnv []string, args ...string) (*mcptest.Client, *testutil.SyncBuffer) {
	t.Helper()
	cmd := exec.Command(testutil.EngineBinary(t), append(append([]string{}, serverArgs...), args...)...)
	cmd.Env = testutil.FakeEnv(t, fake.URL(), extraEnv...)
	c, _, stderr := mcptest.StartStdio(t, cmd)
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
	log := &testutil.SyncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, testutil.EngineBinary(t), append(append([]string{}, serverArgs...), append([]string{"--transport", "http", "--listen", "127.0.0.1:0"}, args...)...)...)
	cmd.Env = testutil.FakeEnv(t, fake.URL())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() }) //nolint:errcheck
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.Write([]byte(sc.Text() + "\n")) //nolint:errcheck
			select {
			case lines <- sc.Text():
			default:
			}
		}
		close(lines)
	}()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("engine mcp exited before listening")
			}
			if _, u, found := strings.Cut(l, "listening on "); found {
				go func() {
					for range lines {
					}
				}()
				return u, log
			}
		case <-deadline:
			t.Fatal("engine mcp did not report its address")
		}
	}
}

func httpClient(t *testing.T, endpoint string) *mcptest.Client {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", endpoint, err)
	}
	t.Cleanup(func() { cs.Close() })
	return mcptest.NewClient(t, cs)
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
