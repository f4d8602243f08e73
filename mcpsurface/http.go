package mcpsurface

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where the streamable HTTP endpoint is served.
const HTTPPath = "/mcp"

// DefaultMaxBody bounds one HTTP request body (a statement is at most
// 256 KiB).
const DefaultMaxBody = 1 << 20

// HTTPHandler serves the streamable HTTP transport at HTTPPath. Requests
// whose Origin is not a loopback origin are refused (403), as the SDK
// refuses non-loopback Host headers on loopback connections (DNS
// rebinding); bodies are bounded by maxBody (413).
func (s *Server) HTTPHandler(maxBody int64) http.Handler {
	if maxBody <= 0 {
		maxBody = DefaultMaxBody
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes: maxBody,
		SessionTimeout:      30 * time.Minute,
		// Under the 2026-07-28 protocol a closed POST cancels its tool call.
		PropagateRequestCancellation: true,
	})
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, originGuard(h))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "engine mcp: the MCP endpoint is "+HTTPPath, http.StatusNotFound)
	})
	return mux
}

// originGuard refuses cross-origin requests: a request with an Origin
// header must come from a loopback origin.
func originGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !LoopbackOrigin(o) {
			http.Error(w, "engine mcp: cross-origin request refused", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// LoopbackOrigin reports whether an Origin header names a loopback host.
func LoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return LoopbackHost(u.Hostname())
}

// LoopbackHost reports whether host is localhost or a loopback IP.
func LoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
