// Package exec_test runs the built engine binary's exec subcommand against
// the fake GitHub server, asserting exact rows, exit codes and errors.
package exec_test

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// fake serves every test of the package; it ends with the test process.
var fake = fakegithub.New()

const token = "ghp_TESTTOKEN1234567890secret"

// execEnv points the engine at the fake server with a token and
// testutil.RetryOnce (the suite injects faults that fail once and must be
// retried), so other faults surface fast.
func execEnv(t *testing.T, extra ...string) []string {
	return execEnvOn(t, fake, extra...)
}

// execEnvOn is execEnv pointed at s.
func execEnvOn(t *testing.T, s *fakegithub.Server, extra ...string) []string {
	e := append([]string{"GITHUB_TOKEN=" + token}, testutil.RetryOnce...)
	return testutil.FakeEnv(t, s.URL(), append(e, extra...)...)
}

func run(t *testing.T, args ...string) testutil.Result {
	t.Helper()
	r := testutil.Run(t, execEnv(t), "", append([]string{"exec"}, args...)...)
	if strings.Contains(r.Stdout+r.Stderr, token) {
		t.Fatalf("token leaked in output of %v", args)
	}
	return r
}
