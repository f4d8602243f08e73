package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// recording wraps a client transport and keeps every response the server
// sends, including those the SDK client drops (the answer to a call it
// has cancelled), and the ids of the tools/call requests it sent.
type recording struct {
	mcp.Transport
	mu        sync.Mutex
	calls     []jsonrpc.ID
	responses []*jsonrpc.Response
}

type recordingConn struct {
	mcp.Connection
	r *recording
}

func (r *recording) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, r: r}, nil
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if resp, ok := m.(*jsonrpc.Response); ok {
		c.r.mu.Lock()
		c.r.responses = append(c.r.responses, resp)
		c.r.mu.Unlock()
	}
	return m, err
}

func (c *recordingConn) Write(ctx context.Context, m jsonrpc.Message) error {
	if req, ok := m.(*jsonrpc.Request); ok && req.Method == "tools/call" {
		c.r.mu.Lock()
		c.r.calls = append(c.r.calls, req.ID)
		c.r.mu.Unlock()
	}
	return c.Connection.Write(ctx, m)
}

// response waits for the server's answer to the last tools/call sent.
func (r *recording) response(t *testing.T, within time.Duration) *jsonrpc.Response {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		if n := len(r.calls); n > 0 {
			id := r.calls[n-1]
			for _, resp := range r.responses {
				if resp.ID == id {
					r.mu.Unlock()
					return resp
				}
			}
		}
		r.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no answer to the cancelled tools/call within %v", within)
	return nil
}

// inFlight gives a call time to reach the fake's slowed endpoint (the
// fake logs a request only when it answers), so that a cancellation lands
// while the query waits for the API.
func inFlight() { time.Sleep(time.Second) }

// TestCancelledCallIsKindCancelled: a tool call cancelled by the client
// (the SDK sends notifications/cancelled) is answered with kind
// "cancelled", retryable false, not as a retryable timeout; the server
// then serves the next call. Before the fix the answer was
// {"kind":"timeout","retryable":true}.
func TestCancelledCallIsKindCancelled(t *testing.T) {
	fake := fakegithub.ForTest(t)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindSlow, Delay: 20 * time.Second})
	cmd := exec.Command(testutil.EngineBinary(t), append(append([]string{}, serverArgs...), "--request-timeout", "60s")...)
	cmd.Env = testutil.FakeEnv(t, fake.URL())
	stderr := &testutil.SyncBuffer{}
	cmd.Stderr = stderr
	rec := &recording{Transport: &mcp.CommandTransport{Command: cmd}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "engine-tests", Version: "1"}, nil).Connect(context.Background(), rec, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr)
	}
	defer cs.Close()

	start, err := cancelledCall(cs, "SELECT count(*) FROM github.repos.repos WHERE org = 'acme'", inFlight)
	if err == nil {
		t.Fatal("the cancelled call returned no error to the client")
	}
	resp := rec.response(t, 10*time.Second)
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the answer to the cancelled call took %v (the API request is slowed by 20 s)", took)
	}
	if resp.Error != nil {
		t.Fatalf("answered with a protocol error: %v", resp.Error)
	}
	var res struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Error struct {
				Kind      string `json:"kind"`
				Retryable *bool  `json:"retryable"`
			} `json:"error"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatalf("%v: %s", err, resp.Result)
	}
	e := res.StructuredContent.Error
	if !res.IsError || e.Kind != "cancelled" || e.Retryable == nil || *e.Retryable {
		t.Fatalf("answer to a cancelled call: %s", resp.Result)
	}
	if !strings.Contains(stderr.String(), "kind=cancelled") {
		t.Fatalf("server log: %s", stderr)
	}
	fake.ClearFaults()
	c := mcptest.NewClient(t, cs)
	if r := c.Query(t, "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny'"); r.IsError || fmt.Sprint(r.Rows) != "[[3]]" {
		t.Fatalf("next call: %+v", r)
	}
}

// TestResourceBadFormatIsInvalidParams: resources/read of a kept result
// with an unknown ?format= is a JSON-RPC invalid-params error (-32602)
// that names the formats served; before the fix it was code 0.
func TestResourceBadFormatIsInvalidParams(t *testing.T) {
	fake := fakegithub.ForTest(t)
	c, _ := stdioClient(t, fake, nil)
	r := c.Query(t, "SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name")
	if r.IsError || r.ResultURI == "" {
		t.Fatalf("%+v", r)
	}
	_, err := c.S.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: r.ResultURI + "?format=xml"})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "csv or json") {
		t.Fatalf("resources/read ?format=xml: %#v", err)
	}
	got, err := c.S.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: r.ResultURI + "?format=csv"})
	if err != nil || len(got.Contents) != 1 || got.Contents[0].Text != "name\nalpha\nbeta\ngamma\n" {
		t.Fatalf("resources/read ?format=csv: %v %+v", err, got)
	}
}

// TestHTTPServes20260728Statelessly: a go-sdk client speaking 2026-07-28
// over HTTP gets that protocol (server/discover, no session) instead of
// falling back to 2025-11-25; kept results are shared with it; closing
// the POST of a slow call cancels the query at once (the server logs
// kind=cancelled long before the 20 s API delay ends); and a client
// asking for 2025-11-25 still gets a session.
func TestHTTPServes20260728Statelessly(t *testing.T) {
	fake := fakegithub.ForTest(t)
	endpoint, log := httpServerLog(t, fake, "--request-timeout", "60s")
	connect := func(version string) *mcp.ClientSession {
		t.Helper()
		var opts *mcp.ClientSessionOptions
		if version != "" {
			opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, opts)
		if err != nil {
			t.Fatalf("connect %s with %q: %v", endpoint, version, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}

	cs := connect("2026-07-28")
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %q over HTTP, want 2026-07-28", v)
	}
	if cs.ID() != "" {
		t.Fatalf("2026-07-28 got session %q", cs.ID())
	}
	c := mcptest.NewClient(t, cs)
	r := c.Query(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name")
	if r.IsError || r.RowCount != 250 || r.ResultID == "" {
		t.Fatalf("%+v", r)
	}
	p := c.Call(t, context.Background(), "fetch_result_page", map[string]any{"result_id": r.ResultID, "offset": 200, "limit": 2})
	if p.IsError || fmt.Sprint(p.Rows) != "[[repo-200] [repo-201]]" {
		t.Fatalf("page: %+v", p)
	}

	fake.Inject(fakegithub.Fault{Path: "^/orgs/tiny/repos$", Kind: fakegithub.KindSlow, Delay: 20 * time.Second})
	start, _ := cancelledCall(cs, "SELECT count(*) FROM github.repos.repos WHERE org = 'tiny'", inFlight)
	for !strings.Contains(log.String(), "kind=cancelled") {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("closing the POST did not cancel the query within 5 s; server log:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	fake.ClearFaults()

	old := connect("2025-11-25")
	if v := old.InitializeResult().ProtocolVersion; v != "2025-11-25" || old.ID() == "" {
		t.Fatalf("2025-11-25: version %q, session %q", v, old.ID())
	}
	if r := mcptest.NewClient(t, old).Query(t, "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny'"); r.IsError || fmt.Sprint(r.Rows) != "[[3]]" {
		t.Fatalf("2025-11-25 call: %+v", r)
	}
}

// TestStdioIDOnlyFrameIsInvalidRequest: {"jsonrpc":"2.0","id":3} has no
// method (not a request) and neither result nor error (not a response):
// it is answered -32600 with its id, as docs/mcp.md says, and the
// session goes on. Before the fix it got no answer at all.
func TestStdioIDOnlyFrameIsInvalidRequest(t *testing.T) {
	fake := fakegithub.ForTest(t)
	cmd := exec.Command(testutil.EngineBinary(t), serverArgs...)
	cmd.Env = testutil.FakeEnv(t, fake.URL())
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3}`,
		`{"jsonrpc":"2.0","id":"x"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_select_query","arguments":{"sql":"SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny'"}}}`,
	}, "\n") + "\n")
	var stderr testutil.SyncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	codes := map[string]string{}
	answered := false
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m struct {
			ID     any             `json:"id"`
			Error  *jsonrpc.Error  `json:"error"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout line not JSON: %q", l)
		}
		if m.Error != nil {
			codes[fmt.Sprint(m.ID)] = fmt.Sprint(m.Error.Code)
		}
		if fmt.Sprint(m.ID) == "4" && strings.Contains(string(m.Result), `"rows":[[3]]`) {
			answered = true
		}
	}
	if codes["3"] != "-32600" || codes["x"] != "-32600" {
		t.Fatalf("error codes by id %v, want -32600 for ids 3 and x; stdout:\n%s", codes, out)
	}
	if !answered {
		t.Fatalf("the call after the invalid frames was not answered:\n%s", out)
	}
}

// cancelledCall calls run_select_query with sql, cancels the call once
// inFlight returns (its request has reached the fake), and returns when it
// cancelled and the error the client got.
func cancelledCall(cs *mcp.ClientSession, sql string, inFlight func()) (time.Time, error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_select_query", Arguments: map[string]any{"sql": sql}})
		done <- err
	}()
	inFlight()
	start := time.Now()
	cancel()
	return start, <-done
}
