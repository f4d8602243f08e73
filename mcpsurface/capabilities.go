package mcpsurface

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// declared is what the server declares: tools and resources, whose lists
// never change while it runs (no listChanged: no notification is ever
// sent, and a 2026-07-28 client opens no subscriptions/listen stream for
// them), and the tasks extension (tasks.go), for run_select_query.
func declared() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{},
		Extensions: map[string]any{tasksExtension: map[string]any{}}}
}

// The server declares the capabilities tools and resources, and serves
// nothing else. The SDK answers some methods whatever a server declares
// (prompts/list with an empty list, logging/setLevel, which would set a
// level no message is ever sent at): undeclared carries those methods,
// which declaredOnly answers "method not found" (-32601), as for any
// method a server does not serve (docs/mcp.md, "Protocol").
var undeclared = map[string]string{
	"prompts/list":          "prompts",
	"prompts/get":           "prompts",
	"logging/setLevel":      "logging",
	"completion/complete":   "completions",
	"resources/subscribe":   "resources.subscribe",
	"resources/unsubscribe": "resources.subscribe",
}

// declaredOnly refuses the methods of capabilities the server does not
// declare.
func declaredOnly(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if capability, ok := undeclared[method]; ok {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
				Message: fmt.Sprintf("method %q is not served: this server does not declare the %s capability (it serves tools and resources)", method, capability)}
		}
		return next(ctx, method, req)
	}
}

// catalogTTL is how long a client may cache the server's answers that
// never change while it runs (a restart with other settings may change
// them).
const catalogTTL = 10 * time.Minute

// cacheable sets the cache hints (ttlMs, cacheScope) of the results that
// carry them under protocol 2026-07-28. server/discover, tools/list,
// resources/list and resources/templates/list never change while the
// server runs: catalogTTL, public. A kept result (resources/read) never
// changes either, but it is what one client's query read with the
// server's credential: private, for as long as results are kept.
func (s *Server) cacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	if _, ok := req.(*mcp.ReadResourceRequest); ok {
		c.TTLMs, c.CacheScope = int(s.store.Options().TTL.Milliseconds()), "private"
		return
	}
	c.TTLMs, c.CacheScope = int(catalogTTL.Milliseconds()), "public"
}
