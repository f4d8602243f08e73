package files

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestSIGTERMLeavesNoTempFiles: exec, shell (script mode), check and mcp,
// stopped with SIGTERM in the middle of a slow request, exit promptly and
// leave nothing of theirs in TMPDIR.
func TestSIGTERMLeavesNoTempFiles(t *testing.T) {
	gh := fakegithub.ForTest(t)
	gh.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindSlow, Delay: time.Minute})
	q := `SELECT count(*) FROM github.repos.repos WHERE org = 'acme'`
	// A control selects the rows (an aggregate without GROUP BY is one
	// row whatever the data: a problem of the file, docs/check.md).
	controls := testutil.TempFile(t, "controls.yaml", "controls:\n  - id: slow\n    sql: SELECT name FROM github.repos.repos WHERE org = 'acme'\n")
	mcpInput := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_select_query","arguments":{"sql":"` + q + `"}}}
`
	cases := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"exec", []string{"exec", q}, ""},
		{"shell", []string{"shell"}, q + ";\n"},
		{"check", []string{"check", controls}, ""},
		{"mcp", []string{"mcp"}, mcpInput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			env := testutil.FakeEnv(t, gh.URL(), "TMPDIR="+tmp)
			want := gh.Started() + 1
			cmd := exec.Command(testutil.EngineBinary(t), c.args...)
			cmd.Env = env
			stdinR, stdinW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdinW.Close()
			cmd.Stdin = stdinR
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			stdinR.Close()
			stdinW.WriteString(c.stdin) // stdin stays open: mcp keeps serving
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Wait until the slow request is in flight.
			if n := gh.WaitStarted(want, 20*time.Second); n < want {
				cmd.Process.Kill()
				t.Fatalf("the query never reached the server; stderr:\n%s", stderr.String())
			}
			time.Sleep(100 * time.Millisecond)
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("still running 15 s after SIGTERM")
			}
			entries, _ := os.ReadDir(tmp)
			var left []string
			for _, e := range entries {
				left = append(left, e.Name())
			}
			if len(left) > 0 {
				t.Fatalf("TMPDIR holds %s after SIGTERM", strings.Join(left, ", "))
			}
		})
	}
}
