package testutil

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Redis is a redis-server started on a loopback port (StartRedis,
// LaunchRedis), in a temporary directory, without persistence.
type Redis struct {
	Addr string // 127.0.0.1:PORT
	cmd  *exec.Cmd
	done chan struct{}
	// password is --requirepass's, sent by Do.
	password string
	dir      string // its --dir, removed by Close
}

// URL is the --state value of the server (database 0).
func (r *Redis) URL() string { return "redis://" + r.Addr + "/0" }

// StartRedis starts a redis-server for the test (LaunchRedis), with the
// further arguments extra (e.g. "--requirepass", "PW"); the test's
// cleanup stops it. A machine without redis-server fails the test,
// saying how to install it (never a skip).
func StartRedis(t testing.TB, extra ...string) *Redis {
	t.Helper()
	var stderr io.Writer // redis-server's own complaints, with -v
	if testing.Verbose() {
		stderr = os.Stderr
	}
	r, err := launchRedis(stderr, extra...)
	if err != nil {
		t.Fatalf("%v, then run the tests again", err)
	}
	t.Cleanup(r.Close)
	return r
}

// LaunchRedis starts a redis-server on a free loopback port, in a
// temporary directory, with the further arguments extra, and waits until
// it answers PING; Close stops it and removes the directory. It is
// StartRedis for a program without a test (test/bench).
func LaunchRedis(extra ...string) (*Redis, error) { return launchRedis(nil, extra...) }

// launchRedis is LaunchRedis with the server's stderr sent to stderr
// (nil: discarded); its log (--logfile "") goes to its discarded stdout.
func launchRedis(stderr io.Writer, extra ...string) (*Redis, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New("redis-server is not on PATH: install it as .ci/run does (apt-get update && apt-get install -y redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	dir, err := os.MkdirTemp("", "engine-redis-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--logfile", ""}, extra...)...)
	if stderr != nil {
		cmd.Stderr = stderr
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting redis-server: %v", err)
	}
	r := &Redis{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), cmd: cmd, done: make(chan struct{}), dir: dir}
	for i := 0; i+1 < len(extra); i++ {
		if extra[i] == "--requirepass" {
			r.password = extra[i+1]
		}
	}
	go func() { cmd.Wait(); close(r.done) }() //nolint:errcheck // the exit is expected
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := r.Ping(); err == nil {
			return r, nil
		} else if time.Now().After(deadline) {
			r.Close()
			return nil, fmt.Errorf("redis-server on %s did not answer within 10s: %v", r.Addr, err)
		}
		select {
		case <-r.done:
			r.Close()
			return nil, fmt.Errorf("redis-server exited at start (port %d taken?)", port)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Close kills the server (Kill) and removes its directory.
func (r *Redis) Close() {
	r.Kill()
	os.RemoveAll(r.dir)
}

// Ping sends PING and expects PONG.
func (r *Redis) Ping() error {
	_, err := r.Do("PING")
	return err
}

// Do sends one command (inline form, arguments without spaces) and returns
// its first reply line.
func (r *Redis) Do(args ...string) (string, error) {
	c, err := net.DialTimeout("tcp", r.Addr, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second)) //nolint:errcheck
	br := bufio.NewReader(c)
	if r.password != "" {
		if _, err := fmt.Fprintf(c, "AUTH %s\r\n", r.password); err != nil {
			return "", err
		}
		if _, err := br.ReadString('\n'); err != nil {
			return "", err
		}
	}
	if _, err := fmt.Fprintf(c, "%s\r\n", strings.Join(args, " ")); err != nil {
		return "", err
	}
	line, err := br.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if strings.HasPrefix(line, "-") {
		return "", fmt.Errorf("redis: %s", line[1:])
	}
	return line, nil
}

// Kill stops the server at once (SIGKILL) and waits for it to exit.
func (r *Redis) Kill() {
	if r.cmd.Process == nil {
		return
	}
	r.cmd.Process.Signal(syscall.SIGCONT) //nolint:errcheck // a frozen one too
	r.cmd.Process.Signal(syscall.SIGKILL) //nolint:errcheck // it may have exited
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
	}
}

// Freeze stops the server (SIGSTOP) without closing its port: calls to it
// hang, as to an overloaded server, until Thaw.
func (r *Redis) Freeze() { r.cmd.Process.Signal(syscall.SIGSTOP) } //nolint:errcheck // it may have exited

// Thaw resumes a frozen server (SIGCONT).
func (r *Redis) Thaw() { r.cmd.Process.Signal(syscall.SIGCONT) } //nolint:errcheck // it may have exited

// Keys returns the keys matching pattern (KEYS: a test's server is small).
func (r *Redis) Keys(pattern string) ([]string, error) {
	c, err := net.DialTimeout("tcp", r.Addr, time.Second)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second)) //nolint:errcheck
	br := bufio.NewReader(c)
	if r.password != "" {
		if _, err := fmt.Fprintf(c, "AUTH %s\r\n", r.password); err != nil {
			return nil, err
		}
		if _, err := br.ReadString('\n'); err != nil {
			return nil, err
		}
	}
	if _, err := fmt.Fprintf(c, "KEYS %s\r\n", pattern); err != nil {
		return nil, err
	}
	line, err := br.ReadString('\n')
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "*")))
	if err != nil {
		return nil, fmt.Errorf("redis KEYS: unexpected answer %q", line)
	}
	keys := make([]string, 0, n)
	for i := 0; i < n; i++ {
		if _, err := br.ReadString('\n'); err != nil { // $len
			return nil, err
		}
		k, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		keys = append(keys, strings.TrimRight(k, "\r\n"))
	}
	return keys, nil
}
