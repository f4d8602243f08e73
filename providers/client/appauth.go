package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/enginehq/engine/providers"
)

// GitHub App installation tokens. For credentials of type app the client
// signs a JWT (RS256, iss = app ID, issued 60 s in the past against clock
// drift, valid 9 minutes: GitHub allows at most 10) and exchanges it at
// POST /app/installations/{id}/access_tokens for an installation token
// (GitHub's last an hour), which it sends as "Authorization: Bearer" on
// every request. The token is minted once per credential and origin for
// the whole process (every request, fan-out and MCP session), and
// refreshed before it expires: at 80% of its lifetime, and at most 5
// minutes before expires_at. A 401 drops it, and the refused request's
// first attempt is retried once with a new token (PrepareRetry). Neither
// the JWT nor a token is logged; both join the scrubbed secrets the
// moment they exist (signed, or read from the answer), so an endpoint
// that echoes them in an error cannot put them in any output
// (Client.Secrets).

const (
	appJWTLifetime = 9 * time.Minute
	appJWTSkew     = 60 * time.Second
	appRefreshMax  = 5 * time.Minute
)

type appTokens struct {
	app *providers.AppCredentials

	mint    sync.Mutex // held while minting: one mint at a time
	mu      sync.Mutex // guards the fields below
	token   string
	refresh time.Time // mint a new token from then on
	minted  []string  // every JWT signed and token received, for scrubbing
}

// remember adds a credential to the secrets scrubbed from every output.
func (t *appTokens) remember(secret string) {
	if secret == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.minted {
		if s == secret {
			return
		}
	}
	t.minted = append(t.minted, secret)
}

var (
	appTokensMu sync.Mutex
	appTokenSet = map[string]*appTokens{}
)

func sharedAppTokens(key string, app *providers.AppCredentials) *appTokens {
	appTokensMu.Lock()
	defer appTokensMu.Unlock()
	if t, ok := appTokenSet[key]; ok {
		return t
	}
	t := &appTokens{app: app}
	appTokenSet[key] = t
	return t
}

// authorize sets the request's credentials; for a GitHub App it mints or
// reuses the installation token first. A request that would have to wait
// out a governor pause longer than the retry budget fails at once,
// unsent (pausedError).
func (c *Client) authorize(ctx context.Context, req *http.Request) error {
	if err := c.pausedError(req); err != nil {
		return err
	}
	if c.app == nil {
		c.opts.Credentials.Apply(req)
		return nil
	}
	tok, err := c.appToken(ctx)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	return nil
}

// appToken returns a valid installation token, minting one when needed.
func (c *Client) appToken(ctx context.Context) (string, error) {
	t := c.app
	valid := func() string {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.token != "" && time.Now().Before(t.refresh) {
			return t.token
		}
		return ""
	}
	if tok := valid(); tok != "" {
		return tok, nil
	}
	t.mint.Lock()
	defer t.mint.Unlock()
	if tok := valid(); tok != "" {
		return tok, nil // minted by another request meanwhile
	}
	tok, expires, err := c.mintAppToken(ctx)
	if err != nil {
		return "", err
	}
	life := time.Until(expires)
	early := min(appRefreshMax, life/5)
	t.mu.Lock()
	t.token, t.refresh = tok, expires.Add(-early)
	t.mu.Unlock()
	c.logf("auth: minted a GitHub App installation token for %s, valid until %s", t.app, expires.UTC().Format(time.RFC3339))
	return tok, nil
}

// dropAppToken forgets tok when it is the current token (after a 401),
// and reports whether it was.
func (c *Client) dropAppToken(tok string) bool {
	if c.app == nil || tok == "" {
		return false
	}
	c.app.mu.Lock()
	defer c.app.mu.Unlock()
	if c.app.token != tok {
		return false
	}
	c.app.token = ""
	return true
}

// prepareRetry is retryablehttp's PrepareRetry: a retry of a GitHub App
// request carries the current installation token (refreshed during a long
// wait, or new after a 401).
func (c *Client) prepareRetry(req *http.Request) error {
	if c.app == nil || !sameOrigin(req.URL, c.base) {
		return nil
	}
	tok, err := c.appToken(req.Context())
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	return nil
}

func (c *Client) mintAppToken(ctx context.Context) (string, time.Time, error) {
	app := c.app.app
	now := time.Now()
	signed, err := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.RegisteredClaims{
		Issuer:    app.AppID,
		IssuedAt:  jwt.NewNumericDate(now.Add(-appJWTSkew)),
		ExpiresAt: jwt.NewNumericDate(now.Add(appJWTLifetime)),
	}).SignedString(app.Key)
	if err != nil {
		return "", time.Time{}, c.appError("", 0, "signing the app's JWT failed: "+err.Error())
	}
	// The JWT mints tokens for every installation of the app while it is
	// valid: it is scrubbed like a token from the moment it exists (a
	// token endpoint may echo it in an error).
	c.app.remember(signed)
	u := c.baseStr + "/app/installations/" + url.PathEscape(app.InstallationID) + "/access_tokens"
	ctx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
	if err != nil {
		return "", time.Time{}, c.appError(u, 0, err.Error())
	}
	req.Header.Set("Authorization", "Bearer "+signed)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("User-Agent", c.opts.UserAgent)
	if v := c.headers["X-GitHub-Api-Version"]; v != "" {
		req.Header.Set("X-GitHub-Api-Version", v)
	}
	c.requests.Add(1)
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
			return "", time.Time{}, ctx.Err()
		}
		return "", time.Time{}, c.appError(u, 0, "requesting an installation token: "+strings.ReplaceAll(err.Error(), signed, "[REDACTED]"))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	c.logf("POST %s -> %d (GitHub App installation token)", c.sanitize(u), resp.StatusCode)
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		msg := apiMessage(body)
		if msg == "" {
			msg = http.StatusText(resp.StatusCode)
		}
		hint := ""
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			hint = "; check app_id and that the private key belongs to this app (and that this machine's clock is right)"
		case http.StatusNotFound:
			hint = "; check installation_id: the app must be installed on the org"
		}
		return "", time.Time{}, c.appError(u, resp.StatusCode, "could not get a GitHub App installation token: "+msg+hint)
	}
	var out struct {
		Token     string    `json:"token"`
		ExpiresAt time.Time `json:"expires_at"`
	}
	err = json.Unmarshal(body, &out)
	c.app.remember(out.Token)
	if err != nil || out.Token == "" {
		return "", time.Time{}, c.appError(u, resp.StatusCode, "the installation token response has no token")
	}
	if out.ExpiresAt.IsZero() {
		out.ExpiresAt = now.Add(time.Hour)
	}
	return out.Token, out.ExpiresAt, nil
}

func (c *Client) appError(u string, status int, msg string) *providers.ProviderError {
	pe := c.newError(Call{}, u, "auth", msg)
	pe.Method = http.MethodPost
	pe.Status = status
	pe.Retryable = status == 0 || status >= 500
	return pe
}

// appSecrets returns the JWTs signed and installation tokens received so
// far.
func (c *Client) appSecrets() []string {
	if c.app == nil {
		return nil
	}
	c.app.mu.Lock()
	defer c.app.mu.Unlock()
	return append([]string(nil), c.app.minted...)
}

// Secrets returns the secrets this client's credentials send, for
// scrubbing text that leaves the process: the configured secret, or every
// GitHub App JWT signed and installation token received so far.
func (c *Client) Secrets() []string {
	var out []string
	if s := c.opts.Credentials.Secret(); s != "" {
		out = append(out, s)
	}
	return append(out, c.appSecrets()...)
}
