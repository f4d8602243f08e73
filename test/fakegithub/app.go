package fakegithub

import (
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// GitHub App installation auth (WithApp), as GitHub documents it
// ("Authenticating as a GitHub App installation"): the app signs a JWT
// (RS256, iss = app ID, exp at most 10 minutes ahead) with its private key
// and POSTs it to /app/installations/{installation_id}/access_tokens,
// which answers 201 {"token": "ghs_...", "expires_at": ...}. The token is
// then sent as "Authorization: Bearer" (or "token") and is refused with
// 401 "Bad credentials" once expired. The fake verifies the JWT with the
// app's public key and issues tokens that live TokenTTL (GitHub: 1 hour;
// tests use seconds).

// App configures WithApp.
type App struct {
	AppID          int64
	InstallationID int64
	PublicKey      *rsa.PublicKey
	// TokenTTL is the lifetime of installation tokens (default 1h).
	TokenTTL time.Duration
	// EchoPath, when set, is a regexp of paths answered 403 with a message
	// that quotes the request's installation token (a provider that echoes
	// credentials: the secrets suite checks it is scrubbed).
	EchoPath string
	// EchoJWT makes the token endpoint's 401 (a JWT it cannot verify)
	// quote the request's Authorization header, as a careless or hostile
	// endpoint would: the secrets suite checks the JWT is scrubbed.
	EchoJWT bool
}

// WithApp makes the server require GitHub App installation tokens on
// every API request.
func WithApp(a App) Option {
	return func(s *Server) {
		if a.TokenTTL <= 0 {
			a.TokenTTL = time.Hour
		}
		s.app = &appState{cfg: a, tokens: map[string]time.Time{}}
	}
}

type appState struct {
	cfg    App
	mu     sync.Mutex
	tokens map[string]time.Time // token -> expiry
	minted int
	jwts   []string // every JWT presented, for leak checks
}

// AppTokensMinted returns how many installation tokens were issued.
func (s *Server) AppTokensMinted() int {
	if s.app == nil {
		return 0
	}
	s.app.mu.Lock()
	defer s.app.mu.Unlock()
	return s.app.minted
}

// AppSecrets returns every installation token issued and every JWT
// presented (tests check that none appears in output).
func (s *Server) AppSecrets() []string {
	if s.app == nil {
		return nil
	}
	s.app.mu.Lock()
	defer s.app.mu.Unlock()
	out := append([]string(nil), s.app.jwts...)
	for t := range s.app.tokens {
		out = append(out, t)
	}
	return out
}

// ExpireAppTokens expires every installation token issued so far.
func (s *Server) ExpireAppTokens() {
	s.app.mu.Lock()
	defer s.app.mu.Unlock()
	for t := range s.app.tokens {
		s.app.tokens[t] = time.Time{}
	}
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	for _, p := range []string{"Bearer ", "bearer ", "token ", "Token "} {
		if strings.HasPrefix(h, p) {
			return strings.TrimPrefix(h, p)
		}
	}
	return ""
}

// appAuthorized checks an API request's installation token.
func (s *Server) appAuthorized(w http.ResponseWriter, r *http.Request) bool {
	if strings.HasPrefix(r.URL.Path, "/app/") {
		return true // JWT-authenticated: the handler checks
	}
	tok := bearer(r)
	if tok == "" {
		writeError(s, w, r, http.StatusUnauthorized, "Requires authentication")
		return false
	}
	s.app.mu.Lock()
	exp, ok := s.app.tokens[tok]
	s.app.mu.Unlock()
	if !ok || !time.Now().Before(exp) {
		writeError(s, w, r, http.StatusUnauthorized, "Bad credentials")
		return false
	}
	if s.app.cfg.EchoPath != "" {
		if m, _ := regexp.MatchString(s.app.cfg.EchoPath, r.URL.Path); m {
			writeError(s, w, r, http.StatusForbidden, "Resource not accessible by integration (token "+tok+", Authorization: "+r.Header.Get("Authorization")+")")
			return false
		}
	}
	return true
}

// handleAccessTokens is POST /app/installations/{id}/access_tokens.
func (s *Server) handleAccessTokens(w http.ResponseWriter, r *http.Request) {
	a := s.app
	if a == nil {
		notFound(s, w, r)
		return
	}
	raw := bearer(r)
	a.mu.Lock()
	if raw != "" {
		a.jwts = append(a.jwts, raw)
	}
	a.mu.Unlock()
	now := time.Now()
	_, err := jwt.Parse(raw, func(*jwt.Token) (any, error) { return a.cfg.PublicKey, nil },
		jwt.WithValidMethods([]string{"RS256"}),
		jwt.WithIssuer(strconv.FormatInt(a.cfg.AppID, 10)),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithTimeFunc(func() time.Time { return now }))
	if err == nil {
		// GitHub refuses a JWT that expires more than 10 minutes ahead.
		claims := jwt.RegisteredClaims{}
		if _, _, perr := jwt.NewParser().ParseUnverified(raw, &claims); perr != nil || claims.ExpiresAt.After(now.Add(10*time.Minute+time.Minute)) {
			err = jwt.ErrTokenInvalidClaims
		}
	}
	if err != nil {
		msg := "A JSON web token could not be decoded"
		if a.cfg.EchoJWT {
			msg += " (Authorization: " + r.Header.Get("Authorization") + ")"
		}
		writeError(s, w, r, http.StatusUnauthorized, msg)
		return
	}
	if r.PathValue("id") != strconv.FormatInt(a.cfg.InstallationID, 10) {
		writeError(s, w, r, http.StatusNotFound, "Not Found")
		return
	}
	b := make([]byte, 18)
	rand.Read(b) //nolint:errcheck
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	tok := []byte("ghs_")
	for _, x := range b {
		tok = append(tok, alnum[int(x)%len(alnum)], alnum[int(x/7)%len(alnum)])
	}
	expires := now.Add(a.cfg.TokenTTL)
	a.mu.Lock()
	a.tokens[string(tok)] = expires
	a.minted++
	a.mu.Unlock()
	writeJSON(s, w, http.StatusCreated, obj{
		"token":                string(tok),
		"expires_at":           expires.UTC().Format(time.RFC3339Nano),
		"permissions":          obj{"metadata": "read", "contents": "read"},
		"repository_selection": "all",
	})
}
