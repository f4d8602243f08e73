package mcpsurface_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/mcpsurface"
)

// TestStdioSurvivesBadFrames drives the line transport with raw frames:
// CRLF endings, blank lines, garbage, a non-JSON-RPC object, a batch and
// an oversized line are each answered or skipped, and the session goes on.
func TestStdioSurvivesBadFrames(t *testing.T) {
	e := newEnv(t, envOpts{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr := &mcpsurface.LineTransport{In: inR, Out: outW, MaxFrame: 4096}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- e.srv.MCP().Run(ctx, tr); outW.Close() }()
	go func() {
		frames := []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\r\n",
			"\r\n",
			"not json at all\r\n",
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n",
			`{"hello":"world","id":7}` + "\n",
			`[{"jsonrpc":"2.0","id":8,"method":"tools/list"}]` + "\n",
			`{"jsonrpc":"2.0","id":9,"method":"tools/list","pad":"` + strings.Repeat("x", 5000) + `"}` + "\n",
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_select_query","arguments":{"sql":"SELECT name FROM github.repos.repos WHERE org = 'tiny'"}}}` + "\r\n",
		}
		for _, f := range frames {
			io.WriteString(inW, f) //nolint:errcheck
		}
		inW.Close() // EOF: the server answers what it read, then ends
	}()
	var got []map[string]any
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("stdout line is not JSON: %q", sc.Text())
		}
		got = append(got, m)
	}
	if err := <-done; err != nil && err != io.EOF {
		t.Logf("run: %v", err)
	}
	byID := map[any]map[string]any{}
	codes := []float64{}
	for _, m := range got {
		if e, ok := m["error"].(map[string]any); ok {
			codes = append(codes, e["code"].(float64))
		}
		byID[m["id"]] = m
	}
	if len(codes) != 4 || codes[0] != -32700 || codes[1] != -32600 {
		t.Fatalf("error codes %v; responses %v", codes, got)
	}
	if byID[float64(7)] == nil {
		t.Fatalf("invalid request with id 7 not answered with its id: %v", got)
	}
	res, _ := byID[float64(2)]["result"].(map[string]any)
	if res == nil || res["isError"] == true || !strings.Contains(res["content"].([]any)[0].(map[string]any)["text"].(string), "alpha") {
		t.Fatalf("query after bad frames: %v", byID[float64(2)])
	}
}

func TestHTTPProtections(t *testing.T) {
	e := newEnv(t, envOpts{})
	hs := httptest.NewServer(e.srv.HTTPHandler(64 << 10))
	defer hs.Close()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	post := func(origin, body string) int {
		req, _ := http.NewRequest("POST", hs.URL+mcpsurface.HTTPPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body) //nolint:errcheck
		resp.Body.Close()
		return resp.StatusCode
	}
	// Remote browser origins are refused (DNS rebinding: a remote page
	// keeps its own origin even when its name resolves to 127.0.0.1);
	// loopback pages are served, as the MCP conformance suite requires;
	// clients send no Origin.
	for origin, want := range map[string]int{
		"https://evil.example":    403,
		"null":                    403,
		"http://127.0.0.1.nip.io": 403,
		"http://localhost:3000":   200,
		"http://127.0.0.1:8765":   200,
		"http://[::1]:9":          200,
		"":                        200,
	} {
		if got := post(origin, init); got != want {
			t.Fatalf("Origin %q: status %d; want %d", origin, got, want)
		}
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 100<<10) + `"}}`
	if got := post("", big); got != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized body: status %d", got)
	}
	// --strict-origin with --allow-origin lets exactly the listed origins
	// in, loopback ones included.
	allowed := httptest.NewServer(e.srv.HTTPHandlerOpts(mcpsurface.HTTPOptions{AllowOrigins: []string{"http://localhost:6274"}, StrictOrigin: true}))
	defer allowed.Close()
	for origin, want := range map[string]int{"http://localhost:6274": 200, "HTTP://LOCALHOST:6274": 200, "http://localhost:6275": 403, "https://localhost:6274": 403} {
		req, _ := http.NewRequest("POST", allowed.URL+mcpsurface.HTTPPath, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Origin", origin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("allowed origins: Origin %q: status %d; want %d", origin, resp.StatusCode, want)
		}
	}
	for host, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "0.0.0.0": false, "10.0.0.1": false, "example.com": false} {
		if mcpsurface.LoopbackHost(host) != want {
			t.Fatalf("LoopbackHost(%q) != %t", host, want)
		}
	}
}
