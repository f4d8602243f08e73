package load

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// raceBinary builds ./cmd/engine with the race detector (once).
var raceBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "engine-race-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "engine")
	cmd := exec.Command("go", "build", "-race", "-o", bin, "./cmd/engine")
	cmd.Dir = testutil.RepoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build -race: %v\n%s", err, out)
	}
	return bin, nil
})

// server is a running `engine mcp --transport http`.
type server struct {
	endpoint string
	pid      int
	stderr   *testutil.SyncBuffer
	stop     func()
}

// startServer runs bin as an HTTP MCP server on a free loopback port
// against fake and waits for the address it reports.
func startServer(t *testing.T, bin string, fake *fakegithub.Server) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "mcp", "--transport", "http", "--listen", "127.0.0.1:0", "--request-timeout", "20s")
	// Deliberately more retries than testutil.FastRetry: under the suite's
	// load a transient failure is retried, as in production, rather than
	// reported as a failed call.
	cmd.Env = testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN=ghp_load_suite_token", "ENGINE_RETRY_MAX=2", "ENGINE_MAX_RETRY_WAIT=5s")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{pid: cmd.Process.Pid, stderr: &testutil.SyncBuffer{}}
	addr := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pipe)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(s.stderr, line)
			if _, u, ok := strings.Cut(line, "listening on "); ok {
				select {
				case addr <- u:
				default:
				}
			}
		}
	}()
	s.stop = sync.OnceFunc(func() {
		cmd.Process.Signal(os.Interrupt) //nolint:errcheck
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cancel()
			<-done
		}
		cmd.Wait() //nolint:errcheck
		cancel()
	})
	t.Cleanup(s.stop)
	select {
	case s.endpoint = <-addr:
	case <-done:
		t.Fatalf("the server exited before listening:\n%s", s.stderr)
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not report its address")
	}
	return s
}
