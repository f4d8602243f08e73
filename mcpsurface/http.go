package mcpsurface

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is where the streamable HTTP endpoint is served.
const HTTPPath = "/mcp"

// DefaultMaxBody bounds one HTTP request body (a statement is at most
// 256 KiB).
const DefaultMaxBody = 1 << 20

// Defaults of the HTTP transport's session bounds.
const (
	DefaultMaxSessions = 64
	DefaultSessionIdle = 30 * time.Minute
)

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// MaxBody bounds one request body (413); 0 means DefaultMaxBody.
	MaxBody int64
	// MaxSessions bounds the sessions open at once; a request that would
	// open one more gets 503 with Retry-After and a JSON-RPC error. 0 means
	// DefaultMaxSessions; negative means no bound.
	MaxSessions int
	// SessionIdle closes a session that has had no request for this long;
	// 0 means DefaultSessionIdle; negative means never.
	SessionIdle time.Duration
	// AllowOrigins are further browser origins (scheme://host[:port])
	// whose requests are served. A request with any other Origin header
	// gets 403; requests without one (MCP clients that are not web pages)
	// are always served.
	AllowOrigins []string
	// StrictOrigin refuses loopback origins too unless they are listed in
	// AllowOrigins (by default a page served from localhost, 127.0.0.0/8
	// or [::1], on any port, is served).
	StrictOrigin bool
	// ReadTimeout, WriteTimeout and IdleTimeout are the HTTP server's
	// (HTTPServer; 0: the defaults of listener.go, negative: none), and
	// MaxConnections bounds the connections served at once
	// (LimitListener; 0: DefaultMaxConnections).
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	MaxConnections                         int
}

// HTTPHandlerOpts serves the streamable HTTP transport at HTTPPath.
//
//   - Origin: a request carrying an Origin header is served only when that
//     origin is a loopback one (localhost, 127.0.0.0/8, [::1], any port)
//     or is in AllowOrigins (403 otherwise; with StrictOrigin loopback
//     origins must be listed too). This is the DNS-rebinding defence the
//     MCP specification asks for and the official conformance suite checks
//     (dns-rebinding-protection: reject non-localhost origins, accept
//     localhost ones): a remote page, even one whose name resolves to
//     127.0.0.1, carries its own non-loopback origin. A page served from
//     loopback is code already running on this machine. Clients that are
//     not browsers send no Origin.
//   - Host: on loopback connections the SDK refuses non-loopback Host
//     headers (DNS rebinding).
//   - Bodies are bounded by MaxBody (413).
//   - Sessions are bounded by MaxSessions (503 + Retry-After beyond it)
//     and closed after SessionIdle without a request.
//   - Protocol versions up to 2025-11-25 use sessions (initialize, then
//     Mcp-Session-Id). Protocol 2026-07-28 is served statelessly alongside
//     (see byProtocol): no session is kept, and closing the POST cancels
//     the tool call, as notifications/cancelled does.
func (s *Server) HTTPHandlerOpts(o HTTPOptions) http.Handler {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.SessionIdle == 0 {
		o.SessionIdle = DefaultSessionIdle
	}
	idle := o.SessionIdle
	if idle < 0 {
		idle = 0 // the SDK's "never"
	}
	server := func(*http.Request) *mcp.Server { return s.mcp }
	sessions := mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes: o.MaxBody,
		SessionTimeout:      idle,
	})
	// Protocol 2026-07-28 has no sessions: each POST is a whole request,
	// served by a stateless handler, and closing the POST cancels the
	// tool call (its HTTP calls and SQLite work).
	stateless := mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		MaxRequestBodyBytes:          o.MaxBody,
		PropagateRequestCancellation: true,
	})
	var h http.Handler = sessions
	if o.MaxSessions > 0 {
		// Only kept sessions are bounded: a stateless request holds
		// nothing once answered, like one call of a session.
		h = &sessionLimit{next: h, srv: s.mcp, max: o.MaxSessions, retryAfter: retryAfterFor(o.SessionIdle)}
	}
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, originGuard(byProtocol(h, stateless), o.AllowOrigins, !o.StrictOrigin))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "engine mcp: the MCP endpoint is "+HTTPPath, http.StatusNotFound)
	})
	return mux
}

// StatelessProtocol is the first MCP protocol version served without
// sessions over HTTP (SEP-2575/SEP-2567).
const StatelessProtocol = "2026-07-28"

// byProtocol routes a request that carries no session and names protocol
// StatelessProtocol or later in its Mcp-Protocol-Version header to the
// stateless handler, and every other request (initialize, session
// traffic, older versions) to the session handler. Versions are ISO
// dates, so they compare as strings.
func byProtocol(sessions, stateless http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") == "" && r.Header.Get("Mcp-Protocol-Version") >= StatelessProtocol {
			stateless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})
}

// retryAfterFor is the Retry-After of a refused session: a minute, or the
// idle timeout when that is shorter (a session may expire by then).
func retryAfterFor(idle time.Duration) int {
	if idle > 0 && idle < time.Minute {
		return max(1, int(idle.Seconds()))
	}
	return 60
}

// sessionLimit refuses requests that would open a session beyond max. A
// POST without Mcp-Session-Id opens one in the SDK's handler; the open
// sessions are the MCP server's kept sessions (those with an id: the
// stateless handler's per-request sessions have none and are not
// counted), plus those being opened.
type sessionLimit struct {
	next       http.Handler
	srv        *mcp.Server
	max        int
	retryAfter int

	mu      sync.Mutex
	opening int
}

func (l *sessionLimit) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
		l.next.ServeHTTP(w, r)
		return
	}
	l.mu.Lock()
	open := 0
	for ss := range l.srv.Sessions() {
		if ss.ID() != "" {
			open++
		}
	}
	if open+l.opening >= l.max {
		l.mu.Unlock()
		w.Header().Set("Retry-After", strconv.Itoa(l.retryAfter))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		msg := fmt.Sprintf("engine mcp: too many open sessions (%d, the --max-sessions bound); retry after %d s, when an idle session may have closed, or close sessions you no longer use (HTTP DELETE)", l.max, l.retryAfter)
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32000, "message": msg}})
		w.Write(b) //nolint:errcheck
		return
	}
	l.opening++
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.opening--
		l.mu.Unlock()
	}()
	l.next.ServeHTTP(w, r)
}

// originGuard refuses browser requests from origins not allowed: a
// request with an Origin header must name one of allowed exactly (scheme,
// host and port; case-insensitive), or, when loopback is true, any
// loopback host.
func originGuard(next http.Handler, allowed []string, loopback bool) http.Handler {
	ok := map[string]bool{}
	for _, a := range allowed {
		if n, err := NormalizeOrigin(a); err == nil {
			ok[n] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			n, err := NormalizeOrigin(o)
			if err != nil || !(ok[n] || loopback && loopbackOrigin(n)) {
				http.Error(w, "engine mcp: request from a web page (Origin "+strconv.Quote(o)+") refused; "+
					"MCP clients send no Origin. To let a browser-based client in, start the server with --allow-origin "+
					"for its exact origin", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// NormalizeOrigin checks that s is an origin (http or https scheme, a
// host, optionally a port, nothing else) and returns it in lower case
// with the scheme's default port made explicit.
func NormalizeOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("origin %q: expected scheme://host[:port], e.g. http://localhost:6274", s)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port)), nil
}

// loopbackOrigin reports whether a normalized origin names a loopback host.
func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && LoopbackHost(u.Hostname())
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
