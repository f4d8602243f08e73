package secrets

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// token is the secret under test; it must never leave the process except
// in the Authorization header.
const token = "ghp_SECRETS_SUITE_5b7e3a91c2d4f60817"

// echoPath is answered with a 403 whose body quotes the token, like a
// provider that echoes credentials in its errors.
const (
	echoPath = "^/orgs/acme/members$"
	echoSQL  = `SELECT login FROM github.orgs.members WHERE org = 'acme'`
	okSQL    = `SELECT name, private, topics FROM github.repos.repos WHERE org = 'acme' ORDER BY name`
)

// newFake requires the token and echoes it from echoPath.
func newFake(t *testing.T) *fakegithub.Server {
	t.Helper()
	fake := fakegithub.ForTest(t, fakegithub.WithToken(token))
	fake.Inject(fakegithub.Fault{Path: echoPath, Kind: fakegithub.KindStatus, Status: 403,
		Message: "Resource not accessible by integration (token " + token + ", Authorization: Bearer " + token + ")"})
	return fake
}

func env(t *testing.T, fake *fakegithub.Server, extra ...string) []string {
	return testutil.FakeEnv(t, fake.URL(), append([]string{"GITHUB_TOKEN=" + token}, extra...)...)
}

// outputs collects everything a surface printed or wrote.
type outputs struct {
	mu    sync.Mutex
	items map[string]string
}

func (o *outputs) add(label, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.items == nil {
		o.items = map[string]string{}
	}
	o.items[label] += text
}

func (o *outputs) run(label string, r testutil.Result) testutil.Result {
	o.add(label+" stdout", r.Stdout)
	o.add(label+" stderr", r.Stderr)
	return r
}

// callTool calls tool through cs, adds the raw JSON answer under label
// and returns it.
func (o *outputs) callTool(t *testing.T, cs *mcp.ClientSession, label, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(mcptest.Context(t), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	raw, _ := json.Marshal(res)
	o.add(label, string(raw))
	return res
}

// readResource reads uri through cs and adds the raw JSON answer under
// label.
func (o *outputs) readResource(t *testing.T, cs *mcp.ClientSession, label, uri string) {
	t.Helper()
	rr, err := cs.ReadResource(mcptest.Context(t), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	raw, _ := json.Marshal(rr)
	o.add(label, string(raw))
}

// addDir adds every file under dir (binary content included).
func (o *outputs) addDir(t *testing.T, label, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error { //nolint:errcheck
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		n++
		o.add(label+" "+p, string(b))
		return nil
	})
	return n
}

// assertClean fails for every output holding the token, and when there
// was little to scan (a vacuous pass).
func (o *outputs) assertClean(t *testing.T, minBytes int) {
	t.Helper()
	o.assertAbsent(t, "token", []string{token}, minBytes)
}

// assertNoPrefix fails when any output holds a prefix of the token of 8
// bytes or more (the redaction must happen before any cut).
func (o *outputs) assertNoPrefix(t *testing.T, minBytes int) {
	t.Helper()
	o.assertAbsent(t, "token prefix", []string{token[:8]}, minBytes)
}

// assertAbsent fails for every output holding any of secrets (named
// what), and when there was little to scan (a vacuous pass).
func (o *outputs) assertAbsent(t *testing.T, what string, secrets []string, minBytes int) {
	t.Helper()
	total := 0
	for label, text := range o.items {
		total += len(text)
		for _, secret := range secrets {
			if i := strings.Index(text, secret); i >= 0 {
				t.Errorf("%s in %s: ...%s...", what, label, text[max(0, i-80):min(len(text), i+len(secret)+40)])
				break
			}
		}
	}
	if total < minBytes {
		t.Errorf("only %d bytes of output scanned", total)
	}
	t.Logf("scanned %d outputs, %d bytes, for %d secrets", len(o.items), total, len(secrets))
}

// keyLines are the lines of a PEM private key that are secret (not the
// BEGIN and END lines).
func keyLines(pemText string) []string {
	var lines []string
	for _, line := range strings.Split(pemText, "\n") {
		if len(line) > 20 && !strings.HasPrefix(line, "-----") {
			lines = append(lines, line)
		}
	}
	return lines
}

// assertSent checks the fake received the token, so the scan is not vacuous.
func assertSent(t *testing.T, fake *fakegithub.Server) {
	t.Helper()
	for _, r := range fake.Requests() {
		if r.AuthHeader == "Bearer "+token {
			return
		}
	}
	t.Fatal("the token was never sent to the server")
}

// checkFiles are the files of a check run: the control file, and the job
// summary (GITHUB_STEP_SUMMARY) beside it in Dir.
type checkFiles struct{ Dir, Controls, Summary string }

// writeControls writes text as controls.yaml in a fresh temp dir.
func writeControls(t *testing.T, text string) checkFiles {
	t.Helper()
	dir := t.TempDir()
	f := checkFiles{Dir: dir, Controls: filepath.Join(dir, "controls.yaml"), Summary: filepath.Join(dir, "step-summary.md")}
	if err := os.WriteFile(f.Controls, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}
