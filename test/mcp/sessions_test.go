package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

// TestHTTPSessionsBoundedByDefault: a flood of 200 initialize requests
// opens at most 64 sessions (the default); the rest get 503. Requests of
// the open sessions are still served.
func TestHTTPSessionsBoundedByDefault(t *testing.T) {
	fake := fakegithub.ForTest(t)
	endpoint := httpServer(t, fake)
	var ids []string
	refused := 0
	start := time.Now()
	for i := 0; i < 200; i++ {
		resp, body := rawPost(t, endpoint, rawInit, nil)
		switch resp.StatusCode {
		case http.StatusOK:
			ids = append(ids, resp.Header.Get("Mcp-Session-Id"))
		default:
			assertRefused(t, resp, body)
			refused++
		}
	}
	t.Logf("200 initialize requests in %s: %d sessions, %d refused", time.Since(start).Round(time.Millisecond), len(ids), refused)
	if len(ids) != 64 || refused != 136 {
		t.Fatalf("%d sessions opened, %d refused; want 64 and 136", len(ids), refused)
	}
	// An open session still works.
	resp, body := rawPost(t, endpoint, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{"Mcp-Session-Id": ids[0], "MCP-Protocol-Version": "2025-06-18"})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"id":2`) {
		t.Fatalf("ping in an open session: %d %s", resp.StatusCode, body)
	}
	// Closing a session (DELETE) frees its place.
	req, _ := http.NewRequest("DELETE", endpoint, nil)
	req.Header.Set("Mcp-Session-Id", ids[1])
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode/100 != 2 {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	if resp, body := rawPost(t, endpoint, rawInit, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize after a DELETE: %d %s", resp.StatusCode, body)
	}
	resp, body = rawPost(t, endpoint, rawInit, nil)
	assertRefused(t, resp, body)
}

// TestHTTPSessionBoundAndIdleExpiry: with --max-sessions 2 the real SDK
// client cannot connect beyond the bound; once the sessions have been
// idle for --session-idle they close and it can.
func TestHTTPSessionBoundAndIdleExpiry(t *testing.T) {
	fake := fakegithub.ForTest(t)
	endpoint := httpServer(t, fake, "--max-sessions", "2", "--session-idle", "1s")
	for i := 0; i < 2; i++ {
		if resp, body := rawPost(t, endpoint, rawInit, nil); resp.StatusCode != http.StatusOK {
			t.Fatalf("session %d: %d %s", i, resp.StatusCode, body)
		}
	}
	resp, body := rawPost(t, endpoint, rawInit, nil)
	assertRefused(t, resp, body)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Sessions are a 2025-11-25 (and earlier) notion; a 2026-07-28 client
	// keeps none and is served regardless (TestHTTPServes20260728Statelessly).
	_, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err == nil {
		t.Fatal("the SDK client connected beyond the session bound")
	}
	if c := mcptest.ConnectHTTP(t, endpoint); c.S.InitializeResult().ProtocolVersion != "2026-07-28" {
		t.Fatal("a 2026-07-28 client was not served while the sessions are full")
	} else if r := c.Query(t, acme+" LIMIT 1"); r.IsError || r.RowCount != 1 {
		t.Fatalf("2026-07-28 call while the sessions are full: %+v", r)
	}
	t.Logf("SDK client beyond the bound: %v", err)
	time.Sleep(2500 * time.Millisecond)
	c := mcptest.ConnectHTTP(t, endpoint)
	if r := c.Query(t, acme+" LIMIT 2"); r.IsError || r.RowCount != 2 {
		t.Fatalf("after idle expiry: %+v", r)
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
