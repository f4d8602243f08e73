package mcpsurface_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/test/fakegithub"
)

func TestProgressNotifications(t *testing.T) {
	var mu sync.Mutex
	var got []float64
	e := newEnv(t, envOpts{fake: []fakegithub.Option{fakegithub.WithRepos("scale-1000", 1000)},
		client: mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			if r.Params.ProgressToken == "tok-1" {
				got = append(got, r.Params.Progress)
			}
		}}})
	r := e.c.Call(t, e.ctx, "run_select_query", map[string]any{"sql": "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'scale-1000'"}, "tok-1")
	if r.IsError || r.Rows[0][0] != float64(1000) {
		t.Fatalf("%+v", r)
	}
	// Notifications may trail the response; a ping round-trip orders them.
	if err := e.c.S.Ping(e.ctx, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 || got[len(got)-1] != 10 {
		t.Fatalf("progress %v; want increasing to 10 pages", got)
	}
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Fatalf("progress not increasing: %v", got)
		}
	}
}

// TestCancelStopsHTTPCalls: cancelling the tool call cancels the engine's
// in-flight request to the API (seen by a proxy in front of the fake).
func TestCancelStopsHTTPCalls(t *testing.T) {
	fake := fakegithub.New()
	defer fake.Close()
	u, _ := url.Parse(fake.URL())
	arrived, aborted := make(chan struct{}, 1), make(chan struct{}, 1)
	rp := httputil.NewSingleHostReverseProxy(u)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/orgs/") {
			signal(arrived)
		}
		rp.ServeHTTP(w, r)
		if r.Context().Err() != nil {
			signal(aborted)
		}
	}))
	defer proxy.Close()
	e := newEnv(t, envOpts{baseURL: proxy.URL})
	fake.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindSlow, Delay: 60 * time.Second})
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan error, 1)
	go func() {
		_, err := e.c.S.CallTool(ctx, &mcp.CallToolParams{Name: "run_select_query", Arguments: map[string]any{"sql": acmeNames}})
		done <- err
	}()
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("the query never reached the API")
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("cancelled call returned no error")
	}
	select {
	case <-aborted:
	case <-time.After(10 * time.Second):
		t.Fatal("the API request was not cancelled")
	}
	// The server logs the cancelled tool result, then serves the next call.
	deadline := time.After(10 * time.Second)
	for logged := false; !logged; {
		select {
		case line := <-e.log.lines:
			logged = strings.Contains(line, "tool=run_select_query status=error") && strings.Contains(line, "kind=cancelled")
		case <-deadline:
			t.Fatalf("no cancelled result logged:\n%s", e.log.String())
		}
	}
	fake.ClearFaults()
	if r := e.ok(t, acmeNames+" LIMIT 1"); r.RowCount != 1 {
		t.Fatalf("%+v", r)
	}
}

// signal notes an event without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
