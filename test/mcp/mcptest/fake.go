package mcptest

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// FakeFlags are the flags of a server against a fake GitHub: the fake's
// auth and a short request timeout (testutil.FakeEnv adds small retry
// budgets, so that faults surface at once).
var FakeFlags = []string{"--auth", `{"github":{"type":"null_auth"}}`, "--request-timeout", "10s"}

// FakeHTTP starts `engine mcp --transport http` against fake with
// FakeFlags and the further flags args, as StartHTTP does.
func FakeHTTP(t testing.TB, fake *fakegithub.Server, args ...string) (string, *testutil.SyncBuffer) {
	t.Helper()
	return StartHTTP(t, testutil.FakeEnv(t, fake.URL()), append(append([]string{}, FakeFlags...), args...)...)
}

// FakeSession starts a fake GitHub (fakegithub.ForTest), `engine mcp
// --transport http` against it (FakeHTTP, with the further flags args)
// and connects a client made with opts; the session closes when the
// test ends.
func FakeSession(t testing.TB, opts *mcp.ClientOptions, args ...string) *mcp.ClientSession {
	t.Helper()
	endpoint, log := FakeHTTP(t, fakegithub.ForTest(t), args...)
	cs, err := Dial(t, HTTP(endpoint), opts, "")
	if err != nil {
		t.Fatalf("connect %s: %v\n%s", endpoint, err, log)
	}
	return cs
}
