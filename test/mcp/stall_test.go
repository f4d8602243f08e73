package mcp_test

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// startHTTPLimited starts `engine mcp --transport http` with at most
// nofile open files (the shell's ulimit) and returns its endpoint.
func startHTTPLimited(t *testing.T, fake *fakegithub.Server, nofile int, args ...string) string {
	t.Helper()
	argv := append([]string{"-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, nofile), testutil.EngineBinary(t)}, mcptest.HTTPArgs...)
	return mcptest.ServeHTTP(t, "sh", testutil.FakeEnv(t, fake.URL()), append(append(argv, serverFlags...), args...)...).Endpoint
}

// TestStalledClientsDoNotLockOut: 300 clients that send a request's
// headers and then stall (the body never comes) do not lock a real
// client out of a server limited to 256 open files: the server serves at
// most --max-connections at once (the rest wait in the listen queue,
// holding none of its files), and --http-read-timeout disconnects a
// client that stalls. Before the fix only the header read had a timeout:
// the stalled connections were held forever, the server ran out of files
// and the real client was never answered.
func TestStalledClientsDoNotLockOut(t *testing.T) {
	fake := fakegithub.ForTest(t)
	endpoint := startHTTPLimited(t, fake, 256, "--http-read-timeout", "2s")
	u, _ := url.Parse(endpoint)
	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for i := 0; i < 300; i++ {
		c, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
		if err != nil {
			t.Fatalf("stalled client %d: %v", i, err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{", u.Path, u.Host)
	}
	start := time.Now()
	done := make(chan mcptest.Result, 1)
	go func() {
		c := mcptest.ConnectHTTP(t, endpoint)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		done <- c.Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT 1 AS one"})
	}()
	select {
	case r := <-done:
		if r.IsError || len(r.Rows) != 1 || r.Rows[0][0] != float64(1) {
			t.Fatalf("real client: %+v", r)
		}
		t.Logf("real client answered %v after 300 stalled clients", time.Since(start).Round(100*time.Millisecond))
	case <-time.After(100 * time.Second):
		t.Fatal("the real client was not answered: stalled clients lock it out")
	}
}
