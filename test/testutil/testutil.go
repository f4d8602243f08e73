// Package testutil builds the engine binary once per test process and runs
// it as a user would (a subprocess with its own environment), for the
// end-to-end tests of every surface: FakeEnv is the environment of a run
// against a fake server (FastRetry, or RetryOnce where a test retries),
// Run runs the binary, Contains checks its output.
package testutil

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/enginehq/engine/registry"
)

// binary is a program of the repository built once per test process
// (build): the engine, the fake GitHub server.
type binary struct {
	once sync.Once
	path string
	err  error
}

// build builds the package pkg (e.g. "./cmd/engine") into a temp
// dir as name the first time it is called and returns its path, or fails
// the test with go build's output.
func (b *binary) build(t testing.TB, pkg, name string) string {
	t.Helper()
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", name+"-bin-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, name)
		cmd := exec.Command("go", "build", "-o", b.path, pkg)
		cmd.Dir = RepoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = errors.New("go build " + pkg + ": " + err.Error() + "\n" + string(out))
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

var engineBin, fakeBin binary

// RepoRoot returns the module root (the directory holding go.mod).
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// EngineBinary builds ./cmd/engine once and returns its path. With
// ENGINE_BIN set, that binary is used instead.
func EngineBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("ENGINE_BIN"); p != "" {
		return p
	}
	return engineBin.build(t, "./cmd/engine", "engine")
}

// Result is what a run of the binary produced.
type Result struct {
	Stdout, Stderr string
	Code           int
	CPU            time.Duration // user + system time of the process
}

// Env is a clean environment for the binary: no tokens from the caller's
// environment, HOME and XDG dirs in a temp dir, the response cache off
// (so that every run really asks the server; cache tests turn it on with
// ENGINE_NO_CACHE=), the rate-limit governor off (ENGINE_GOVERNOR=off: the fake
// models GitHub's limiter only when asked; test/ratelimit turns it on and
// tests it), plus extra (later entries win).
func Env(t testing.TB, extra ...string) []string {
	t.Helper()
	home := t.TempDir()
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
		"TERM=dumb",
		"ENGINE_NO_CACHE=1",
		"ENGINE_GOVERNOR=off", // test/ratelimit turns the rate-limit governor on
	}
	return append(env, extra...)
}

// Run runs the engine binary with args and env, with stdin, bounded by a
// generous timeout.
func Run(t testing.TB, env []string, stdin string, args ...string) Result {
	t.Helper()
	return RunIn(t, "", env, stdin, args...)
}

// RunIn is Run in the working directory dir ("": the test's).
func RunIn(t testing.TB, dir string, env []string, stdin string, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, EngineBinary(t), args...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin = bytes.NewBufferString(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("run engine %v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return Result{Stdout: out.String(), Stderr: errb.String(), Code: code, CPU: cpu}
}

// SyncBuffer collects a subprocess's output; it is safe to write from one
// goroutine while another reads.
type SyncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// FakeGitHub starts the fake GitHub server as its own process (built
// once, without the race detector) on a free loopback port and returns
// its URL; it is stopped when the test ends. Suites that move hundreds of
// megabytes of JSON use it: the in-process server (fakegithub.New) runs
// inside the race-instrumented test binary, where generating that much
// JSON takes minutes. Use fakegithub.New for faults and the request log.
func FakeGitHub(t testing.TB, args ...string) string {
	t.Helper()
	fakePath := fakeBin.build(t, "./test/fakegithub/cmd/fakegithub", "fakegithub")
	cmd := exec.Command(fakePath, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "fakegithub listening on "); ok {
				urls <- strings.TrimSpace(u)
			}
		}
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("the fake GitHub server did not report its address")
	}
	return ""
}

// VmHWM is a running process's peak resident set in bytes, read from
// /proc/PID/status (Linux). It counts only the process's own address
// space; a child's rusage maxrss would also carry the peak of the process
// that started it (os/exec starts children with vfork).
func VmHWM(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	if kb, ok := kilobytesAfter(string(b), "VmHWM:"); ok {
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}

// DebugPeakMemory reads the engine's peak resident set in bytes from the
// line `--debug` prints at exit ("debug: peak memory N kB (VmHWM)"), exact
// for a process too short-lived to be polled.
func DebugPeakMemory(stderr string) (int64, bool) {
	kb, ok := kilobytesAfter(stderr, "debug: peak memory ")
	return kb << 10, ok
}

// kilobytesAfter parses "N kB" after the first line that starts with
// prefix.
func kilobytesAfter(text, prefix string) (int64, bool) {
	for _, l := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(l, prefix); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err == nil {
				return kb, true
			}
		}
	}
	return 0, false
}

// FastRetry are the retry settings of every run against a fake server: no
// retries and a short wait budget, so that an injected fault surfaces at
// once instead of after the defaults' backoff (4 retries within 60s). A
// test that exercises retrying appends its own ENGINE_RETRY_MAX /
// ENGINE_MAX_RETRY_WAIT after them (later entries win) and says why.
var FastRetry = []string{"ENGINE_RETRY_MAX=0", "ENGINE_MAX_RETRY_WAIT=2s"}

// RetryOnce replaces FastRetry in suites whose faults fail once (Times: 1)
// and must be retried: one retry within 3s.
var RetryOnce = []string{"ENGINE_RETRY_MAX=1", "ENGINE_MAX_RETRY_WAIT=3s"}

// FakeEnv is Env pointed at a fake server: ENGINE_BASE_URL_GITHUB=baseURL
// and FastRetry, plus extra (later entries win).
func FakeEnv(t testing.TB, baseURL string, extra ...string) []string {
	t.Helper()
	return FastEnv(t, append([]string{"ENGINE_BASE_URL_GITHUB=" + baseURL}, extra...)...)
}

// FastEnv is Env with FastRetry, plus extra (later entries win), for runs
// whose server comes from elsewhere (a config file's base URL).
func FastEnv(t testing.TB, extra ...string) []string {
	t.Helper()
	return Env(t, append(append([]string{}, FastRetry...), extra...)...)
}

// RSAKey generates a 2048-bit RSA key (a GitHub App's private key) and
// writes it as PKCS#1 PEM to a file in a temp dir; it returns the key, the
// file's path and the PEM text.
func RSAKey(t testing.TB) (*rsa.PrivateKey, string, string) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pemText := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	return key, TempFile(t, "app.pem", pemText), pemText
}

// TempFile writes content to a file named name (mode 0600) in a fresh
// temp dir of the test and returns its path; it fails the test if the
// file cannot be written.
func TempFile(t testing.TB, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Contains reports an error for each of wants that text (named what in
// the message) lacks, and whether it holds them all; a caller that cannot
// go on without them calls t.FailNow when it returns false.
func Contains(t testing.TB, what, text string, wants ...string) bool {
	t.Helper()
	ok := true
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%.4000s", what, w, text)
			ok = false
		}
	}
	return ok
}

// ProfileSection returns a section of a built-in provider profile
// (registry/profiles/NAME.json), e.g. ProfileSection(t, "github", "auth",
// "app"), as JSON, so that package tests use the profile's data rather
// than a copy.
func ProfileSection(t testing.TB, name string, keys ...string) []byte {
	t.Helper()
	data, ok := registry.BuiltinProfile(name)
	if !ok {
		t.Fatalf("no built-in profile %s", name)
	}
	for _, k := range keys {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil || m[k] == nil {
			t.Fatalf("profile %s: no section %q (%v)", name, k, err)
		}
		data = m[k]
	}
	return data
}

// RepoFile is the content of a file of the repository (rel is relative to
// its root, slash-separated), or the test fails.
func RepoFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(RepoRoot(), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// RepoDocs are the repository's Markdown pages, README.md then
// docs/*.md, relative to its root.
func RepoDocs(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(RepoRoot(), "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	out := []string{"README.md"}
	for _, f := range files {
		out = append(out, "docs/"+filepath.Base(f))
	}
	return out
}

// WriteRepoFile replaces a file of the repository (an -update flag's
// rewrite of a golden copy or of a document's generated part).
func WriteRepoFile(t testing.TB, rel string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(RepoRoot(), filepath.FromSlash(rel)), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
