package testutil

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Started is an engine process running in the background (Start).
type Started struct {
	t              testing.TB
	cmd            *exec.Cmd
	ctx            context.Context
	stdout, stderr bytes.Buffer
}

// Start starts the engine binary with args and env in the background, for
// a test that acts while it runs; it is killed after within, or when the
// test ends. Wait collects it.
func Start(t testing.TB, within time.Duration, env []string, args ...string) *Started {
	t.Helper()
	return StartWithInput(t, within, env, "", args...)
}

// StartWithInput is Start with stdin: a script for the shell, say.
func StartWithInput(t testing.TB, within time.Duration, env []string, stdin string, args ...string) *Started {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	t.Cleanup(cancel)
	s := &Started{t: t, ctx: ctx, cmd: exec.CommandContext(ctx, EngineBinary(t), args...)}
	s.cmd.Env = env
	if stdin != "" {
		s.cmd.Stdin = strings.NewReader(stdin)
	}
	s.cmd.Stdout, s.cmd.Stderr = &s.stdout, &s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start engine %v: %v", args, err)
	}
	return s
}

// Wait waits for the process to exit and returns what it printed and its
// exit code; hung is true when it was killed for running past Start's
// bound.
func (s *Started) Wait() (res Result, hung bool) {
	s.t.Helper()
	err := s.cmd.Wait()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.Code = ee.ExitCode()
	case err != nil:
		s.t.Fatalf("wait for engine: %v", err)
	}
	res.Stdout, res.Stderr = s.stdout.String(), s.stderr.String()
	return res, s.ctx.Err() != nil
}

// Signal sends sig to the running engine.
func (s *Started) Signal(sig os.Signal) {
	s.t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("signal engine: %v", err)
	}
}

// StopSignals are the signals that must stop a run as Ctrl-C does:
// SIGTERM (what CI runners and container stops send) and SIGINT.
var StopSignals = []os.Signal{syscall.SIGTERM, os.Interrupt}

// SignalInFlight starts the engine with args and env, waits until
// inFlight reports its request in flight (a fake's Arrived), sends sig
// and returns what the run printed and its exit code; it fails the test
// when the run has not stopped 50 s later.
func SignalInFlight(t testing.TB, sig os.Signal, env []string, inFlight func() bool, args ...string) Result {
	t.Helper()
	p := Start(t, 50*time.Second, env, args...)
	for !inFlight() {
		time.Sleep(10 * time.Millisecond)
	}
	p.Signal(sig)
	r, hung := p.Wait()
	if hung {
		t.Fatalf("%s: the run did not stop\nstdout %q\nstderr %q", sig, r.Stdout, r.Stderr)
	}
	return r
}
