// Package exec_test runs the built engine binary's exec subcommand against
// the fake GitHub server, asserting exact rows, exit codes and errors.
package exec_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

var fake *fakegithub.Server

func TestMain(m *testing.M) {
	fake = fakegithub.New()
	code := m.Run()
	fake.Close()
	os.Exit(code)
}

const token = "ghp_TESTTOKEN1234567890secret"

// execEnv points the engine at the fake server with a token and a small
// retry budget, so faults surface fast.
func execEnv(t *testing.T, extra ...string) []string {
	return testutil.Env(t, append([]string{
		"ENGINE_BASE_URL_GITHUB=" + fake.URL(),
		"GITHUB_TOKEN=" + token,
		"ENGINE_RETRY_MAX=1",
		"ENGINE_MAX_RETRY_WAIT=3s",
	}, extra...)...)
}

func run(t *testing.T, args ...string) testutil.Result {
	t.Helper()
	r := testutil.Run(t, execEnv(t), "", append([]string{"exec"}, args...)...)
	if strings.Contains(r.Stdout+r.Stderr, token) {
		t.Fatalf("token leaked in output of %v", args)
	}
	return r
}

func jsonRows(t *testing.T, r testutil.Result) []map[string]any {
	t.Helper()
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &rows); err != nil {
		t.Fatalf("stdout is not a JSON array: %v\n%s\nstderr: %s", err, r.Stdout, r.Stderr)
	}
	return rows
}
