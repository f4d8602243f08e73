package mcp_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// rawClient speaks JSON-RPC over the streamable HTTP transport under
// protocol 2026-07-28 (stateless: each request carries its version and
// capabilities in _meta); the go-sdk client cannot speak tasks.
type rawClient struct {
	url   string
	tasks bool   // declare the tasks extension
	token string // bearer token, if any
	id    atomic.Int64
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func (c *rawClient) call(t *testing.T, method string, params map[string]any) (map[string]any, *rpcError) {
	t.Helper()
	caps := map[string]any{}
	if c.tasks {
		caps["extensions"] = map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}
	}
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "tasks-test", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": caps,
	}
	id := c.id.Add(1)
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	req, _ := http.NewRequest("POST", c.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if n, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", n)
	}
	if n, ok := params["taskId"].(string); ok {
		req.Header.Set("Mcp-Name", n)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	var msg struct {
		ID     int64           `json:"id"`
		Result map[string]any  `json:"result"`
		Error  *rpcError       `json:"error"`
		Method string          `json:"method"`
		Raw    json.RawMessage `json:"-"`
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			msg.ID, msg.Method = 0, ""
			if json.Unmarshal([]byte(data), &msg) == nil && msg.ID == id && msg.Method == "" {
				return msg.Result, msg.Error
			}
		}
		t.Fatalf("%s: no answer in the event stream (HTTP %d)", method, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatalf("%s: HTTP %d: %v", method, resp.StatusCode, err)
	}
	return msg.Result, msg.Error
}

func (c *rawClient) query(t *testing.T, sql string) (map[string]any, *rpcError) {
	t.Helper()
	return c.call(t, "tools/call", map[string]any{"name": "run_select_query", "arguments": map[string]any{"sql": sql}})
}

// poll calls tasks/get until the task leaves "working".
func (c *rawClient) poll(t *testing.T, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		r, e := c.call(t, "tasks/get", map[string]any{"taskId": id})
		if e != nil {
			t.Fatalf("tasks/get: %+v", e)
		}
		if r["taskId"] != id || r["resultType"] != "complete" {
			t.Fatalf("tasks/get answered %v", r)
		}
		if r["status"] != "working" {
			return r
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("task %s still working after 30 s", id)
	return nil
}

func errCode(e *rpcError) int {
	if e == nil {
		return 0
	}
	return e.Code
}

// TestTasks: a client that declares the tasks extension gets
// run_select_query as a task (created at once, polled to completion, the
// same result a plain call gives inlined in tasks/get); a cancelled task
// stops its API request; unknown ids are -32602; a client that does not
// declare the extension gets plain calls and -32021 from tasks/*; the
// server runs at most --max-tasks at once.
func TestTasks(t *testing.T) {
	fake := fakegithub.ForTest(t)
	url := httpServer(t, fake, "--max-tasks", "1", "--request-timeout", "90s")
	tc := &rawClient{url: url, tasks: true}
	plain := &rawClient{url: url}

	disc, e := tc.call(t, "server/discover", map[string]any{})
	if e != nil {
		t.Fatalf("server/discover: %+v", e)
	}
	if ext, _ := disc["capabilities"].(map[string]any)["extensions"].(map[string]any); ext["io.modelcontextprotocol/tasks"] == nil {
		t.Fatalf("the tasks extension is not advertised: %v", disc["capabilities"])
	}

	const sql = "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny'"
	want, e := plain.query(t, sql)
	if e != nil || want["resultType"] == "task" || want["taskId"] != nil || want["isError"] == true {
		t.Fatalf("plain call: %v %+v", want, e)
	}
	if _, e := plain.call(t, "tasks/get", map[string]any{"taskId": "x"}); errCode(e) != -32021 {
		t.Fatalf("tasks/get without the extension: %+v, want -32021", e)
	}
	if _, e := plain.call(t, "tasks/cancel", map[string]any{"taskId": "x"}); errCode(e) != -32021 {
		t.Fatalf("tasks/cancel without the extension: %+v, want -32021", e)
	}

	created, e := tc.query(t, sql)
	if e != nil || created["resultType"] != "task" || created["status"] != "working" || created["taskId"] == nil || created["content"] != nil {
		t.Fatalf("task call: %v %+v", created, e)
	}
	id := created["taskId"].(string)
	done := tc.poll(t, id)
	if done["status"] != "completed" || done["error"] != nil {
		t.Fatalf("task: %v", done)
	}
	got, _ := done["result"].(map[string]any)
	if fmt.Sprint(got["structuredContent"].(map[string]any)["rows"]) != fmt.Sprint(want["structuredContent"].(map[string]any)["rows"]) ||
		got["content"].([]any)[0].(map[string]any)["text"] == nil {
		t.Fatalf("task result %v, plain call %v", got, want)
	}
	if r, e := tc.call(t, "tasks/cancel", map[string]any{"taskId": id}); e != nil || r["resultType"] != "complete" || r["status"] != nil {
		t.Fatalf("cancel of a finished task: %v %+v", r, e)
	}
	if again := tc.poll(t, id); again["status"] != "completed" {
		t.Fatalf("a finished task changed on cancel: %v", again)
	}

	for _, m := range []string{"tasks/get", "tasks/cancel"} {
		if _, e := tc.call(t, m, map[string]any{"taskId": "no-such-task"}); errCode(e) != -32602 {
			t.Fatalf("%s of an unknown task: %+v, want -32602", m, e)
		}
	}
	for _, m := range []string{"tasks/result", "tasks/list"} {
		if _, e := tc.call(t, m, map[string]any{"taskId": id}); errCode(e) != -32601 {
			t.Fatalf("%s (not in the extension): %+v, want -32601", m, e)
		}
	}

	// A slow statement: the bound, then cancellation.
	// Its second page is slowed: tasks/get shows the first one fetched
	// ("1 of 1 planned pages fetched").
	fake.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Page: 2, Kind: fakegithub.KindSlow, Delay: 60 * time.Second})
	slow, e := tc.query(t, "SELECT count(*) FROM github.repos.repos WHERE org = 'acme'")
	if e != nil || slow["resultType"] != "task" {
		t.Fatalf("slow task: %v %+v", slow, e)
	}
	sid := slow["taskId"].(string)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r, e := tc.call(t, "tasks/get", map[string]any{"taskId": sid})
		if e != nil || r["status"] != "working" {
			t.Fatalf("slow task: %v %+v", r, e)
		}
		if m, _ := r["statusMessage"].(string); strings.HasPrefix(m, "1 ") && strings.HasSuffix(m, " fetched") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slow task's progress: %v", r)
		}
	}
	if r, e := tc.query(t, sql); e == nil || !strings.Contains(e.Message, "--max-tasks 1") {
		t.Fatalf("a task over the bound: %v %+v", r, e)
	}
	if r, e := plain.query(t, sql); e != nil || r["isError"] == true {
		t.Fatalf("a plain call while the tasks are full: %v %+v", r, e)
	}
	n := len(fake.Requests())
	if r, e := tc.call(t, "tasks/cancel", map[string]any{"taskId": sid}); e != nil || r["resultType"] != "complete" {
		t.Fatalf("cancel: %v %+v", r, e)
	}
	if r := tc.poll(t, sid); r["status"] != "cancelled" || r["result"] != nil {
		t.Fatalf("cancelled task: %v", r)
	}
	// The fake logs a request when its handler ends: the slowed one ends
	// when the engine aborts it, not after its 60 s. (Page 3, fetched
	// beside it, may end after the cancel too: look for the slowed one.)
	slowed := func(q fakegithub.Request) bool { return q.Fault == fakegithub.KindSlow }
	for deadline := time.Now().Add(10 * time.Second); !slices.ContainsFunc(fake.Requests()[n:], slowed); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the slowed request was not aborted by tasks/cancel: %+v", fake.Requests()[n:])
		}
	}
	// The bound is free again.
	if r, e := tc.query(t, sql); e != nil || r["resultType"] != "task" {
		t.Fatalf("a task after the cancel: %v %+v", r, e)
	}
}

// TestTasksBelongToTheirPrincipal: another principal's task is unknown
// to a client (-32602), for tasks/get as for tasks/cancel.
func TestTasksBelongToTheirPrincipal(t *testing.T) {
	fake := fakegithub.ForTest(t)
	file := tokensFile(t, "alice "+alice+"\nbob "+bob+"\n", 0o600)
	url := httpServer(t, fake, "--tokens-file", file)
	a, b := &rawClient{url: url, tasks: true, token: alice}, &rawClient{url: url, tasks: true, token: bob}
	r, e := a.query(t, "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny'")
	if e != nil || r["resultType"] != "task" {
		t.Fatalf("alice's task: %v %+v", r, e)
	}
	id := r["taskId"].(string)
	for _, m := range []string{"tasks/get", "tasks/cancel"} {
		if _, e := b.call(t, m, map[string]any{"taskId": id}); errCode(e) != -32602 {
			t.Fatalf("bob's %s of alice's task: %+v, want -32602", m, e)
		}
	}
	if done := a.poll(t, id); done["status"] != "completed" {
		t.Fatalf("alice's task after bob's cancel: %v", done)
	}
}

// TestTasksNotForLegacySessions: the tasks extension's envelope is of
// protocol 2026-07-28. A client of 2025-11-25 or earlier that declares
// the extension in its initialize capabilities (MCP Inspector 2.12 does
// by default, on both transports) gets run_select_query's plain
// CallToolResult, with structured content, over stdio and HTTP; its
// initialize answer does not advertise the extension, and tasks/get in
// such a session is -32601.
func TestTasksNotForLegacySessions(t *testing.T) {
	fake := fakegithub.ForTest(t)
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension("io.modelcontextprotocol/tasks", map[string]any{})
	opts := &mcp.ClientOptions{Capabilities: caps}
	endpoint := httpServer(t, fake)
	const sql = "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny'"
	for _, v := range []string{"2025-11-25", "2025-06-18"} {
		for _, transport := range []string{"stdio", "http"} {
			var c *mcptest.Client
			if transport == "stdio" {
				c = stdioClientWith(t, fake, opts, v)
			} else {
				c = mcptest.NewClient(t, mcptest.Connect(t, mcptest.HTTP(endpoint), opts, v))
			}
			if got := c.S.InitializeResult().ProtocolVersion; got != v {
				t.Fatalf("%s: negotiated %s, want %s", transport, got, v)
			}
			if ext := c.S.InitializeResult().Capabilities.Extensions; ext["io.modelcontextprotocol/tasks"] != nil {
				t.Errorf("%s %s: initialize advertises the tasks extension: %v", transport, v, ext)
			}
			res := c.CallRaw(t, "run_select_query", map[string]any{"sql": sql})
			if res.IsError || res.StructuredContent == nil || len(res.Content) == 0 {
				b, _ := json.Marshal(res)
				t.Fatalf("%s %s: run_select_query of a client declaring the tasks extension answered %s, want a plain result", transport, v, b)
			}
			if r := c.Check(t, "run_select_query", res); r.RowCount != 1 {
				t.Fatalf("%s %s: %+v", transport, v, r)
			}
		}
	}
	out := rawStdio(t, fake,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"x"}}`)
	var got struct {
		Error *rpcError `json:"error"`
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, `"id":2`) {
			json.Unmarshal([]byte(line), &got) //nolint:errcheck
		}
	}
	if errCode(got.Error) != -32601 {
		t.Fatalf("tasks/get in a 2025-11-25 session: %s", out)
	}
}

// TestHTTPJSONRPCErrors: over HTTP, errors of the protocol are JSON-RPC
// errors, as over stdio. An unknown method in a 2025-11-25 session is
// -32601 with the call's id (the SDK answered HTTP 400 with a plain-text
// body); under 2026-07-28, tasks/get and tasks/cancel whose Mcp-Name
// differs from the taskId are HTTP 400 with -32020, as every other
// header mismatch (they were -32020 inside HTTP 200).
func TestHTTPJSONRPCErrors(t *testing.T) {
	fake := fakegithub.ForTest(t)
	endpoint := httpServer(t, fake)

	resp, body := rawPost(t, endpoint, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	h := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	if resp, body := rawPost(t, endpoint, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h); resp.StatusCode/100 != 2 {
		t.Fatalf("initialized: %d %s", resp.StatusCode, body)
	}
	decode := func(body string) (id any, e *rpcError) {
		var msg struct {
			ID    any       `json:"id"`
			Error *rpcError `json:"error"`
		}
		data := body
		if i := strings.Index(body, "data: "); i >= 0 { // an event stream
			data = strings.SplitN(body[i+len("data: "):], "\n", 2)[0]
		}
		if err := json.Unmarshal([]byte(data), &msg); err != nil {
			t.Fatalf("not JSON-RPC: %q", body)
		}
		return msg.ID, msg.Error
	}
	for _, m := range []string{"no/such-method", "tasks/result"} {
		resp, body := rawPost(t, endpoint, `{"jsonrpc":"2.0","id":7,"method":"`+m+`","params":{}}`, h)
		id, e := decode(body)
		if resp.StatusCode != http.StatusOK || errCode(e) != -32601 || fmt.Sprint(id) != "7" {
			t.Fatalf("%s in a 2025-11-25 session: HTTP %d %q, want JSON-RPC -32601 with id 7", m, resp.StatusCode, body)
		}
	}
	// The session goes on.
	resp, body = rawPost(t, endpoint, `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{}}`, h)
	if _, e := decode(body); resp.StatusCode != http.StatusOK || e != nil || !strings.Contains(body, "run_select_query") {
		t.Fatalf("tools/list after: %d %s", resp.StatusCode, body)
	}

	tc := &rawClient{url: endpoint, tasks: true}
	r, e := tc.query(t, "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'tiny'")
	if e != nil || r["resultType"] != "task" {
		t.Fatalf("task: %v %+v", r, e)
	}
	id := r["taskId"].(string)
	for _, m := range []string{"tasks/get", "tasks/cancel"} {
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
		resp, body := rawPost(t, endpoint, `{"jsonrpc":"2.0","id":9,"method":"`+m+`","params":{"taskId":"`+id+`",`+meta+`}}`,
			map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": m, "Mcp-Name": "another-task"})
		if _, e := decode(body); resp.StatusCode != http.StatusBadRequest || errCode(e) != -32020 {
			t.Fatalf("%s with a mismatched Mcp-Name: HTTP %d %q, want 400 with -32020", m, resp.StatusCode, body)
		}
	}
	if done := tc.poll(t, id); done["status"] != "completed" {
		t.Fatalf("the task after the refused cancel: %v", done)
	}
}
