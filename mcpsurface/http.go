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
	// open one more closes the least recently used session idle for
	// SessionGrace or longer (logged), or, when every session was used
	// within the grace or has a call running, gets 503 with Retry-After
	// and a JSON-RPC error: an active session is never closed because
	// another client arrived. 0 means DefaultMaxSessions; negative means
	// no bound.
	MaxSessions int
	// SessionIdle closes a session that has had no request for this long;
	// 0 means DefaultSessionIdle; negative means never.
	SessionIdle time.Duration
	// SessionGrace is how long a session must have gone without a
	// request before a new session may take its place at the bound; 0
	// means SessionGrace (the constant), capped by SessionIdle.
	SessionGrace time.Duration
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
	// Auth, when set, requires a bearer token on every request of the
	// MCP endpoint (auth.go) and serves the Protected Resource Metadata;
	// kept results are then served only to the principal that made them.
	Auth *Auth
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
//   - With Auth, every request needs a bearer token (401 with a
//     WWW-Authenticate challenge otherwise), checked before a session is
//     opened or looked up.
//   - Bodies are bounded by MaxBody (413).
//   - Sessions are bounded by MaxSessions (the least recently used one
//     idle for SessionGrace is closed to make room; 503 + Retry-After
//     when every session is in use)
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
		grace := SessionGrace
		if o.SessionGrace > 0 {
			grace = o.SessionGrace
		}
		if o.SessionIdle > 0 && o.SessionIdle < grace {
			grace = o.SessionIdle
		}
		h = newSessionLimit(h, s.mcp, o.MaxSessions, retryAfterFor(o.SessionIdle), grace, s.logf)
	}
	mux := http.NewServeMux()
	endpoint := rpcGuard(byProtocol(h, stateless), o.MaxBody)
	if o.Auth != nil {
		o.Auth.logf = s.logf
		endpoint = o.Auth.wrap(endpoint)
		o.Auth.metadata(mux)
	}
	mux.Handle(HTTPPath, originGuard(endpoint, o.AllowOrigins, !o.StrictOrigin))
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

// sessionLimit bounds the sessions open at once. A POST without
// Mcp-Session-Id opens one in the SDK's handler; the open sessions are
// the MCP server's kept sessions (those with an id: the stateless
// handler's per-request sessions have none and are not counted), plus
// those being opened. When a new one would pass max, the least recently
// used session that has no POST in flight and has been idle for the
// grace is closed to make room (its
// next request gets 404, "session not found", and a client opens a new
// session), and one line says so in the log: clients that never send
// DELETE do not lock later ones out once they have gone quiet. When no
// session can be closed (each has a call running or was used within the
// grace) the new one is refused (503 with Retry-After).
type sessionLimit struct {
	next       http.Handler
	srv        *mcp.Server
	max        int
	retryAfter int
	logf       func(format string, args ...any)

	// grace is the idle time after which a session may be closed to
	// make room (SessionGrace).
	grace time.Duration

	mu      sync.Mutex
	opening int
	used    map[string]time.Time // last request (start or end) of each session
	busy    map[string]int       // POSTs in flight of each session
}

// SessionGrace is how long a session must have gone without a request
// before a new session may take its place when the bound is reached: a
// client between two calls keeps its session however many others
// arrive (they are refused with 503 and Retry-After); one that went
// quiet for this long (a suite that never sends DELETE) is expired by
// its age to make room. Shorter when --session-idle is.
const SessionGrace = time.Minute

func newSessionLimit(next http.Handler, srv *mcp.Server, max, retryAfter int, grace time.Duration, logf func(string, ...any)) *sessionLimit {
	return &sessionLimit{next: next, srv: srv, max: max, retryAfter: retryAfter, grace: grace, logf: logf,
		used: map[string]time.Time{}, busy: map[string]int{}}
}

func (l *sessionLimit) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get("Mcp-Session-Id"); id != "" {
		post := r.Method == http.MethodPost
		l.touch(id, post, 1)
		defer l.touch(id, post, -1)
		l.next.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodPost {
		l.next.ServeHTTP(w, r)
		return
	}
	if !l.reserve() {
		w.Header().Set("Retry-After", strconv.Itoa(l.retryAfter))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		msg := fmt.Sprintf("engine mcp: too many open sessions (%d, the --max-sessions bound), each used within the last %s; retry after %d s, or close sessions you no longer use (HTTP DELETE)", l.max, l.grace, l.retryAfter)
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32000, "message": msg}})
		w.Write(b) //nolint:errcheck
		return
	}
	defer func() {
		l.mu.Lock()
		l.opening--
		if id := w.Header().Get("Mcp-Session-Id"); id != "" {
			l.used[id] = time.Now()
		}
		l.mu.Unlock()
	}()
	l.next.ServeHTTP(w, r)
}

// touch records a request of session id starting (delta 1) or ending
// (-1); POSTs in flight make the session busy. Ids of no session opened
// here (made up, or closed) are not recorded.
func (l *sessionLimit) touch(id string, post bool, delta int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.used[id]; !ok {
		return
	}
	l.used[id] = time.Now()
	if post {
		if l.busy[id] += delta; l.busy[id] <= 0 {
			delete(l.busy, id)
		}
	}
}

// reserve makes room for one more session, closing the least recently
// used ones idle for the grace or longer while the bound is reached;
// false when every open session is busy or was used within the grace.
func (l *sessionLimit) reserve() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	// The open sessions are those opened here whose initialize has been
	// answered (in used); those being opened are counted by opening.
	open := map[string]*mcp.ServerSession{}
	for ss := range l.srv.Sessions() {
		if id := ss.ID(); id != "" {
			open[id] = ss
		}
	}
	for id := range l.used { // forget sessions closed meanwhile
		if open[id] == nil {
			delete(l.used, id)
			delete(l.busy, id)
		}
	}
	for id := range open {
		if _, ok := l.used[id]; !ok {
			delete(open, id)
		}
	}
	for len(open)+l.opening >= l.max {
		victim := ""
		for id := range open {
			if l.busy[id] > 0 || time.Since(l.used[id]) < l.grace {
				continue
			}
			if victim == "" || l.used[id].Before(l.used[victim]) {
				victim = id
			}
		}
		if victim == "" {
			return false
		}
		idle := "unknown"
		if t, ok := l.used[victim]; ok {
			idle = time.Since(t).Round(time.Second).String()
		}
		open[victim].Close() //nolint:errcheck // the SDK removes it from its sessions
		delete(open, victim)
		delete(l.used, victim)
		l.logf("engine mcp: closed session %s… (least recently used, idle %s) to open a new one: %d sessions open, the --max-sessions bound\n", shortID(victim), idle, l.max)
	}
	l.opening++
	return true
}

// shortID is enough of a session id to tell sessions apart in the log,
// not enough to use one.
func shortID(id string) string {
	if len(id) > 6 {
		return id[:6]
	}
	return id
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

// logf writes one line to the server's log.
func (s *Server) logf(format string, args ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, format, args...)
}
