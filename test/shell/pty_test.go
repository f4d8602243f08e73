package shell

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/enginehq/engine/test/testutil"
)

// session is the engine shell running on a pseudo-terminal.
type session struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	raw  bytes.Buffer
	more chan struct{} // signalled after each read
	mark int           // expect() searches the cleaned output from here
	done chan struct{} // closed when the process has exited
	err  error         // exit status, valid after done
	eof  chan struct{} // closed when all the terminal's output is read
}

// startShell runs `engine shell args...` on a 120x40 terminal.
func startShell(t *testing.T, env []string, args ...string) *session {
	t.Helper()
	cmd := exec.Command(testutil.EngineBinary(t), append([]string{"shell"}, args...)...)
	cmd.Env = env
	return startPTY(t, cmd)
}

// startPTY runs cmd (its Env set) on a 120x40 terminal.
func startPTY(t *testing.T, cmd *exec.Cmd) *session {
	t.Helper()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, cmd: cmd, tty: tty, more: make(chan struct{}, 1), done: make(chan struct{}), eof: make(chan struct{})}
	go s.readLoop()
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			_ = cmd.Process.Kill()
			<-s.done
		}
		tty.Close()
		if t.Failed() {
			t.Logf("terminal output:\n%s", s.text())
		}
	})
	return s
}

func (s *session) readLoop() {
	defer close(s.eof)
	buf := make([]byte, 4096)
	for {
		n, err := s.tty.Read(buf)
		if n > 0 {
			s.mu.Lock()
			s.raw.Write(buf[:n])
			s.mu.Unlock()
			select {
			case s.more <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]|\r`)

// text is the terminal output so far without escape sequences and CRs.
func (s *session) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansi.ReplaceAllString(s.raw.String(), "")
}

// rawText is the terminal output as written, escape sequences included.
func (s *session) rawText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw.String()
}

// expect waits until want appears after the previous match and returns
// the output between them (inclusive).
func (s *session) expect(want string, within time.Duration) string {
	s.t.Helper()
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		out := s.text()
		if i := strings.Index(out[s.mark:], want); i >= 0 {
			seg := out[s.mark : s.mark+i+len(want)]
			s.mark += i + len(want)
			return seg
		}
		select {
		case <-s.more:
		case <-s.done:
			// the process ended; take what is left once more
			if out := s.text(); strings.Contains(out[s.mark:], want) {
				continue
			}
			s.t.Fatalf("shell exited (%v) before %q appeared", s.err, want)
		case <-deadline.C:
			s.t.Fatalf("%q did not appear within %v", want, within)
		}
	}
}

func (s *session) send(keys string) {
	s.t.Helper()
	if _, err := io.WriteString(s.tty, keys); err != nil {
		s.t.Fatal(err)
	}
}

// waitExit waits for the process to end and returns its exit code.
func (s *session) waitExit(within time.Duration) int {
	s.t.Helper()
	select {
	case <-s.done:
	case <-time.After(within):
		s.t.Fatalf("shell still running after %v", within)
	}
	// The process has ended; what it wrote last may still be in the
	// terminal: read to its end (the terminal closes with the process).
	select {
	case <-s.eof:
	case <-time.After(5 * time.Second):
	}
	if ee, ok := s.err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if s.err != nil {
		s.t.Fatal(s.err)
	}
	return 0
}

const (
	prompt       = "engine> "
	ready        = "\n" + prompt // a fresh prompt (readline repaints "engine> ..." on every key)
	continuation = "   ...> "
	ctrlC        = "\x03"
	ctrlD        = "\x04"
	up           = "\x1b[A"
	wait         = 15 * time.Second
)
