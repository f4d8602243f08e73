package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
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
	cmd, stderr := stdioCommand(t, fake, "--request-timeout", "60s")
	rec := &recording{Transport: &mcp.CommandTransport{Command: cmd}}
	cs := mcptest.Connect(t, rec, nil, "")

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
	_, c := fakeClient(t)
	r := c.Query(t, "SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name")
	if r.IsError || r.ResultURI == "" {
		t.Fatalf("%+v", r)
	}
	_, err := c.S.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: r.ResultURI + "?format=xml"})
	if je := jsonrpcError(err); je == nil || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "csv or json") {
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
		return mcptest.Connect(t, mcptest.HTTP(endpoint), nil, version)
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
	p := c.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": r.ResultID, "offset": 200, "limit": 2})
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
	out := rawStdio(t, fake,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3}`,
		`{"jsonrpc":"2.0","id":"x"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_select_query","arguments":{"sql":"SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny'"}}}`,
	)
	codes := map[string]string{}
	answered := false
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
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

// transports runs f once over stdio and once over streamable HTTP, each
// with a fresh server against fake and a real go-sdk client made with
// opts, connected at protocol version (the SDK's newest, 2026-07-28,
// when empty).
func transports(t *testing.T, fake *fakegithub.Server, opts *mcp.ClientOptions, version string, f func(t *testing.T, c *mcptest.Client)) {
	t.Helper()
	connect := func(t *testing.T, tr mcp.Transport) *mcptest.Client {
		t.Helper()
		return mcptest.NewClient(t, mcptest.Connect(t, tr, opts, version))
	}
	t.Run("stdio", func(t *testing.T) {
		cmd, _ := stdioCommand(t, fake)
		f(t, connect(t, &mcp.CommandTransport{Command: cmd}))
	})
	t.Run("http", func(t *testing.T) {
		f(t, connect(t, mcptest.HTTP(httpServer(t, fake))))
	})
}

// TestDeclaresExactlyWhatItServes: the server declares tools and
// resources (without listChanged: the lists never change), and the
// methods of capabilities it does not declare are "method not found"
// (-32601), on both transports and both protocol generations; the tasks
// extension is declared under 2026-07-28 only. Before the fix prompts/list answered an empty list and
// logging/setLevel succeeded with neither capability declared (the
// conformance suite: "server handles prompts but did not declare prompts
// capability").
func TestDeclaresExactlyWhatItServes(t *testing.T) {
	fake := fakegithub.ForTest(t)
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			transports(t, fake, nil, version, func(t *testing.T, c *mcptest.Client) {
				ctx := mcptest.Context(t)
				res := c.S.InitializeResult()
				if res.ProtocolVersion != version {
					t.Fatalf("negotiated %q, want %q", res.ProtocolVersion, version)
				}
				caps := res.Capabilities
				if caps == nil || caps.Tools == nil || caps.Resources == nil {
					t.Fatalf("capabilities %+v: want tools and resources", caps)
				}
				// The tasks extension is 2026-07-28's: an initialize
				// (2025-11-25 and earlier) does not declare it.
				want := `{"resources":{},"tools":{}}`
				if version >= "2026-07-28" {
					want = `{"extensions":{"io.modelcontextprotocol/tasks":{}},"resources":{},"tools":{}}`
				}
				b, _ := json.Marshal(caps)
				if string(b) != want {
					t.Fatalf("capabilities %s; want %s", b, want)
				}
				_, err := c.S.ListPrompts(ctx, nil)
				wantNotFound(t, "prompts/list", err)
				_, err = c.S.GetPrompt(ctx, &mcp.GetPromptParams{Name: "x"})
				wantNotFound(t, "prompts/get", err)
				// What is declared is served.
				if r := c.Query(t, "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny'"); r.IsError || fmt.Sprint(r.Rows) != "[[3]]" {
					t.Fatalf("%+v", r)
				}
				if _, err := c.S.ListResourceTemplates(ctx, nil); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func wantNotFound(t *testing.T, method string, err error) {
	t.Helper()
	if je := jsonrpcError(err); je == nil || je.Code != jsonrpc.CodeMethodNotFound {
		t.Fatalf("%s: got %v, want method not found (-32601)", method, err)
	}
}

// TestProtocol20260728 pins how the versions are negotiated, as the go-sdk
// does it: the legacy initialize handshake asking for 2026-07-28 is
// answered 2025-11-25 (2026-07-28 has no initialize: it is reached through
// server/discover, which lists it); logging/setLevel and
// completion/complete are "method not found" (no logging or completions
// capability); and a client that asks for 2026-07-28
// gets it over stdio too, statelessly: each request carries its protocol
// version in _meta, and a result_id made by one request is the handle
// another passes to fetch_result_page. Results that carry cache hints
// have the server's (before the fix: ttlMs 0, public, for all).
func TestProtocol20260728(t *testing.T) {
	fake := fakegithub.ForTest(t)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"info"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"x"},"argument":{"name":"a","value":"b"}}}`,
	}
	out := rawStdio(t, fake, lines...)
	got, codes := map[string]json.RawMessage{}, map[string]int64{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *jsonrpc.Error  `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		got[string(m.ID)] = m.Result
		if m.Error != nil {
			codes[string(m.ID)] = m.Error.Code
		}
	}
	if codes["3"] != jsonrpc.CodeMethodNotFound || codes["4"] != jsonrpc.CodeMethodNotFound {
		t.Fatalf("logging/setLevel and completion/complete without their capabilities: %s", out)
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(got["1"], &init); err != nil || init.ProtocolVersion != "2025-11-25" {
		t.Fatalf("initialize asking for 2026-07-28: %s", got["1"])
	}
	var disc struct {
		SupportedVersions []string       `json:"supportedVersions"`
		Capabilities      map[string]any `json:"capabilities"`
	}
	if err := json.Unmarshal(got["2"], &disc); err != nil || len(disc.SupportedVersions) == 0 || disc.SupportedVersions[0] != "2026-07-28" {
		t.Fatalf("server/discover: %s", got["2"])
	}
	if _, ok := disc.Capabilities["prompts"]; ok {
		t.Fatalf("server/discover declares prompts: %s", got["2"])
	}

	c, _ := stdioClient(t, fake, nil)
	cs := c.S
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" || cs.ID() != "" {
		t.Fatalf("stdio: version %q, session %q; want 2026-07-28 without a session", v, cs.ID())
	}
	r := c.Query(t, "SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name")
	if r.IsError || r.ResultID == "" {
		t.Fatalf("%+v", r)
	}
	p := c.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": r.ResultID, "offset": 248})
	if p.IsError || fmt.Sprint(p.Rows) != "[[repo-248] [repo-249]]" {
		t.Fatalf("page: %+v", p)
	}

	// The cache hints of 2026-07-28: the catalog is public and lasts 10
	// minutes; a kept result is private to its client, for --keep-for.
	if lt := c.ListTools(t); lt.TTLMs != 600000 || lt.CacheScope != "public" {
		t.Fatalf("tools/list cache hints: %d %q", lt.TTLMs, lt.CacheScope)
	}
	rr, err := cs.ReadResource(mcptest.Context(t), &mcp.ReadResourceParams{URI: r.ResultURI})
	if err != nil || rr.TTLMs != 1800000 || rr.CacheScope != "private" {
		t.Fatalf("resources/read cache hints: %v %+v", err, rr)
	}
}

// TestProgressCarriesTotal: when the plan knows a statement's first-page
// requests before it runs (no table takes its keys from another's rows),
// the progress notifications carry that number as total: a first one at
// 0 of 4, then one per page up to 4 of 4, on both transports. A
// statement whose fan-out depends on rows has no total. Before the fix
// no notification had a total.
func TestProgressCarriesTotal(t *testing.T) {
	fake := fakegithub.ForTest(t, fakegithub.WithRepos("p1", 5), fakegithub.WithRepos("p2", 5), fakegithub.WithRepos("p3", 5))
	var mu sync.Mutex
	got := map[any][]*mcp.ProgressNotificationParams{}
	opts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		got[r.Params.ProgressToken] = append(got[r.Params.ProgressToken], r.Params)
	}}
	transports(t, fake, opts, "", func(t *testing.T, c *mcptest.Client) {
		ctx := mcptest.Context(t)
		tok := t.Name()
		r := c.Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT count(*) AS n FROM github.repos.repos WHERE org IN ('tiny', 'p1', 'p2', 'p3')"}, tok)
		if r.IsError || fmt.Sprint(r.Rows) != "[[18]]" {
			t.Fatalf("%+v", r)
		}
		dep := c.Call(t, ctx, "run_select_query", map[string]any{"sql": "SELECT count(*) AS n FROM github.repos.repos r JOIN github.branches.branches b ON b.owner = json_extract(r.owner, '$.login') AND b.repo = r.name WHERE r.org = 'tiny'"}, tok+"-dep")
		if dep.IsError {
			t.Fatalf("%+v", dep)
		}
		// Notifications may trail the response (the client handles them
		// asynchronously; 2026-07-28 has no ping to order them): wait for
		// the last of each call.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			mu.Lock()
			ps, dps := got[tok], got[tok+"-dep"]
			mu.Unlock()
			if len(ps) > 0 && ps[len(ps)-1].Progress >= 4 && len(dps) > 0 {
				break
			}
		}
		mu.Lock()
		defer mu.Unlock()
		ps := got[tok]
		var seen []string
		for _, p := range ps {
			seen = append(seen, fmt.Sprintf("%g/%g %q", p.Progress, p.Total, p.Message))
		}
		if len(ps) != 5 || ps[0].Progress != 0 || ps[len(ps)-1].Progress != 4 {
			t.Fatalf("progress %v; want 0/4 first, then one per page up to 4/4", seen)
		}
		for i, p := range ps {
			if p.Total != 4 || p.Progress != float64(i) {
				t.Fatalf("progress %v; want %d/4 at %d", seen, i, i)
			}
		}
		dps := got[tok+"-dep"]
		if len(dps) == 0 {
			t.Fatal("no progress for the dependent statement")
		}
		for _, p := range dps {
			if p.Total != 0 {
				t.Fatalf("a statement whose requests depend on rows has total %g", p.Total)
			}
		}
	})
}

// TestSchemaViolationsAreUsage: arguments the input schema refuses (a
// missing, mistyped or extra property) are error results of the wire
// contract, kind usage, with structuredContent {"error": ...} and a
// message that names the arguments the tool takes, on both transports.
// Before the fix they were text-only errors without structuredContent.
func TestSchemaViolationsAreUsage(t *testing.T) {
	fake := fakegithub.ForTest(t)
	cases := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"run_select_query", map[string]any{}, []string{`missing properties: ["sql"]`, "it takes sql (string, required)"}},
		{"run_select_query", map[string]any{"sql": 42}, []string{"/properties/sql", "want \"string\"", "it takes sql (string, required)"}},
		{"run_select_query", map[string]any{"sql": "SELECT 1", "limit": 5}, []string{`additional properties ["limit"]`, "it takes sql (string, required)"}},
		{"fetch_result_page", map[string]any{"result_id": "x", "offset": "a"}, []string{"/properties/offset", "result_id (string, required), offset (integer), limit (integer)"}},
		{"describe_resource", map[string]any{"resource": 1}, []string{"/properties/resource", "resource (string, required), compact (boolean)"}},
	}
	transports(t, fake, nil, "", func(t *testing.T, c *mcptest.Client) {
		for _, tc := range cases {
			r := c.Call(t, mcptest.Context(t), tc.tool, tc.args)
			if !r.IsError || r.Error == nil || r.Error.Kind != "usage" || r.Error.Retryable {
				t.Fatalf("%s %v: %+v", tc.tool, tc.args, r)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.Error.Message, w) {
					t.Fatalf("%s %v: message %q lacks %q", tc.tool, tc.args, r.Error.Message, w)
				}
			}
		}
		// The server goes on serving.
		if r := c.Query(t, "SELECT 1 AS one"); r.IsError {
			t.Fatalf("%+v", r)
		}
	})
}

// TestDescribeHintLeadsSomewhere: describe_resource of a two-part name
// that is provider.service ("github.repos") says a table has three parts
// and names the call that lists the service's tables, and that call
// works; an unknown table of a known service points to that service's
// list, and an unknown service to list_services. Before the fix
// "github.repos" read as table "repos" of service "github" and the hint,
// list_resources(service="github"), was another error.
func TestDescribeHintLeadsSomewhere(t *testing.T) {
	_, c := fakeClient(t)
	ctx := mcptest.Context(t)
	r := c.Call(t, ctx, "describe_resource", map[string]any{"resource": "github.repos"})
	if !r.IsError || r.Error.Kind != "usage" || !strings.Contains(r.Error.Message, "three parts") ||
		!strings.Contains(r.Error.Message, `list_resources(provider="github", service="repos")`) {
		t.Fatalf("github.repos: %+v", r.Error)
	}
	if l := c.Call(t, ctx, "list_resources", map[string]any{"provider": "github", "service": "repos"}); l.IsError || !strings.Contains(l.Text, "github.repos.repos") {
		t.Fatalf("following the hint: %+v", l)
	}
	for _, tc := range []struct{ name, kind, want string }{
		{"github.nosuch", "usage", `list_services(provider="github")`},
		{"github.repos.nosuch", "plan", `list_resources(provider="github", service="repos")`},
		{"github.nosuch.repos", "plan", `list_services(provider="github")`},
		{"repos.repos", "", ""},
	} {
		r := c.Call(t, ctx, "describe_resource", map[string]any{"resource": tc.name})
		if tc.kind == "" {
			if r.IsError {
				t.Fatalf("%s: %+v", tc.name, r.Error)
			}
			continue
		}
		if !r.IsError || string(r.Error.Kind) != tc.kind || !strings.Contains(r.Error.Message, tc.want) {
			t.Fatalf("%s: %+v; want kind %s naming %s", tc.name, r.Error, tc.kind, tc.want)
		}
	}
}

// TestReadUnknownResultIsInvalidParams: resources/read of a result the
// server does not keep is invalid params (-32602, the code of the MCP
// specification and of the go-sdk since 1.7.0; docs/mcp.md), with the URI
// as data and a message that says to re-run the query, on both
// transports. Before the fix the message was a bare "Resource not found"
// and docs/mcp.md said -32002.
func TestReadUnknownResultIsInvalidParams(t *testing.T) {
	fake := fakegithub.ForTest(t)
	transports(t, fake, nil, "", func(t *testing.T, c *mcptest.Client) {
		uri := "engine://results/0123456789abcdef01"
		_, err := c.S.ReadResource(mcptest.Context(t), &mcp.ReadResourceParams{URI: uri})
		if je := jsonrpcError(err); je == nil || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "re-run the query") || !strings.Contains(string(je.Data), uri) {
			t.Fatalf("resources/read of an unknown result: %#v", err)
		}
	})
}

// TestSchemasArePortable: every schema in a tool's input and output
// schema that describes values (an items or a property schema) names one
// type, or is an anyOf of branches that each name one: no boolean
// schemas, which strict validators refuse, and no type arrays such as
// ["null", "array"], which single-type dialects cannot take (the MCP
// Inspector's --strict reports both; with this it reports nothing, on
// both transports). Before the fix the rows of run_select_query and
// fetch_result_page had "items": true, and their columns and rows were
// ["null", "array"].
func TestSchemasArePortable(t *testing.T) {
	_, c := fakeClient(t)
	for _, tool := range c.ListTools(t).Tools {
		for which, s := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			if s == nil {
				continue
			}
			b, _ := json.Marshal(s)
			var v any
			json.Unmarshal(b, &v) //nolint:errcheck
			if bad := unportable(v, "#"); bad != "" {
				t.Errorf("%s %s schema: %s", tool.Name, which, bad)
			}
		}
	}
	// An empty result has [] rows, as the schema says (mcptest validates
	// every structuredContent against it).
	r := c.Query(t, "SELECT name FROM github.repos.repos WHERE org = 'tiny' AND name = 'none'")
	if rows, ok := r.Raw["rows"].([]any); r.IsError || !ok || len(rows) != 0 || r.ResultID == "" {
		t.Fatalf("empty result: %+v", r)
	}
	if p := c.Call(t, mcptest.Context(t), "fetch_result_page", map[string]any{"result_id": r.ResultID}); p.IsError {
		t.Fatalf("page of an empty result: %+v", p)
	}
}

// unportable describes the first value schema under v (an items, a
// property or an anyOf branch) that does not name exactly one type, or
// returns "".
func unportable(v any, path string) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	typed := func(s any, at string) string {
		o, ok := s.(map[string]any)
		if !ok {
			return at + " is not a schema object"
		}
		if branches, ok := o["anyOf"].([]any); ok && o["type"] == nil {
			for i, b := range branches {
				bo, ok := b.(map[string]any)
				if !ok {
					return fmt.Sprintf("%s/anyOf/%d is not a schema object", at, i)
				}
				if _, one := bo["type"].(string); !one {
					return fmt.Sprintf("%s/anyOf/%d names no single type", at, i)
				}
			}
			return ""
		}
		if _, one := o["type"].(string); !one {
			return fmt.Sprintf("%s has type %v, not one named type", at, o["type"])
		}
		return unportable(o, at)
	}
	if it, ok := m["items"]; ok {
		if bad := typed(it, path+"/items"); bad != "" {
			return bad
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for name, p := range props {
			if bad := typed(p, path+"/properties/"+name); bad != "" {
				return bad
			}
		}
	}
	return ""
}

// TestServerInfoVersion: serverInfo.version names the same build as
// `engine --version` ("engine VERSION (revision ...) go... os/arch"), so
// an agent's log and the CLI agree on what ran.
func TestServerInfoVersion(t *testing.T) {
	_, c := fakeClient(t)
	info := c.S.InitializeResult().ServerInfo
	cli := testutil.Run(t, testutil.Env(t), "", "--version")
	if info == nil || info.Name != "engine" || info.Version == "" || !strings.HasPrefix(cli.Stdout, "engine "+info.Version+" go") {
		t.Fatalf("serverInfo %+v; engine --version %q", info, cli.Stdout)
	}
}
