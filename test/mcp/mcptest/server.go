package mcptest

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/testutil"
)

// Command is the engine binary run with args and env, its stderr
// collected in the buffer returned.
func Command(t testing.TB, env []string, args ...string) (*exec.Cmd, *testutil.SyncBuffer) {
	t.Helper()
	cmd := exec.Command(testutil.EngineBinary(t), args...)
	cmd.Env = env
	stderr := &testutil.SyncBuffer{}
	cmd.Stderr = stderr
	return cmd, stderr
}

// StartStdio starts cmd (an `engine ... mcp` command with its Env set),
// connects a client to it over stdio (mcp.CommandTransport), and closes
// the session when the test ends. The server's stderr is collected.
func StartStdio(t testing.TB, cmd *exec.Cmd) (*Client, *mcp.ClientSession, *testutil.SyncBuffer) {
	t.Helper()
	stderr := &testutil.SyncBuffer{}
	cmd.Stderr = stderr
	return startStdio(t, cmd, stderr, nil, "")
}

// Stdio runs the engine binary with args (which include the `mcp`
// subcommand and any global flags) and env, and connects a client over
// stdio as StartStdio does.
func Stdio(t testing.TB, env []string, args ...string) (*Client, *mcp.ClientSession, *testutil.SyncBuffer) {
	t.Helper()
	return StdioWith(t, nil, "", env, args...)
}

// StdioWith is Stdio with a client made with opts (handlers,
// capabilities) that asks for protocol version ("": the SDK's newest).
func StdioWith(t testing.TB, opts *mcp.ClientOptions, version string, env []string, args ...string) (*Client, *mcp.ClientSession, *testutil.SyncBuffer) {
	t.Helper()
	cmd, stderr := Command(t, env, args...)
	return startStdio(t, cmd, stderr, opts, version)
}

// StdioPID is Stdio that also returns the server's process id (for
// measuring its memory: testutil.VmHWM).
func StdioPID(t testing.TB, env []string, args ...string) (*Client, int, *testutil.SyncBuffer) {
	t.Helper()
	cmd, stderr := Command(t, env, args...)
	c, _, _ := startStdio(t, cmd, stderr, nil, "")
	return c, cmd.Process.Pid, stderr
}

func startStdio(t testing.TB, cmd *exec.Cmd, stderr *testutil.SyncBuffer, opts *mcp.ClientOptions, version string) (*Client, *mcp.ClientSession, *testutil.SyncBuffer) {
	t.Helper()
	cs, err := Dial(t, &mcp.CommandTransport{Command: cmd}, opts, version)
	if err != nil {
		t.Fatalf("connect to engine mcp: %v\nstderr: %s", err, stderr)
	}
	return NewClient(t, cs), cs, stderr
}

// RawStdio runs the engine binary with args and env, writes lines (raw
// JSON-RPC frames) to its stdin, each ended by eol ("\n", or "\r\n"
// as some clients write), and returns what it wrote to stdout and to
// stderr once it has exited.
func RawStdio(t testing.TB, env, lines []string, eol string, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd, errOut := Command(t, env, args...)
	cmd.Stdin = strings.NewReader(strings.Join(lines, eol) + eol)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	return string(out), errOut.String()
}

// HTTPArgs start `engine mcp` over streamable HTTP on a free loopback
// port (the server reports it: ServeHTTP).
var HTTPArgs = []string{"mcp", "--transport", "http", "--listen", "127.0.0.1:0"}

// HTTPServer is a running HTTP MCP server.
type HTTPServer struct {
	Endpoint string
	PID      int
	// Log is the server's stderr, collected while it runs.
	Log *testutil.SyncBuffer
	// Stop interrupts the server and waits for it to exit (killing it
	// after 10 s). Without it, the server is killed when the test ends.
	Stop func()
}

// ServeHTTP runs program with args and env: an HTTP MCP server that
// reports "listening on URL" on stderr (the engine binary with HTTPArgs,
// or a wrapper that execs it). It waits for that address; the server is
// killed when the test ends.
func ServeHTTP(t testing.TB, program string, env []string, args ...string) *HTTPServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Env = env
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &HTTPServer{PID: cmd.Process.Pid, Log: &testutil.SyncBuffer{}}
	addr, exited := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(pipe)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			s.Log.Write([]byte(sc.Text() + "\n")) //nolint:errcheck
			if _, u, ok := strings.Cut(sc.Text(), "listening on "); ok {
				select {
				case addr <- u:
				default:
				}
			}
		}
		io.Copy(s.Log, pipe) //nolint:errcheck // a line too long for the scanner: keep reading, so that the server never blocks on stderr
	}()
	var once sync.Once
	end := func(graceful bool) {
		once.Do(func() {
			if graceful {
				cmd.Process.Signal(os.Interrupt) //nolint:errcheck
				select {
				case <-exited:
				case <-time.After(10 * time.Second):
				}
			}
			cancel()
			<-exited   // all of its stderr is in Log
			cmd.Wait() //nolint:errcheck
		})
	}
	s.Stop = func() { end(true) }
	t.Cleanup(func() { end(false) })
	select {
	case s.Endpoint = <-addr:
		return s
	case <-exited:
		select {
		case s.Endpoint = <-addr:
			return s
		default:
		}
		t.Fatalf("%s exited before listening:\n%s", program, s.Log)
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not report its address:\n%s", program, s.Log)
	}
	return nil
}

// PeakRSS is the server's peak resident set in bytes so far
// (testutil.VmHWM).
func (s *HTTPServer) PeakRSS(t testing.TB) int64 {
	t.Helper()
	n, err := testutil.VmHWM(s.PID)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// StartHTTP starts `engine mcp --transport http` on a free loopback port
// with env and the further flags args, waits for the address it reports
// and returns its endpoint URL and the server's stderr (collected while it
// runs). The server is stopped when the test ends.
func StartHTTP(t testing.TB, env []string, args ...string) (string, *testutil.SyncBuffer) {
	t.Helper()
	s := ServeHTTP(t, testutil.EngineBinary(t), env, append(append([]string{}, HTTPArgs...), args...)...)
	return s.Endpoint, s.Log
}

// HTTP is the streamable HTTP client transport to endpoint, without
// reconnection retries.
func HTTP(endpoint string) *mcp.StreamableClientTransport {
	return &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}
}

// ConnectHTTP connects a client to an HTTP endpoint (no reconnection
// retries) and closes the session when the test ends.
func ConnectHTTP(t testing.TB, endpoint string) *Client {
	t.Helper()
	return NewClient(t, Connect(t, HTTP(endpoint), nil, ""))
}

// Connect connects a real go-sdk client made with opts (nil: none) over
// tr, asking for protocol version ("": the SDK's newest), and closes the
// session when the test ends. The handshake must end within
// ConnectTimeout.
func Connect(t testing.TB, tr mcp.Transport, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	cs, err := Dial(t, tr, opts, version)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}

// ConnectTimeout bounds Connect.
const ConnectTimeout = 2 * time.Minute

// Dial is Connect that returns the error of a connection that fails
// instead of failing the test.
func Dial(t testing.TB, tr mcp.Transport, opts *mcp.ClientOptions, version string) (*mcp.ClientSession, error) {
	var so *mcp.ClientSessionOptions
	if version != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	ctx, cancel := context.WithTimeout(context.Background(), ConnectTimeout)
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "engine-tests", Version: "1"}, opts).Connect(ctx, tr, so)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cs.Close() })
	return cs, nil
}

// AppExtension is the MCP Apps extension (docs/mcp.md, "Interactive
// view"), AppMIME the type of its views.
const (
	AppExtension = "io.modelcontextprotocol/ui"
	AppMIME      = "text/html;profile=mcp-app"
)

// AppsHost is the options of a client that declares the MCP Apps
// extension, as a host that renders views does, when declare is true (and
// of one that declares nothing otherwise).
func AppsHost(declare bool) *mcp.ClientOptions {
	caps := &mcp.ClientCapabilities{}
	if declare {
		caps.AddExtension(AppExtension, map[string]any{"mimeTypes": []string{AppMIME}})
	}
	return &mcp.ClientOptions{Capabilities: caps}
}
