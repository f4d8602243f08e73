package load

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
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

// engine is the binary under test, or one built from the same source
// with the race detector.
func engine(t *testing.T, race bool) string {
	if !race {
		return testutil.EngineBinary(t)
	}
	bin, err := raceBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// startServer runs bin as an HTTP MCP server on a free loopback port
// against fake and waits for the address it reports.
func startServer(t *testing.T, bin string, fake *fakegithub.Server) *mcptest.HTTPServer {
	t.Helper()
	// Deliberately more retries than testutil.FastRetry: under the suite's
	// load a transient failure is retried, as in production, rather than
	// reported as a failed call.
	env := testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN=ghp_load_suite_token", "ENGINE_RETRY_MAX=2", "ENGINE_MAX_RETRY_WAIT=5s")
	return mcptest.ServeHTTP(t, bin, env, append(append([]string{}, mcptest.HTTPArgs...), "--request-timeout", "20s")...)
}

// stopClean stops srv and fails the test if its stderr reports a data
// race or a panic.
func stopClean(t *testing.T, srv *mcptest.HTTPServer) {
	t.Helper()
	srv.Stop()
	if s := srv.Log.String(); strings.Contains(s, "DATA RACE") || strings.Contains(s, "panic") {
		t.Errorf("server stderr:\n%.8000s", s)
	}
}
