package mcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

const rawInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawPost sends one JSON-RPC POST as a streamable HTTP client would.
func rawPost(t *testing.T, endpoint, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

// assertRefused checks the over-the-bound answer: 503, a Retry-After, and
// a JSON-RPC error that names the bound.
func assertRefused(t *testing.T, resp *http.Response, body string) {
	t.Helper()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503: %s", resp.StatusCode, body)
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || s < 1 {
		t.Fatalf("Retry-After %q", resp.Header.Get("Retry-After"))
	}
	var m struct {
		JSONRPC string `json:"jsonrpc"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.JSONRPC != "2.0" || m.Error.Code == 0 || !strings.Contains(m.Error.Message, "--max-sessions") {
		t.Fatalf("body %q (%v)", body, err)
	}
}

// sessionPing pings an open session with a raw POST and returns the status.
func sessionPing(t *testing.T, endpoint, id string) (int, string) {
	t.Helper()
	resp, body := rawPost(t, endpoint, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{"Mcp-Session-Id": id, "MCP-Protocol-Version": "2025-06-18"})
	return resp.StatusCode, body
}

// TestHTTPSessionsRefuseNotEvict: beyond --max-sessions a new session is
// refused (503, Retry-After, a JSON-RPC error naming the bound) and the
// open ones keep working: 80 clients against the default 64 leave every
// admitted session answering, none closed because another client
// arrived (before, each newcomer closed the least recently used session
// and its client got 404 mid-work).
func TestHTTPSessionsRefuseNotEvict(t *testing.T) {
	fake := fakegithub.ForTest(t)
	endpoint, log := httpServerLog(t, fake)
	var ids []string
	refused := 0
	for i := 0; i < 80; i++ {
		resp, body := rawPost(t, endpoint, rawInit, nil)
		switch {
		case resp.StatusCode == http.StatusOK && resp.Header.Get("Mcp-Session-Id") != "":
			ids = append(ids, resp.Header.Get("Mcp-Session-Id"))
		case resp.StatusCode == http.StatusServiceUnavailable:
			refused++
			if resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "--max-sessions") || !strings.Contains(body, `"jsonrpc":"2.0"`) {
				t.Fatalf("refusal %d: Retry-After %q, body %s", i, resp.Header.Get("Retry-After"), body)
			}
		default:
			t.Fatalf("initialize %d: %d %s", i, resp.StatusCode, body)
		}
	}
	if len(ids) != 64 || refused != 16 {
		t.Fatalf("%d sessions opened and %d refused, want 64 and 16", len(ids), refused)
	}
	for i, id := range ids {
		if code, body := sessionPing(t, endpoint, id); code != http.StatusOK {
			t.Fatalf("admitted session %d no longer answers: %d %s", i, code, body)
		}
	}
	if strings.Contains(log.String(), "least recently used") {
		t.Fatalf("a session in use was closed for a newcomer:\n%s", log)
	}
}

// TestHTTPSessionBoundAndIdleExpiry: with --max-sessions 2 a client that
// went quiet for --session-grace makes room for a new one (its next
// request gets 404, and the log says so), while one used within the
// grace stays; once sessions have been idle for --session-idle they
// close, and the real SDK client connects.
func TestHTTPSessionBoundAndIdleExpiry(t *testing.T) {
	fake := fakegithub.ForTest(t)
	endpoint, log := httpServerLog(t, fake, "--max-sessions", "2", "--session-grace", "1s", "--session-idle", "6s")
	var ids []string
	for i := 0; i < 2; i++ {
		resp, body := rawPost(t, endpoint, rawInit, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("session %d: %d %s", i, resp.StatusCode, body)
		}
		ids = append(ids, resp.Header.Get("Mcp-Session-Id"))
	}
	if resp, body := rawPost(t, endpoint, rawInit, nil); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a third session while both are fresh: %d %s, want 503", resp.StatusCode, body)
	}
	time.Sleep(1500 * time.Millisecond)
	if code, body := sessionPing(t, endpoint, ids[0]); code != http.StatusOK { // ids[1] is quiet past the grace
		t.Fatalf("ping: %d %s", code, body)
	}
	cs, err := mcptest.Dial(t, mcptest.HTTP(endpoint), nil, "2025-11-25")
	if err != nil {
		t.Fatalf("the SDK client could not connect with a quiet session to take over: %v\n%s", err, log)
	}
	c := mcptest.NewClient(t, cs)
	if r := c.Query(t, acme+" LIMIT 1"); r.IsError || r.RowCount != 1 {
		t.Fatalf("query in the new session: %+v", r)
	}
	if code, body := sessionPing(t, endpoint, ids[1]); code != http.StatusNotFound || !strings.Contains(body, "session not found") {
		t.Fatalf("the quiet session: %d %s, want 404 session not found", code, body)
	}
	if code, body := sessionPing(t, endpoint, ids[0]); code != http.StatusOK {
		t.Fatalf("the recently used session was closed: %d %s", code, body)
	}
	if !strings.Contains(log.String(), "least recently used") || !strings.Contains(log.String(), "--max-sessions") {
		t.Fatalf("no line naming the bound in the log:\n%s", log)
	}
	cs.Close()
	time.Sleep(7 * time.Second)
	if code, body := sessionPing(t, endpoint, ids[0]); code != http.StatusNotFound {
		t.Fatalf("after --session-idle: %d %s, want 404", code, body)
	}
	c = mcptest.ConnectHTTP(t, endpoint)
	if r := c.Query(t, acme+" LIMIT 2"); r.IsError || r.RowCount != 2 {
		t.Fatalf("after idle expiry: %+v", r)
	}
}

// TestHTTPSessionsAllBusyRefused: a session with a call running is never
// closed to make room; when every open session has one, a new session is
// refused (503, Retry-After, a JSON-RPC error naming the bound), and once
// the call has ended its session can make room again.
func TestHTTPSessionsAllBusyRefused(t *testing.T) {
	fake := fakegithub.ForTest(t, fakegithub.WithLatency(2*time.Second))
	endpoint := httpServer(t, fake, "--max-sessions", "1", "--session-grace", "1s")
	c := mcptest.NewClient(t, mcptest.Connect(t, mcptest.HTTP(endpoint), nil, "2025-11-25"))
	done := make(chan mcptest.Result, 1)
	go func() { done <- c.Query(t, acme+" LIMIT 1") }()
	for fake.Arrived() == 0 { // the call is running: its request reached the API
		select {
		case r := <-done:
			t.Fatalf("the call ended before it was seen running: %+v", r)
		case <-time.After(10 * time.Millisecond):
		}
	}
	resp, body := rawPost(t, endpoint, rawInit, nil)
	assertRefused(t, resp, body)
	// Sessions are a 2025-11-25 (and earlier) notion; a 2026-07-28 client
	// keeps none and is served regardless (TestHTTPServes20260728Statelessly).
	if c := mcptest.ConnectHTTP(t, endpoint); c.S.InitializeResult().ProtocolVersion != "2026-07-28" {
		t.Fatal("a 2026-07-28 client was not served while the sessions are full")
	} else if r := c.Query(t, acme+" LIMIT 1"); r.IsError || r.RowCount != 1 {
		t.Fatalf("2026-07-28 call while the sessions are full: %+v", r)
	}
	if r := <-done; r.IsError || r.RowCount != 1 {
		t.Fatalf("the running call: %+v", r)
	}
	// The call's POST ends just after its answer reached the client; its
	// session makes room once it has been quiet for --session-grace.
	for i := 0; ; i++ {
		resp, body := rawPost(t, endpoint, rawInit, nil)
		if resp.StatusCode == http.StatusOK {
			break
		}
		if resp.StatusCode != http.StatusServiceUnavailable || i == 100 {
			t.Fatalf("initialize once the call ended: %d %s", resp.StatusCode, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHTTPOrigins: remote pages are refused, loopback pages and clients
// without Origin are served (the MCP conformance suite's
// dns-rebinding-protection scenario); --allow-origin adds an origin;
// --strict-origin serves only the listed ones, loopback pages included.
func TestHTTPOrigins(t *testing.T) {
	fake := fakegithub.ForTest(t)
	for _, c := range []struct {
		args []string
		want map[string]int
	}{
		{[]string{"--allow-origin", "https://tools.example:8443"}, map[string]int{
			"http://localhost:3000":      http.StatusOK,
			"http://127.0.0.1:8765":      http.StatusOK,
			"http://[::1]:6274":          http.StatusOK,
			"":                           http.StatusOK,
			"https://tools.example:8443": http.StatusOK,
			"https://tools.example":      http.StatusForbidden,
			"https://attacker.test":      http.StatusForbidden,
			"http://127.0.0.1.nip.io":    http.StatusForbidden,
		}},
		{[]string{"--strict-origin", "--allow-origin", "http://localhost:6274"}, map[string]int{
			"http://localhost:3000":  http.StatusForbidden,
			"http://127.0.0.1:8765":  http.StatusForbidden,
			"http://[::1]:6274":      http.StatusForbidden,
			"http://localhost:6274":  http.StatusOK,
			"":                       http.StatusOK,
			"https://attacker.test":  http.StatusForbidden,
			"https://localhost:6274": http.StatusForbidden,
		}},
	} {
		endpoint := httpServer(t, fake, c.args...)
		for origin, want := range c.want {
			h := map[string]string{}
			if origin != "" {
				h["Origin"] = origin
			}
			resp, body := rawPost(t, endpoint, rawInit, h)
			if resp.StatusCode != want {
				t.Errorf("%v: Origin %q: %d, want %d: %s", c.args, origin, resp.StatusCode, want, body)
			}
			if want == http.StatusForbidden && !strings.Contains(body, "--allow-origin") {
				t.Errorf("Origin %q: the refusal does not say how to allow it: %s", origin, body)
			}
		}
	}
}
