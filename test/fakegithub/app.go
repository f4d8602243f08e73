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
//
// With Installations the app is installed on several accounts, as an app
// installed on several organisations is: GET /app/installations (JWT)
// lists them, paginated like every list (ListPageSize caps per_page);
// each installation mints its own tokens, and a token serves only its
// account: a request naming another account (/orgs/{org}, /repos/{owner},
// /users/{username}) is answered 404 "Not Found", as GitHub hides what an
// installation cannot read. Every API request is counted per installation
// and account (AppServed), so tests can assert which token served which
// organisation. RevokeInstallation makes GitHub refuse every token of an
// installation (401) while still minting new ones.

// App configures WithApp.
type App struct {
	AppID          int64
	InstallationID int64 // the one installation, when Installations is empty
	// Installations are the app's installations on accounts (several).
	Installations []Installation
	// ListPageSize caps per_page of GET /app/installations (default 100).
	ListPageSize int
	PublicKey    *rsa.PublicKey
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
		s.app = &appState{cfg: a, tokens: map[string]appToken{}, revoked: map[int64]bool{},
			mintedBy: map[int64]int{}, served: map[int64]map[string]int{}}
	}
}

// Installation is one installation of the app on an account (an org or
// user login).
type Installation struct {
	ID      int64
	Account string
}

type appToken struct {
	expires      time.Time
	installation int64
}

type appState struct {
	cfg      App
	mu       sync.Mutex
	tokens   map[string]appToken // token -> expiry and installation
	minted   int
	mintedBy map[int64]int            // installation -> tokens minted
	served   map[int64]map[string]int // installation -> account ("" none) -> requests
	revoked  map[int64]bool
	jwts     []string // every JWT presented, for leak checks
}

// installation returns the installation of id (ok false: none).
func (a *appState) installation(id int64) (Installation, bool) {
	if len(a.cfg.Installations) == 0 {
		return Installation{ID: a.cfg.InstallationID}, id == a.cfg.InstallationID
	}
	for _, in := range a.cfg.Installations {
		if in.ID == id {
			return in, true
		}
	}
	return Installation{}, false
}

// accountOfPath is the account a request path names: the {org} of
// /orgs/{org}, the {owner} of /repos/{owner}/{repo}, the {username} of
// /users/{username}; "" for any other path.
func accountOfPath(path string) string {
	parts := strings.SplitN(strings.TrimPrefix(path, "/"), "/", 3)
	if len(parts) < 2 {
		return ""
	}
	switch parts[0] {
	case "orgs", "users":
		return parts[1]
	case "repos":
		if len(parts) == 3 {
			return parts[1]
		}
	}
	return ""
}

// AppTokensMintedFor returns how many tokens installation id was issued.
func (s *Server) AppTokensMintedFor(id int64) int {
	s.app.mu.Lock()
	defer s.app.mu.Unlock()
	return s.app.mintedBy[id]
}

// AppServed returns, per installation ID, the API requests its tokens
// made, by the (lower-case) account each named ("" for none).
func (s *Server) AppServed() map[int64]map[string]int {
	s.app.mu.Lock()
	defer s.app.mu.Unlock()
	out := map[int64]map[string]int{}
	for id, m := range s.app.served {
		out[id] = map[string]int{}
		for k, v := range m {
			out[id][k] = v
		}
	}
	return out
}

// RevokeInstallation makes every token of installation id, issued or to
// come, refused with 401 "Bad credentials".
func (s *Server) RevokeInstallation(id int64) {
	s.app.mu.Lock()
	defer s.app.mu.Unlock()
	s.app.revoked[id] = true
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
	for t, at := range s.app.tokens {
		at.expires = time.Time{}
		s.app.tokens[t] = at
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
	at, ok := s.app.tokens[tok]
	revoked := s.app.revoked[at.installation]
	in, _ := s.app.installation(at.installation)
	s.app.mu.Unlock()
	if !ok || !time.Now().Before(at.expires) || revoked {
		writeError(s, w, r, http.StatusUnauthorized, "Bad credentials")
		return false
	}
	acct := strings.ToLower(accountOfPath(r.URL.Path))
	s.app.mu.Lock()
	if s.app.served[at.installation] == nil {
		s.app.served[at.installation] = map[string]int{}
	}
	s.app.served[at.installation][acct]++
	s.app.mu.Unlock()
	if in.Account != "" && acct != "" && acct != strings.ToLower(in.Account) {
		notFound(s, w, r) // not readable by this installation
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
	a := s.appCaller(w, r)
	if a == nil {
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if _, ok := a.installation(id); !ok {
		writeError(s, w, r, http.StatusNotFound, "Not Found")
		return
	}
	now := time.Now()
	b := make([]byte, 18)
	rand.Read(b) //nolint:errcheck
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	tok := []byte("ghs_")
	for _, x := range b {
		tok = append(tok, alnum[int(x)%len(alnum)], alnum[int(x/7)%len(alnum)])
	}
	expires := now.Add(a.cfg.TokenTTL)
	a.mu.Lock()
	a.tokens[string(tok)] = appToken{expires: expires, installation: id}
	a.minted++
	a.mintedBy[id]++
	a.mu.Unlock()
	writeJSON(s, w, http.StatusCreated, obj{
		"token":                string(tok),
		"expires_at":           expires.UTC().Format(time.RFC3339Nano),
		"permissions":          obj{"metadata": "read", "contents": "read"},
		"repository_selection": "all",
	})
}

// handleListInstallations is GET /app/installations (JWT): the app's
// installations, paginated.
func (s *Server) handleListInstallations(w http.ResponseWriter, r *http.Request) {
	a := s.appCaller(w, r)
	if a == nil {
		return
	}
	ins := a.cfg.Installations
	if len(ins) == 0 {
		ins = []Installation{{ID: a.cfg.InstallationID, Account: "acme"}}
	}
	if a.cfg.ListPageSize > 0 {
		q := r.URL.Query()
		if per := perPageParam(r); per > a.cfg.ListPageSize || q.Get("per_page") == "" {
			q.Set("per_page", strconv.Itoa(a.cfg.ListPageSize))
			r.URL.RawQuery = q.Encode()
		}
	}
	page, start, end, last := window(r, len(ins))
	items := make([]obj, 0, end-start)
	for _, in := range ins[start:end] {
		items = append(items, obj{
			"id":                   in.ID,
			"account":              simpleUser(in.Account, "Organization"),
			"app_id":               a.cfg.AppID,
			"app_slug":             "engine-test-app",
			"target_id":            userID(in.Account),
			"target_type":          "Organization",
			"repository_selection": "all",
			"access_tokens_url":    "https://api.github.com/app/installations/" + strconv.FormatInt(in.ID, 10) + "/access_tokens",
			"repositories_url":     "https://api.github.com/installation/repositories",
			"html_url":             "https://github.com/organizations/" + in.Account + "/settings/installations/" + strconv.FormatInt(in.ID, 10),
			"permissions":          obj{"metadata": "read", "contents": "read", "members": "read"},
			"events":               []string{},
			"created_at":           "2024-01-02T03:04:05Z",
			"updated_at":           "2024-01-02T03:04:05Z",
			"suspended_at":         nil,
			"suspended_by":         nil,
		})
	}
	if l := linkHeader(r, page, last); l != "" {
		w.Header().Set("Link", l)
	}
	writeJSON(s, w, http.StatusOK, items)
}

// appCaller returns the app a request to an /app/ endpoint is made as,
// or nil after answering 404 when the server models no app, or 401 when
// the request's JWT is not the app's valid one.
func (s *Server) appCaller(w http.ResponseWriter, r *http.Request) *appState {
	a := s.app
	if a == nil {
		notFound(s, w, r)
		return nil
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
		return nil
	}
	return a
}
