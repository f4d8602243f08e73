package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/enginehq/engine/providers"
)

// App installation tokens (auth type app). Every path, header and name
// comes from the provider's app auth kind (providers.AppAuth, its
// profile's auth.app; GitHub's: a GitHub App). For credentials of type
// app the client signs a JWT (RS256, iss = app ID, issued 60 s in the
// past against clock drift, valid 9 minutes: GitHub allows at most 10)
// and exchanges it at the kind's token path (POST) for an installation
// token (GitHub's last an hour), which it sends as "Authorization:
// Bearer" on every request. The token is minted once per credential and
// origin for the whole process (every request, fan-out and MCP session),
// and refreshed before it expires: at 80% of its lifetime, and at most 5
// minutes before expires_at. A 401 drops it, and the refused request's
// first attempt is retried once with a new token (PrepareRetry). Neither
// the JWT nor a token is logged; both join the scrubbed secrets the
// moment they exist (signed, or read from the answer), so an endpoint
// that echoes them in an error cannot put them in any output
// (Client.Secrets).
//
// Credentials without an installation ID cover every installation of the
// app: the installations are listed (the kind's installations path,
// signed with the JWT, every page) on the first request, and each request
// is sent with the token of the installation on the account its path
// names (AppAuth.Account; logins compare case-insensitively), one token
// per installation, minted, cached and refreshed as above. Each
// installation has its own governor (its own primary budget), keyed by
// the credential and the installation. A request that names no account
// goes to default_installation, or to the app's only installation; an
// account without an installation is an error naming it (the list is
// asked again at most once a minute, for an app installed meanwhile).
// The kind's JWT paths (the app's own endpoints) are sent with the JWT.

const (
	appJWTLifetime = 9 * time.Minute
	appJWTSkew     = 60 * time.Second
	appRefreshMax  = 5 * time.Minute
	appRelistAfter = time.Minute
	appMaxListPage = 100 // pages of GET /app/installations (10,000 installations)
)

// appTokens are the installation tokens of one app credential and origin,
// shared by every client of the process.
type appTokens struct {
	app *providers.AppCredentials
	key string // the governor key of the credential

	mu     sync.Mutex // guards minted, insts and byAcct
	minted []string   // every JWT signed and token received, for scrubbing
	insts  map[string]*installation
	byAcct map[string]*installation // lower-case account login -> installation

	list   sync.Mutex // held while listing the installations
	listed time.Time  // when they were last listed (zero: never)
}

// installation is one installation's token and governor.
type installation struct {
	id      string
	account string // login, "" when unknown (installation_id given)
	gov     *Governor

	mint    sync.Mutex // held while minting: one mint at a time
	mu      sync.Mutex // guards token and refresh
	token   string
	refresh time.Time // mint a new token from then on
}

func (i *installation) String() string {
	if i.account == "" {
		return "installation " + i.id
	}
	return "installation " + i.id + " (" + i.account + ")"
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
	t := &appTokens{app: app, key: key, insts: map[string]*installation{}, byAcct: map[string]*installation{}}
	if !app.Multi() {
		t.insts[app.InstallationID] = &installation{id: app.InstallationID}
	}
	appTokenSet[key] = t
	return t
}

// installationGovernor is the governor of one installation of a
// multi-installation app: its own budgets, keyed by the credential and
// the installation ID.
func (c *Client) installationGovernor(id string) *Governor {
	if c.opts.Governor == nil {
		return nil
	}
	gopts := *c.opts.Governor // as New makes the credential's
	if gopts.RateLimit == nil {
		rl := c.prof.RateLimitOf()
		gopts.RateLimit = &rl
	}
	return SharedGovernor(c.app.key+"\x00installation "+id, gopts, c.opts.Logf)
}

// relPath is a request path (escaped, as sent: see authorize) relative
// to the base URL's path.
func (c *Client) relPath(p string) string {
	for _, bp := range []string{c.base.EscapedPath(), c.base.Path} {
		if bp = strings.TrimRight(bp, "/"); bp != "" {
			if rest, ok := strings.CutPrefix(p, bp); ok && (rest == "" || rest[0] == '/') {
				return rest
			}
		}
	}
	return p
}

// knownInstallation returns the installation that serves path as far as
// is known without a request (nil: not listed yet, or no such account).
func (c *Client) knownInstallation(path string) *installation {
	t := c.app
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.app.Multi() {
		return t.insts[t.app.InstallationID]
	}
	acct := t.app.Kind.Account(c.relPath(path))
	if acct == "" {
		acct = t.app.DefaultInstallation
	}
	if acct != "" {
		return t.byAcct[strings.ToLower(acct)]
	}
	if len(t.insts) == 1 {
		for _, i := range t.insts {
			return i
		}
	}
	return nil
}

// govFor is the governor that paces requests to path: the installation's
// for an app over every installation, else the credential's.
func (c *Client) govFor(path string) *Governor {
	if c.app != nil && c.app.app.Multi() {
		if i := c.knownInstallation(path); i != nil && i.gov != nil {
			return i.gov
		}
	}
	return c.gov
}

// installationFor returns the installation that serves path, listing the
// app's installations first when needed.
func (c *Client) installationFor(ctx context.Context, u string, path string) (*installation, error) {
	if i := c.knownInstallation(path); i != nil {
		return i, nil
	}
	t := c.app
	t.list.Lock()
	stale := t.listed.IsZero() || time.Since(t.listed) > appRelistAfter
	var err error
	if stale {
		err = c.listInstallations(ctx)
	}
	t.list.Unlock()
	if err != nil {
		return nil, err
	}
	if i := c.knownInstallation(path); i != nil {
		return i, nil
	}
	t.mu.Lock()
	var accounts []string
	for a := range t.byAcct {
		accounts = append(accounts, t.byAcct[a].account)
	}
	t.mu.Unlock()
	sort.Strings(accounts)
	have := "it has none"
	if len(accounts) > 0 {
		have = "it is installed on " + strings.Join(accounts, ", ")
	}
	acct := t.app.Kind.Account(c.relPath(path))
	var msg string
	switch {
	case acct != "":
		msg = fmt.Sprintf("%s %s has no installation on the account %q (%s); install the app on %s, or leave %s out of the statement", t.app.Kind.Name, t.app.AppID, acct, have, acct, acct)
	case t.app.DefaultInstallation != "":
		msg = fmt.Sprintf("%s %s has no installation on %q, its default_installation (%s); set default_installation to an account it is installed on", t.app.Kind.Name, t.app.AppID, t.app.DefaultInstallation, have)
	default:
		env := ""
		if e := t.app.Kind.Env; e != nil && e.DefaultInstallation != "" {
			env = " (or " + e.DefaultInstallation + ")"
		}
		msg = fmt.Sprintf("this request names no account (organisation or user), so a %s over every installation needs a default: set \"default_installation\" in the provider's auth entry%s to the account whose installation serves it (%s)", t.app.Kind.Name, env, have)
	}
	pe := c.newError(Call{}, u, "auth", "not sent: "+msg)
	pe.Retryable = false
	return nil, pe
}

// listInstallations reads every page of GET /app/installations with the
// app's JWT and records the installations by account. Called with
// t.list held.
func (c *Client) listInstallations(ctx context.Context) error {
	t := c.app
	ctx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	defer cancel()
	next := c.baseStr + t.app.Kind.InstallationsPath + "?per_page=100"
	first, _ := url.Parse(next)
	found := map[string]*installation{}
	for page := 0; next != ""; page++ {
		if page == appMaxListPage {
			return c.listError(next, 0, fmt.Sprintf("GET /app/installations has more than %d pages; not read", appMaxListPage))
		}
		u, err := url.Parse(next)
		if err != nil || !sameOrigin(u, c.base) || u.Path != first.Path {
			return c.listError(next, 0, "the installations list points its next page elsewhere; not followed")
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, next, nil)
		if err != nil {
			return c.listError(next, 0, err.Error())
		}
		signed, err := c.appJWT()
		if err != nil {
			return err
		}
		c.setAppHeaders(req, signed)
		c.requests.Add(1)
		resp, err := c.hc.Do(req)
		if err != nil {
			if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
				return ctx.Err()
			}
			pe := c.appError(next, 0, "listing the "+t.app.Kind.Name+"'s installations: "+c.redact(err.Error()))
			pe.Method = http.MethodGet // a transport failure: retryable
			return pe
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
		resp.Body.Close()
		c.logf("GET %s -> %d (%s installations)", c.sanitize(next), resp.StatusCode, t.app.Kind.Name)
		if resp.StatusCode != http.StatusOK {
			msg := apiMessage(body)
			if msg == "" {
				msg = http.StatusText(resp.StatusCode)
			}
			if resp.StatusCode == http.StatusUnauthorized {
				msg += "; check app_id and that the private key belongs to this app (and that this machine's clock is right)"
			}
			return c.listError(next, resp.StatusCode, "could not list the "+t.app.Kind.Name+"'s installations: "+msg)
		}
		var items []struct {
			ID      json.Number `json:"id"`
			Account struct {
				Login string `json:"login"`
			} `json:"account"`
		}
		if err := json.Unmarshal(body, &items); err != nil {
			return c.listError(next, resp.StatusCode, "the installations list is not a JSON array of installations")
		}
		for _, it := range items {
			if it.ID.String() == "" || it.Account.Login == "" {
				continue
			}
			found[strings.ToLower(it.Account.Login)] = &installation{id: it.ID.String(), account: it.Account.Login}
		}
		next = ParseLink(resp.Header.Get("Link"))["next"]
	}
	t.mu.Lock()
	for acct, fi := range found {
		if old, ok := t.insts[fi.id]; ok {
			t.byAcct[acct] = old // keep its token
			continue
		}
		fi.gov = c.installationGovernor(fi.id)
		t.insts[fi.id] = fi
		t.byAcct[acct] = fi
	}
	t.listed = time.Now()
	t.mu.Unlock() // before logging: the log line is redacted with t's secrets
	c.logf("auth: %s %s has %d installations", t.app.Kind.Name, t.app.AppID, len(found))
	return nil
}

// authorize sets the request's credentials; for a GitHub App it mints or
// reuses the installation token of the installation serving the request
// (the JWT for the app's own endpoints). A request that would have to
// wait out a governor pause longer than the retry budget fails at once,
// unsent (pausedError).
func (c *Client) authorize(ctx context.Context, req *http.Request) error {
	// The installation is chosen from the path as it goes on the wire
	// (escaped: a value's %2F stays inside its segment), never from the
	// decoded path, whose segments a value with a slash could shift.
	if c.app != nil && c.app.app.Multi() && !c.app.app.Kind.JWTPath(c.relPath(req.URL.EscapedPath())) {
		// Route first: the pause to check is the installation's.
		if _, err := c.installationFor(ctx, req.URL.String(), req.URL.EscapedPath()); err != nil {
			return err
		}
	}
	if err := c.pausedError(req); err != nil {
		return err
	}
	return c.setAuth(ctx, req)
}

// setAuth sets the request's Authorization header.
func (c *Client) setAuth(ctx context.Context, req *http.Request) error {
	if c.app == nil {
		c.opts.Credentials.Apply(req)
		return nil
	}
	if c.app.app.Kind.JWTPath(c.relPath(req.URL.EscapedPath())) {
		signed, err := c.appJWT()
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+signed)
		return nil
	}
	inst, err := c.installationFor(ctx, req.URL.String(), req.URL.EscapedPath())
	if err != nil {
		return err
	}
	tok, err := c.appToken(ctx, inst)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	return nil
}

// appToken returns a valid token of installation i, minting one when
// needed.
func (c *Client) appToken(ctx context.Context, i *installation) (string, error) {
	valid := func() string {
		i.mu.Lock()
		defer i.mu.Unlock()
		if i.token != "" && time.Now().Before(i.refresh) {
			return i.token
		}
		return ""
	}
	if tok := valid(); tok != "" {
		return tok, nil
	}
	i.mint.Lock()
	defer i.mint.Unlock()
	if tok := valid(); tok != "" {
		return tok, nil // minted by another request meanwhile
	}
	tok, expires, err := c.mintAppToken(ctx, i)
	if err != nil {
		return "", err
	}
	life := time.Until(expires)
	early := min(appRefreshMax, life/5)
	i.mu.Lock()
	i.token, i.refresh = tok, expires.Add(-early)
	i.mu.Unlock()
	c.logf("auth: minted a %s installation token for %s %s %s, valid until %s", c.app.app.Kind.Name, strings.ToLower(c.app.app.Kind.Name), c.app.app.AppID, i, expires.UTC().Format(time.RFC3339))
	return tok, nil
}

// dropAppToken forgets tok when it is the current token of an
// installation (after a 401), and reports whether it was.
func (c *Client) dropAppToken(tok string) bool {
	if c.app == nil || tok == "" {
		return false
	}
	c.app.mu.Lock()
	insts := make([]*installation, 0, len(c.app.insts))
	for _, i := range c.app.insts {
		insts = append(insts, i)
	}
	c.app.mu.Unlock()
	for _, i := range insts {
		i.mu.Lock()
		hit := i.token == tok
		if hit {
			i.token = ""
		}
		i.mu.Unlock()
		if hit {
			return true
		}
	}
	return false
}

// prepareRetry is retryablehttp's PrepareRetry: a retry of a GitHub App
// request carries the current credentials (a token refreshed during a
// long wait, or new after a 401).
func (c *Client) prepareRetry(req *http.Request) error {
	if c.app == nil || !sameOrigin(req.URL, c.base) {
		return nil
	}
	return c.setAuth(req.Context(), req)
}

// appJWT signs a JWT of the app. The JWT mints tokens for every
// installation of the app while it is valid: it is scrubbed like a token
// from the moment it exists (an endpoint may echo it in an error).
func (c *Client) appJWT() (string, error) {
	now := time.Now()
	signed, err := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.RegisteredClaims{
		Issuer:    c.app.app.AppID,
		IssuedAt:  jwt.NewNumericDate(now.Add(-appJWTSkew)),
		ExpiresAt: jwt.NewNumericDate(now.Add(appJWTLifetime)),
	}).SignedString(c.app.app.Key)
	if err != nil {
		return "", c.appError("", 0, "signing the app's JWT failed: "+err.Error())
	}
	c.app.remember(signed)
	return signed, nil
}

func (c *Client) setAppHeaders(req *http.Request, signed string) {
	req.Header.Set("Authorization", "Bearer "+signed)
	kind := c.app.app.Kind
	for k, v := range kind.Headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	for _, k := range kind.ProviderHeaders {
		if v := c.headers[k]; v != "" {
			req.Header.Set(k, v)
		}
	}
}

func (c *Client) mintAppToken(ctx context.Context, i *installation) (string, time.Time, error) {
	now := time.Now()
	signed, err := c.appJWT()
	if err != nil {
		return "", time.Time{}, err
	}
	u := c.baseStr + strings.ReplaceAll(c.app.app.Kind.TokenPath, "{installation_id}", url.PathEscape(i.id))
	ctx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil)
	if err != nil {
		return "", time.Time{}, c.appError(u, 0, err.Error())
	}
	c.setAppHeaders(req, signed)
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
	c.logf("POST %s -> %d (%s installation token)", c.sanitize(u), resp.StatusCode, c.app.app.Kind.Name)
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
			if c.app.app.Multi() {
				hint = "; the installation of " + i.account + " was removed: install the app again"
			} else {
				hint = "; check installation_id: the app must be installed on the org"
			}
		}
		return "", time.Time{}, c.appError(u, resp.StatusCode, "could not get a "+c.app.app.Kind.Name+" installation token: "+msg+hint)
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

// listError is an error of GET /app/installations: retryable only for
// a server error (or 429); a refusal or a list that cannot be read is not.
func (c *Client) listError(u string, status int, msg string) *providers.ProviderError {
	pe := c.appError(u, status, msg)
	pe.Method = http.MethodGet
	pe.Retryable = status >= 500 || status == http.StatusTooManyRequests
	return pe
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
	// the configured secrets in every form they may come back in; the
	// app's tokens (one per installation, maybe hundreds) as they are, as
	// they are sent
	return append(slices.Clone(c.secretForms), c.appSecrets()...)
}
