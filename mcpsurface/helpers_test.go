package mcpsurface_test

import (
	"bytes"
	"cmp"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/mcpsurface"
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/client"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
)

// logBuf is a concurrency-safe log writer that signals each line.
type logBuf struct {
	mu    sync.Mutex
	b     bytes.Buffer
	lines chan string
}

func newLogBuf() *logBuf { return &logBuf{lines: make(chan string, 1024)} }

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Write(p)
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		select {
		case l.lines <- line:
		default:
		}
	}
	return len(p), nil
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type env struct {
	fake *fakegithub.Server
	srv  *mcpsurface.Server
	c    *mcptest.Client
	log  *logBuf
	ctx  context.Context
}

type envOpts struct {
	caps    mcpsurface.Caps
	fake    []fakegithub.Option
	baseURL string // overrides the fake's URL (e.g. a proxy in front of it)
	client  mcp.ClientOptions
	store   mcpsurface.StoreOptions
	// requestTimeout bounds each API request (default 8 s: room for a
	// busy machine under the race detector).
	requestTimeout time.Duration
}

func defaultCaps() mcpsurface.Caps {
	return mcpsurface.Caps{MaxRows: mcpsurface.DefaultMaxRows, MaxBytes: mcpsurface.DefaultMaxBytes}
}

// newEnv serves an MCP server over in-memory transports, backed by a fake
// GitHub, with small retry budgets so faults surface at once. Zero caps
// are defaultCaps.
func newEnv(t *testing.T, o envOpts) *env {
	t.Helper()
	if o.caps == (mcpsurface.Caps{}) {
		o.caps = defaultCaps()
	}
	fake := fakegithub.ForTest(t, o.fake...)
	base := fake.URL()
	if o.baseURL != "" {
		base = o.baseURL
	}
	eng, err := engine.New(engine.Options{
		BaseURLs: map[string]string{"github": base},
		Auth:     map[string]providers.AuthConfig{"github": {Type: "null_auth"}},
		Getenv:   func(string) string { return "" },
		Client:   client.Options{RetryMax: -1, MaxRetryWait: 2 * time.Second, RequestTimeout: cmp.Or(o.requestTimeout, 8*time.Second), MaxBodyBytes: 8 << 20},
	})
	if err != nil {
		t.Fatal(err)
	}
	log := newLogBuf()
	srv, err := mcpsurface.New(eng, mcpsurface.Config{Caps: o.caps, Store: o.store, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	opts := o.client
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &env{fake: fake, srv: srv, c: mcptest.NewClient(t, cs), log: log, ctx: ctx}
}

func (e *env) query(t *testing.T, sql string) mcptest.Result {
	t.Helper()
	return e.c.Call(t, e.ctx, "run_select_query", map[string]any{"sql": sql})
}

func (e *env) ok(t *testing.T, sql string) mcptest.Result {
	t.Helper()
	r := e.query(t, sql)
	if r.IsError {
		t.Fatalf("%s: unexpected error %+v", sql, r.Error)
	}
	return r
}

func (e *env) apiRequests() int {
	n := 0
	for _, r := range e.fake.Requests() {
		if r.Path != "/rate_limit" {
			n++
		}
	}
	return n
}
