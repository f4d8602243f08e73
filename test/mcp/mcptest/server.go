package mcptest

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/testutil"
)

// StartStdio starts cmd (an `engine ... mcp` command with its Env set),
// connects a client to it over stdio (mcp.CommandTransport), and closes
// the session when the test ends. The server's stderr is collected.
func StartStdio(t testing.TB, cmd *exec.Cmd) (*Client, *mcp.ClientSession, *testutil.SyncBuffer) {
	t.Helper()
	stderr := &testutil.SyncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "engine-tests", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to engine mcp: %v\nstderr: %s", err, stderr)
	}
	t.Cleanup(func() { cs.Close() })
	return NewClient(t, cs), cs, stderr
}

// Stdio runs the engine binary with args (which include the `mcp`
// subcommand and any global flags) and env, and connects a client over
// stdio as StartStdio does.
func Stdio(t testing.TB, env []string, args ...string) (*Client, *mcp.ClientSession, *testutil.SyncBuffer) {
	t.Helper()
	cmd := exec.Command(testutil.EngineBinary(t), args...)
	cmd.Env = env
	return StartStdio(t, cmd)
}

// StartHTTP starts `engine mcp --transport http` on a free loopback port
// with env and the further flags args, waits for the address it reports
// and returns its endpoint URL and the server's stderr (collected while it
// runs). The server is stopped when the test ends.
func StartHTTP(t testing.TB, env []string, args ...string) (string, *testutil.SyncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, testutil.EngineBinary(t), append([]string{"mcp", "--transport", "http", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = env
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() }) //nolint:errcheck
	log := &testutil.SyncBuffer{}
	addr, exited := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			log.Write([]byte(sc.Text() + "\n")) //nolint:errcheck
			if _, u, ok := strings.Cut(sc.Text(), "listening on "); ok {
				select {
				case addr <- u:
				default:
				}
			}
		}
	}()
	select {
	case u := <-addr:
		return u, log
	case <-exited:
		select {
		case u := <-addr:
			return u, log
		default:
		}
		t.Fatalf("engine mcp exited before listening:\n%s", log)
	case <-time.After(30 * time.Second):
		t.Fatalf("engine mcp did not report its address:\n%s", log)
	}
	return "", nil
}

// ConnectHTTP connects a client to an HTTP endpoint (no reconnection
// retries) and closes the session when the test ends.
func ConnectHTTP(t testing.TB, endpoint string) *Client {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", endpoint, err)
	}
	t.Cleanup(func() { cs.Close() })
	return NewClient(t, cs)
}
