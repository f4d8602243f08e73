package mcpsurface

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/enginehq/engine/engine/result"
)

// Authorization of the HTTP transport (docs/mcp.md, "Sharing the server
// with a team"). Two modes, either or both:
//
//   - OAuth 2.1 resource server (the MCP authorization specification):
//     Protected Resource Metadata (RFC 9728) at
//     /.well-known/oauth-protected-resource, a WWW-Authenticate challenge
//     naming it on 401, and bearer JWTs checked against the issuer's JWKS
//     (signature with an asymmetric algorithm, iss, aud = the resource,
//     exp required, nbf, the required scopes). The principal is the
//     token's sub.
//   - Static bearer tokens from a file (one "NAME TOKEN" a line), compared
//     in constant time. The principal is NAME.
//
// The principal owns the results it makes: fetch_result_page and
// engine://results/{id} serve a result only to the principal that made
// it (any other gets the answer of an unknown id).

// AuthOptions configure authorization.
type AuthOptions struct {
	// Issuer is the authorization server's issuer identifier: a token's
	// iss must equal it. Empty: no OAuth.
	Issuer string
	// JWKSURL is where the issuer's signing keys are; empty: the jwks_uri
	// of the issuer's metadata (RFC 8414, then OpenID discovery).
	JWKSURL string
	// Resource is this server's resource identifier, its MCP endpoint's
	// URL as clients reach it (https://mcp.example.com/mcp): a token's aud
	// must contain it.
	Resource string
	// Scopes are required in every token (its scope or scp claim).
	Scopes []string
	// TokensFile names the static tokens' file.
	TokensFile string
	// Leeway is the clock skew allowed on exp and nbf (0: 30 s).
	Leeway time.Duration
	// HTTPClient fetches metadata and keys (nil: a client with a 10 s
	// timeout that follows redirects only to HTTPS or loopback).
	HTTPClient *http.Client
}

// Auth checks bearer tokens for the HTTP transport (NewAuth).
type Auth struct {
	opts   AuthOptions
	static []staticToken
	jwks   *jwks
	parser *jwt.Parser
	// logf writes to the server's log (set by the HTTP handler; nil:
	// nothing is logged).
	logf func(format string, args ...any)
}

type staticToken struct {
	name string
	sum  [sha256.Size]byte
}

// minStaticToken is the shortest static token accepted (bytes).
const minStaticToken = 24

// NewAuth checks o and loads the static tokens. It fetches nothing: keys
// are fetched when the first token is checked.
func NewAuth(o AuthOptions) (*Auth, error) {
	if o.Issuer == "" && o.TokensFile == "" {
		return nil, errors.New("no authorization configured: give --oauth-issuer with --oauth-resource, or --tokens-file")
	}
	if o.Leeway <= 0 {
		o.Leeway = 30 * time.Second
	}
	var scopes []string // "a b" and "a,b" name two scopes (one variable)
	for _, s := range o.Scopes {
		scopes = append(scopes, strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })...)
	}
	o.Scopes = scopes
	a := &Auth{opts: o}
	if o.TokensFile != "" {
		toks, err := loadTokens(o.TokensFile)
		if err != nil {
			return nil, err
		}
		a.static = toks
	}
	if o.Issuer == "" {
		if o.JWKSURL != "" || o.Resource != "" || len(o.Scopes) > 0 {
			return nil, errors.New("--oauth-jwks-url, --oauth-resource and --oauth-scope need --oauth-issuer")
		}
		return a, nil
	}
	if err := secureURL(o.Issuer); err != nil {
		return nil, fmt.Errorf("--oauth-issuer: %w", err)
	}
	if o.JWKSURL != "" {
		if err := secureURL(o.JWKSURL); err != nil {
			return nil, fmt.Errorf("--oauth-jwks-url: %w", err)
		}
	}
	if o.Resource == "" {
		return nil, errors.New("--oauth-issuer needs --oauth-resource: this server's MCP URL as clients reach it (e.g. https://mcp.example.com/mcp), which tokens must name as their audience")
	}
	u, err := url.Parse(o.Resource)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Fragment != "" || u.RawQuery != "" {
		return nil, fmt.Errorf("--oauth-resource %q: give an absolute http(s) URL without query or fragment, e.g. https://mcp.example.com/mcp", o.Resource)
	}
	client := o.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(r *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			return secureURL(r.URL.String())
		}}
	}
	a.jwks = &jwks{url: o.JWKSURL, issuer: o.Issuer, client: client}
	a.parser = jwt.NewParser(
		jwt.WithValidMethods(signingMethods),
		jwt.WithIssuer(o.Issuer),
		jwt.WithExpirationRequired(),
		jwt.WithLeeway(o.Leeway),
	)
	return a, nil
}

// signingMethods are the JWS algorithms accepted: asymmetric ones only
// (never none, never a shared-secret HMAC a JWKS cannot carry safely).
var signingMethods = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// Describe says, for the log, how clients are authorized.
func (a *Auth) Describe() string {
	var parts []string
	if a.opts.Issuer != "" {
		parts = append(parts, fmt.Sprintf("OAuth bearer tokens of %s for %s", a.opts.Issuer, a.opts.Resource))
	}
	if len(a.static) > 0 {
		parts = append(parts, result.Plural(len(a.static), "static token"))
	}
	return strings.Join(parts, " or ")
}

// loadTokens reads a static tokens file: one "NAME TOKEN" a line, blank
// lines and lines starting with # ignored.
func loadTokens(path string) ([]staticToken, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--tokens-file: %w", err)
	}
	defer f.Close()
	var out []staticToken
	seen := map[[sha256.Size]byte]bool{}
	names := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			return nil, fmt.Errorf("--tokens-file %s:%d: expected NAME TOKEN (the principal's name, a space, the token)", path, n)
		}
		name, tok := fields[0], fields[1]
		if len(tok) < minStaticToken {
			return nil, fmt.Errorf("--tokens-file %s:%d: the token of %q is shorter than %d characters; make one with `openssl rand -hex 32`", path, n, name, minStaticToken)
		}
		sum := sha256.Sum256([]byte(tok))
		if seen[sum] {
			return nil, fmt.Errorf("--tokens-file %s:%d: the token of %q is also another line's; give each principal its own", path, n, name)
		}
		if names[name] {
			return nil, fmt.Errorf("--tokens-file %s:%d: %q has two tokens; one line per principal", path, n, name)
		}
		seen[sum], names[name] = true, true
		out = append(out, staticToken{name: name, sum: sum})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--tokens-file %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--tokens-file %s has no tokens; write one \"NAME TOKEN\" a line", path)
	}
	return out, nil
}

// matchStatic finds the static token tok, comparing its digest with every
// token's in constant time (no early exit, no length leak).
func (a *Auth) matchStatic(tok string) (string, bool) {
	sum := sha256.Sum256([]byte(tok))
	name, found := "", 0
	for _, s := range a.static {
		if subtle.ConstantTimeCompare(sum[:], s.sum[:]) == 1 {
			name, found = s.name, 1
		}
	}
	return name, found == 1
}

// tokenClaims are the claims read from an OAuth access token.
type tokenClaims struct {
	jwt.RegisteredClaims
	Scope string `json:"scope,omitempty"`
	Scp   any    `json:"scp,omitempty"`
}

func (c *tokenClaims) scopes() []string {
	out := strings.Fields(c.Scope)
	switch v := c.Scp.(type) {
	case string:
		out = append(out, strings.Fields(v)...)
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// Principals are kept apart by mode: a static token's NAME never reads a
// result of the OAuth subject of the same name.
const (
	oauthPrincipal  = "oauth:"
	staticPrincipal = "token:"
)

// verify is the auth.TokenVerifier: a static token, else an OAuth JWT.
func (a *Auth) verify(ctx context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
	if len(a.static) > 0 {
		if name, ok := a.matchStatic(tok); ok {
			return &auth.TokenInfo{UserID: staticPrincipal + name, Scopes: a.opts.Scopes}, nil
		}
	}
	if a.parser == nil {
		return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
	}
	var c tokenClaims
	_, err := a.parser.ParseWithClaims(tok, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		return a.jwks.key(ctx, kid, t.Method.Alg())
	})
	if err != nil {
		var ku *keysUnavailable
		if errors.As(err, &ku) {
			// The issuer's URLs stay in the log: the client may be
			// anyone, and they may be internal.
			if a.logf != nil {
				a.logf("engine mcp: cannot verify a bearer token: %v\n", ku.err)
			}
			return nil, fmt.Errorf("%w: the token cannot be verified now: the server could not read its authorization server's keys (the server's log says why); try again later", auth.ErrInvalidToken)
		}
		return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, tokenProblem(err))
	}
	// aud must name this resource; a trailing slash on either side is
	// tolerated (issuers differ), scheme, host and path are not.
	if !oauthex.MatchesResource(c.Audience, a.opts.Resource) {
		return nil, fmt.Errorf("%w: the token is not for this server (aud)", auth.ErrInvalidToken)
	}
	if c.Subject == "" {
		return nil, fmt.Errorf("%w: the token has no sub (subject) claim", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{UserID: oauthPrincipal + c.Subject, Scopes: c.scopes(), Expiration: c.ExpiresAt.Time}, nil
}

// tokenProblem says what is wrong with a token, without any of its text.
func tokenProblem(err error) string {
	for _, k := range []struct {
		err error
		msg string
	}{
		{jwt.ErrTokenExpired, "the token has expired"},
		{jwt.ErrTokenNotValidYet, "the token is not valid yet (nbf)"},
		{jwt.ErrTokenInvalidIssuer, "the token is not from the configured issuer (iss)"},
		{jwt.ErrTokenRequiredClaimMissing, "the token lacks a required claim (exp)"},
		{jwt.ErrTokenSignatureInvalid, "the token's signature does not verify"},
		{jwt.ErrTokenUnverifiable, "the token cannot be verified: " + unwrapLast(err)},
		{jwt.ErrTokenMalformed, "the token is malformed"},
	} {
		if errors.Is(err, k.err) {
			return k.msg
		}
	}
	return "the token is not valid"
}

// unwrapLast is the innermost message of err (the key function's).
func unwrapLast(err error) string {
	for {
		var next error
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			next = u.Unwrap()
		case interface{ Unwrap() []error }:
			if es := u.Unwrap(); len(es) > 0 {
				next = es[len(es)-1]
			}
		}
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// wrap puts authorization in front of the MCP endpoint: the SDK's bearer
// middleware (401 with a WWW-Authenticate challenge naming the resource
// metadata, 403 on missing scopes).
func (a *Auth) wrap(next http.Handler) http.Handler {
	opts := &auth.RequireBearerTokenOptions{
		Scopes: a.opts.Scopes,
		// Static tokens carry no expiry; JWTs must (the parser requires exp).
		AllowMissingExpiration: true,
		ClockSkew:              a.opts.Leeway,
	}
	if a.opts.Issuer != "" {
		opts.ResourceMetadataURL = a.metadataURL()
	}
	h := auth.RequireBearerToken(a.verify, opts)(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			// The SDK would answer "no bearer token": say what to send.
			a.challenge(w)
			http.Error(w, "engine mcp: this server needs a bearer token: send Authorization: Bearer TOKEN (an OAuth access token of its authorization server, or a token its operator gave you); see docs/mcp.md, \"Sharing the server with a team\"", http.StatusUnauthorized)
			return
		}
		f := strings.Fields(r.Header.Get("Authorization"))
		h.ServeHTTP(&challengeWriter{ResponseWriter: w, presented: len(f) == 2 && strings.EqualFold(f[0], "bearer")}, r)
	})
}

// challenge sets the WWW-Authenticate header of a 401: the resource
// metadata and scopes with OAuth (as the SDK's middleware does), a plain
// Bearer challenge (RFC 6750) with static tokens only.
func (a *Auth) challenge(w http.ResponseWriter) {
	if a.opts.Issuer == "" {
		w.Header().Set("WWW-Authenticate", staticChallenge)
		return
	}
	params := []string{fmt.Sprintf("resource_metadata=%q", a.metadataURL())}
	if len(a.opts.Scopes) > 0 {
		params = append(params, fmt.Sprintf("scope=%q", strings.Join(a.opts.Scopes, " ")))
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
}

// staticChallenge is the challenge with static tokens only: there is no
// metadata to point to.
const staticChallenge = `Bearer realm="engine mcp"`

// challengeWriter completes the challenge of the SDK's bearer middleware
// for a token that was presented: RFC 6750 section 3.1's error code,
// invalid_token on 401 (unknown, expired, badly signed, not for this
// server) and insufficient_scope on 403, so a client knows to get a new
// token rather than to log in again; with static tokens only, a plain
// Bearer challenge (there is no metadata to point to).
type challengeWriter struct {
	http.ResponseWriter
	presented bool // a bearer token was sent (else no error code: RFC 6750 section 3.1)
}

func (c *challengeWriter) WriteHeader(code int) {
	if code == http.StatusUnauthorized || code == http.StatusForbidden {
		ch := c.Header().Get("WWW-Authenticate")
		if ch == "" {
			ch = staticChallenge
		}
		if c.presented && !strings.Contains(ch, "error=") {
			e := "invalid_token"
			if code == http.StatusForbidden {
				e = "insufficient_scope"
			}
			ch += fmt.Sprintf(", error=%q", e)
		}
		c.Header().Set("WWW-Authenticate", ch)
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *challengeWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (c *challengeWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// ProtectedResourcePath is where the Protected Resource Metadata is
// served (RFC 9728), also with the resource's path appended.
const ProtectedResourcePath = "/.well-known/oauth-protected-resource"

// metadataURL is the Protected Resource Metadata URL of the resource
// (RFC 9728 section 3.1: the well-known path inserted before the
// resource's path).
func (a *Auth) metadataURL() string {
	u, _ := url.Parse(a.opts.Resource)
	return u.Scheme + "://" + u.Host + ProtectedResourcePath + strings.TrimSuffix(u.Path, "/")
}

// metadata routes the Protected Resource Metadata on mux.
func (a *Auth) metadata(mux *http.ServeMux) {
	if a.opts.Issuer == "" {
		return
	}
	h := auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               a.opts.Resource,
		AuthorizationServers:   []string{a.opts.Issuer},
		ScopesSupported:        a.opts.Scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "engine",
	})
	mux.Handle(ProtectedResourcePath, h)
	u, _ := url.Parse(a.opts.Resource)
	if p := strings.TrimSuffix(u.Path, "/"); p != "" {
		mux.Handle(ProtectedResourcePath+p, h)
	}
}

// principal is the owner of what a request keeps: its token's principal,
// or "" without authorization (stdio, or HTTP without it).
func principal(req mcp.Request) string {
	if req == nil {
		return ""
	}
	if x := req.GetExtra(); x != nil && x.TokenInfo != nil {
		return x.TokenInfo.UserID
	}
	return ""
}

// secureURL accepts https URLs, and http ones on a loopback host.
func secureURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URL", s)
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && LoopbackHost(u.Hostname()):
		return nil
	}
	return fmt.Errorf("%q: keys and metadata are fetched over https only (http only on loopback)", s)
}
