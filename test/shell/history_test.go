package shell

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"

	"github.com/enginehq/engine/test/testutil"
)

// TestHistoryStaysPrivatePastTheLimit: a history file past readline's
// 1,000 entries is rewritten when the shell opens it; under umask 000 the
// file must still be 0600 afterwards (and hold the newest entries).
func TestHistoryStaysPrivatePastTheLimit(t *testing.T) {
	_, env := fake(t)
	state := t.TempDir()
	env = append(env, "XDG_STATE_HOME="+state)
	hist := filepath.Join(state, "engine", "history")
	os.MkdirAll(filepath.Dir(hist), 0o700)
	var b strings.Builder
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&b, "SELECT %d;\n", i)
	}
	if err := os.WriteFile(hist, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	// umask 000, as some containers and CI runners have it.
	cmd := exec.Command("/bin/sh", "-c", `umask 000 && exec "$0" shell`, testutil.EngineBinary(t))
	cmd.Env = env
	tty, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, cmd: cmd, tty: tty, more: make(chan struct{}, 1), done: make(chan struct{}), eof: make(chan struct{})}
	go s.readLoop()
	go func() { s.err = cmd.Wait(); close(s.done) }()
	t.Cleanup(func() { cmd.Process.Kill(); tty.Close() })
	s.expect(prompt, wait)
	s.send("SELECT 'new entry' AS x;\r")
	s.expect("1 row", wait)
	s.expect(prompt, wait) // the next prompt: Ctrl-D sent before readline is back races the line discipline
	s.send(ctrlD)
	if code := s.waitExit(wait); code != 0 {
		t.Fatalf("exit %d", code)
	}
	data := readPrivate(t, hist)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) > 1001 || lines[len(lines)-1] != "SELECT 'new entry' AS x;" || !strings.Contains(string(data), "SELECT 1499;") || strings.Contains(string(data), "SELECT 499;\n") {
		t.Fatalf("history: %d lines, last %q", len(lines), lines[len(lines)-1])
	}
	entries, _ := os.ReadDir(filepath.Dir(hist))
	if len(entries) != 1 {
		t.Fatalf("history directory holds %v; want only the history file", entries)
	}
}

// readPrivate returns the contents of the file at path, which must be
// readable by its owner only (mode 0600).
func readPrivate(t *testing.T, path string) []byte {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s: mode %04o, want 0600", path, fi.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
