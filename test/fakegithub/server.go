package fakegithub

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Server is a running fake GitHub REST API. All exported methods are safe
// for concurrent use.
type Server struct {
	url     string
	ln      net.Listener
	srv     *http.Server
	handler http.Handler
	mux     *http.ServeMux
	cmux    *http.ServeMux // the compliance organisations (compliance.go)
	// oauthScopes is the X-OAuth-Scopes header of every answer (WithOAuthScopes).
	oauthScopes *string

	orgs    map[string]*orgSpec
	latency time.Duration
	token   string

	start   time.Time
	used    atomic.Int64
	arrived atomic.Int64 // API requests that reached the server (Arrived)
	reqSeq  atomic.Int64
	zenSeq  atomic.Int64 // GET /zen answers, for the saying in turn
	mu      sync.Mutex
	reqs    []Request
	logged  chan struct{} // closed when a request is logged; see WaitRequests
	faults  []*faultRule
	lim     *limiter  // WithLimits
	app     *appState // WithApp
	closing sync.Once

	// protection overrides default-branch protection by full name
	// (SetBranchProtection).
	protection map[string]bool
	// started counts API requests received (before any fault or delay).
	started atomic.Int64
}

// Request is one logged API request (admin endpoints under /_fake/ are not
// logged).
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// EscapedPath is the path as it arrived on the wire (a %2F stays).
	EscapedPath string `json:"escaped_path"`
	RawQuery    string `json:"raw_query"`
	Page        int    `json:"page"` // the page query parameter, 1 when absent or invalid
	PerPage     int    `json:"per_page"`
	HasAuth     bool   `json:"has_auth"`
	// AuthHeader is the raw Authorization header as sent (tests use it to
	// check that the configured token was sent; never use real tokens here).
	AuthHeader string    `json:"auth_header"`
	AuthHash   string    `json:"auth_sha256,omitempty"` // hex sha256 of AuthHeader
	Status     int       `json:"status"`                // 0 when the connection was reset
	Fault      FaultKind `json:"fault,omitempty"`       // fault applied, if any
	Time       time.Time `json:"time"`
	// IfNoneMatch and IfModifiedSince are the validators of a conditional
	// request, as sent.
	IfNoneMatch     string `json:"if_none_match,omitempty"`
	IfModifiedSince string `json:"if_modified_since,omitempty"`
}

// Option configures a Server.
type Option func(*Server)

// WithRepos sets the number of repositories of org, creating the org (with
// no members, teams, hooks or alerts) when it is not one of the built-in
// ones. Repos of a created org are named repo-000, repo-001, ... (zero
// padded to at least 3 digits, wider when n > 1000).
func WithRepos(org string, n int) Option {
	return func(s *Server) {
		if o, ok := s.orgs[org]; ok {
			o.repos = n
			o.nameWidth = widthFor(n)
			if o.names != nil && n > len(o.names) {
				o.names = nil
			}
			return
		}
		s.orgs[org] = newOrgSpec(org, n)
	}
}

// Arrived counts the API requests (not /rate_limit) that have reached the
// server, including those still waiting out WithLatency: a test sees a
// call running before any request is answered.
func (s *Server) Arrived() int { return int(s.arrived.Load()) }

// WithLatency adds a fixed delay before every API response.
func WithLatency(d time.Duration) Option { return func(s *Server) { s.latency = d } }

// WithToken makes the server require "Authorization: Bearer <token>" (or
// "token <token>"): a request without credentials gets 401 "Requires
// authentication", a wrong token 401 "Bad credentials". Without this option
// any or no Authorization header is accepted.
func WithToken(token string) Option { return func(s *Server) { s.token = token } }

// New starts a fake server on 127.0.0.1 on a random port. It panics if it
// cannot listen (like httptest.NewServer).
func New(opts ...Option) *Server {
	s, err := Start("127.0.0.1:0", opts...)
	if err != nil {
		panic(fmt.Sprintf("fakegithub: %v", err))
	}
	return s
}

// ForTest is New for a test: the server is closed when the test ends (t
// is a *testing.T, *testing.B or testing.TB).
func ForTest(t interface{ Cleanup(func()) }, opts ...Option) *Server {
	s := New(opts...)
	t.Cleanup(s.Close)
	return s
}

// Start is New with an explicit listen address (e.g. "127.0.0.1:8099").
func Start(addr string, opts ...Option) (*Server, error) {
	s := NewUnstarted(opts...)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s.ln = ln
	s.url = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // returns ErrServerClosed on Close
	return s, nil
}

// NewUnstarted builds a Server without listening; use Handler() to mount it
// (URL() is then empty).
func NewUnstarted(opts ...Option) *Server {
	s := &Server{orgs: builtinOrgs(), start: time.Now()}
	for _, o := range opts {
		o(s)
	}
	s.mux = http.NewServeMux()
	s.routes()
	s.handler = http.HandlerFunc(s.serve)
	return s
}

// URL is the base URL of the API, e.g. http://127.0.0.1:41234 (the API is
// served at the root like https://api.github.com).
func (s *Server) URL() string { return s.url }

// Handler returns the server's handler (API and /_fake/ admin endpoints).
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops the server and closes all open connections.
func (s *Server) Close() {
	s.closing.Do(func() {
		if s.srv != nil {
			s.srv.Close()
		}
	})
}

// Shutdown stops the server gracefully.
func (s *Server) Shutdown(ctx context.Context) error {
	if s.srv == nil {
		return nil
	}
	return s.srv.Shutdown(ctx)
}

// Requests returns a copy of the request log, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.reqs))
	copy(out, s.reqs)
	return out
}

// WaitRequests waits until the log holds at least n requests or timeout
// passes, and returns the log. A request is logged when its handler ends,
// which can be after the client saw the response (or the reset).
func (s *Server) WaitRequests(n int, timeout time.Duration) []Request {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		if len(s.reqs) >= n {
			out := make([]Request, len(s.reqs))
			copy(out, s.reqs)
			s.mu.Unlock()
			return out
		}
		if s.logged == nil {
			s.logged = make(chan struct{})
		}
		ch := s.logged
		s.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			return s.Requests()
		}
	}
}

// ResetRequests clears the request log.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	s.reqs = nil
	s.mu.Unlock()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/_fake/") || r.URL.Path == "/_fake" {
		s.admin(w, r)
		return
	}
	s.started.Add(1)
	entry := Request{
		Method:      r.Method,
		Path:        r.URL.Path,
		EscapedPath: r.URL.EscapedPath(),
		RawQuery:    r.URL.RawQuery,
		Page:        pageParam(r),
		PerPage:     perPageParam(r),
		AuthHeader:  r.Header.Get("Authorization"),
		Time:        time.Now(),

		IfNoneMatch:     r.Header.Get("If-None-Match"),
		IfModifiedSince: r.Header.Get("If-Modified-Since"),
	}
	entry.HasAuth = entry.AuthHeader != ""
	if entry.HasAuth {
		sum := sha256.Sum256([]byte(entry.AuthHeader))
		entry.AuthHash = hex.EncodeToString(sum[:])
	}
	// The request is logged when its status is written, before the client
	// can see the response, so a test that has its answer finds it in the
	// log; a request that gets no status (reset) is logged when it ends.
	var once sync.Once
	logEntry := func(status int) {
		once.Do(func() {
			entry.Status = status
			s.mu.Lock()
			s.reqs = append(s.reqs, entry)
			if s.logged != nil {
				close(s.logged)
				s.logged = nil
			}
			s.mu.Unlock()
		})
	}
	rec := &recorder{ResponseWriter: w, onStatus: logEntry}
	defer logEntry(0)
	maybeFree := mayBeFree(r)
	if r.URL.Path != "/rate_limit" {
		if !maybeFree {
			s.used.Add(1)
		}
		s.arrived.Add(1)
	}
	if s.lim != nil {
		ok, done := s.limit(rec, r)
		defer done()
		if !ok {
			return
		}
	}
	if maybeFree && r.URL.Path != "/rate_limit" {
		rec.before = func(status int) { s.chargeUnlessNotModified(rec.Header(), r, status) }
	}
	if s.latency > 0 {
		if !sleepCtx(r.Context(), s.latency) {
			return
		}
	}
	if f := s.matchFault(r, entry.Page); f != nil {
		entry.Fault = f.Kind
		if r = s.applyFault(rec, r, f); r == nil {
			return
		}
	}
	if s.token != "" && !s.authorized(rec, r) {
		return
	}
	if s.app != nil && !s.appAuthorized(rec, r) {
		return
	}
	if s.serveCompliance(rec, r) {
		return
	}
	serveWithETag(rec, r, s.mux)
}

func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	h := r.Header.Get("Authorization")
	if h == "" {
		writeError(s, w, r, http.StatusUnauthorized, "Requires authentication")
		return false
	}
	tok := h
	for _, p := range []string{"Bearer ", "bearer ", "token ", "Token "} {
		tok = strings.TrimPrefix(tok, p)
	}
	if tok != s.token {
		writeError(s, w, r, http.StatusUnauthorized, "Bad credentials")
		return false
	}
	return true
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// recorder captures the status code for the request log while keeping
// Flush and Hijack reachable through Unwrap (http.ResponseController).
type recorder struct {
	http.ResponseWriter
	status   int
	onStatus func(int)
	// before runs once with the status, before it is written (the
	// headers can still change).
	before func(int)
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
		if r.before != nil {
			r.before(code)
		}
		r.onStatus(code)
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
		r.onStatus(http.StatusOK)
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
