package mcp_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// resource is the resource identifier the test servers are configured
// with: the URL clients would reach them at behind a proxy.
const resource = "https://mcp.team.example/mcp"

// issuer is a local OAuth authorization server: RSA keys made in the
// test, its metadata (RFC 8414) and key set (JWKS) served on loopback.
type issuer struct {
	srv         *httptest.Server
	mu          sync.Mutex
	keys        map[string]*rsa.PrivateKey // published, by kid
	jwksFetch   atomic.Int32
	metaFetches atomic.Int32
}

func newIssuer(t *testing.T) *issuer {
	t.Helper()
	is := &issuer{keys: map[string]*rsa.PrivateKey{}}
	is.addKey(t, "k1")
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		is.metaFetches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"issuer": is.url(), "jwks_uri": is.url() + "/jwks", "token_endpoint": is.url() + "/token", "authorization_endpoint": is.url() + "/authorize", "response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"}}) //nolint:errcheck
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		is.jwksFetch.Add(1)
		w.Header().Set("Content-Type", "application/json")
		is.mu.Lock()
		defer is.mu.Unlock()
		var keys []map[string]string
		for kid, k := range is.keys {
			keys = append(keys, map[string]string{"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
				"n": base64.RawURLEncoding.EncodeToString(k.N.Bytes()),
				"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(k.E)).Bytes())})
		}
		json.NewEncoder(w).Encode(map[string]any{"keys": keys}) //nolint:errcheck
	})
	is.srv = httptest.NewServer(mux)
	t.Cleanup(is.srv.Close)
	return is
}

func (is *issuer) url() string { return is.srv.URL }

func (is *issuer) addKey(t *testing.T, kid string) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	is.mu.Lock()
	is.keys[kid] = k
	is.mu.Unlock()
	return k
}

// token signs claims with the key kid (RS256); edit changes the claims
// first (nil: a valid token for sub).
func (is *issuer) token(t *testing.T, sub string, edit func(jwt.MapClaims)) string {
	t.Helper()
	now := time.Now()
	c := jwt.MapClaims{"iss": is.url(), "aud": resource, "sub": sub, "iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Hour).Unix(), "scope": "openid mcp:query"}
	if edit != nil {
		edit(c)
	}
	is.mu.Lock()
	key := is.keys["k1"]
	is.mu.Unlock()
	return signRS256(t, key, "k1", c)
}

func signRS256(t *testing.T, key *rsa.PrivateKey, kid string, c jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, c)
	tok.Header["kid"] = kid
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// bearer is an http.RoundTripper that sends a bearer token.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// connectAs connects the real SDK client with a bearer token, at protocol
// version (2025-11-25: a session; "": the client's newest, 2026-07-28,
// stateless).
func connectAs(t *testing.T, endpoint, token, version string) (*mcptest.Client, error) {
	t.Helper()
	tr := mcptest.HTTP(endpoint)
	tr.HTTPClient = &http.Client{Transport: bearer(token)}
	cs, err := mcptest.Dial(t, tr, nil, version)
	if err != nil {
		return nil, err
	}
	return mcptest.NewClient(t, cs), nil
}

// initWith posts a raw initialize with an Authorization header (none when
// auth is "").
func initWith(t *testing.T, endpoint, auth string) (*http.Response, string) {
	t.Helper()
	h := map[string]string{}
	if auth != "" {
		h["Authorization"] = auth
	}
	return rawPost(t, endpoint, rawInit, h)
}

// TestHTTPOAuthResourceServer: with --oauth-issuer the HTTP transport is
// an OAuth 2.1 resource server. Without a token a client gets 401 and a
// challenge naming the Protected Resource Metadata (RFC 9728), served at
// the well-known path; a token signed by the issuer's key for this
// resource, with the required scope, is served (real SDK client, both
// protocol generations); expired, not-yet-valid, wrong-audience,
// wrong-issuer, unsigned (alg none), badly signed, subject-less and
// scope-less tokens are refused; a key the issuer adds later (rotation) is
// fetched on its first unknown kid.
func TestHTTPOAuthResourceServer(t *testing.T) {
	fake := fakegithub.ForTest(t)
	is := newIssuer(t)
	endpoint, log := httpServerLog(t, fake, "--oauth-issuer", is.url(), "--oauth-resource", resource, "--oauth-scope", "mcp:query")
	metadata := "https://mcp.team.example/.well-known/oauth-protected-resource/mcp"

	// No token: 401 with the challenge.
	resp, body := initWith(t, endpoint, "")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: %d %s", resp.StatusCode, body)
	}
	if ch := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(ch, "Bearer ") || !strings.Contains(ch, `resource_metadata="`+metadata+`"`) || !strings.Contains(ch, `scope="mcp:query"`) {
		t.Fatalf("challenge %q, want Bearer resource_metadata=%q", ch, metadata)
	}
	if ch := resp.Header.Get("WWW-Authenticate"); strings.Contains(ch, "error=") {
		t.Fatalf("challenge to a request without a token %q has an error code (RFC 6750 section 3.1: none)", ch)
	}
	// The metadata, at the well-known path and with the resource's path.
	base := strings.TrimSuffix(endpoint, "/mcp")
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		r, err := http.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers"`
			ScopesSupported      []string `json:"scopes_supported"`
			BearerMethods        []string `json:"bearer_methods_supported"`
		}
		err = json.NewDecoder(r.Body).Decode(&m)
		r.Body.Close()
		if err != nil || r.StatusCode != http.StatusOK || m.Resource != resource || len(m.AuthorizationServers) != 1 || m.AuthorizationServers[0] != is.url() ||
			strings.Join(m.ScopesSupported, " ") != "mcp:query" || strings.Join(m.BearerMethods, " ") != "header" {
			t.Fatalf("GET %s: %d %+v %v", p, r.StatusCode, m, err)
		}
	}
	if n := is.jwksFetch.Load(); n != 0 {
		t.Fatalf("keys fetched %d times before any token came", n)
	}

	// A valid token: served, over a session and statelessly.
	fetched := time.Now()
	valid := is.token(t, "alice", nil)
	for _, v := range []string{"2025-11-25", ""} {
		c, err := connectAs(t, endpoint, valid, v)
		if err != nil {
			t.Fatalf("valid token, protocol %q: %v\n%s", v, err, log)
		}
		if r := c.Query(t, acme+" LIMIT 1"); r.IsError || r.RowCount != 1 {
			t.Fatalf("valid token, protocol %q: %+v", v, r)
		}
	}
	if n := is.jwksFetch.Load(); n != 1 {
		t.Errorf("keys fetched %d times for many requests with one key; want once (cached)", n)
	}

	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, c := range []struct {
		name, token string
		status      int
		says        string
	}{
		{"expired", is.token(t, "alice", func(c jwt.MapClaims) {
			c["exp"] = now.Add(-time.Hour).Unix()
			c["iat"] = now.Add(-2 * time.Hour).Unix()
			c["nbf"] = now.Add(-2 * time.Hour).Unix()
		}), 401, "expired"},
		{"expired 20 s ago (within the 30 s leeway)", is.token(t, "alice", func(c jwt.MapClaims) {
			c["exp"] = now.Add(-20 * time.Second).Unix()
			c["iat"] = now.Add(-time.Hour).Unix()
			c["nbf"] = now.Add(-time.Hour).Unix()
		}), 200, "2025-06-18"},
		{"expired 2 min ago (past the leeway)", is.token(t, "alice", func(c jwt.MapClaims) {
			c["exp"] = now.Add(-2 * time.Minute).Unix()
			c["iat"] = now.Add(-time.Hour).Unix()
			c["nbf"] = now.Add(-time.Hour).Unix()
		}), 401, "expired"},
		{"not yet valid", is.token(t, "alice", func(c jwt.MapClaims) { c["nbf"] = now.Add(time.Hour).Unix() }), 401, "not valid yet"},
		{"no exp", is.token(t, "alice", func(c jwt.MapClaims) { delete(c, "exp") }), 401, "exp"},
		{"wrong audience", is.token(t, "alice", func(c jwt.MapClaims) { c["aud"] = "https://other.example/mcp" }), 401, "aud"},
		{"audience of another path", is.token(t, "alice", func(c jwt.MapClaims) { c["aud"] = "https://mcp.team.example/mcp2" }), 401, "aud"},
		{"no audience", is.token(t, "alice", func(c jwt.MapClaims) { delete(c, "aud") }), 401, "aud"},
		{"audience with a trailing slash, among others", is.token(t, "alice", func(c jwt.MapClaims) { c["aud"] = []string{"api://other", resource + "/"} }), 200, "2025-06-18"},
		{"wrong issuer", is.token(t, "alice", func(c jwt.MapClaims) { c["iss"] = "https://evil.example" }), 401, "iss"},
		{"no subject", is.token(t, "alice", func(c jwt.MapClaims) { delete(c, "sub") }), 401, "sub"},
		{"missing scope", is.token(t, "alice", func(c jwt.MapClaims) { c["scope"] = "openid" }), 403, "insufficient scope"},
		{"bad signature (another key, the issuer's kid)", signRS256(t, other, "k1", jwt.MapClaims{"iss": is.url(), "aud": resource, "sub": "alice", "exp": now.Add(time.Hour).Unix(), "scope": "mcp:query"}), 401, "signature"},
		{"unknown kid", signRS256(t, other, "nope", jwt.MapClaims{"iss": is.url(), "aud": resource, "sub": "alice", "exp": now.Add(time.Hour).Unix(), "scope": "mcp:query"}), 401, "kid"},
		{"unsigned (alg none)", unsigned(t, jwt.MapClaims{"iss": is.url(), "aud": resource, "sub": "alice", "exp": now.Add(time.Hour).Unix(), "scope": "mcp:query"}), 401, "signature"},
		{"HMAC with the public key as secret", hmacWithPublicKey(t, is, jwt.MapClaims{"iss": is.url(), "aud": resource, "sub": "alice", "exp": now.Add(time.Hour).Unix(), "scope": "mcp:query"}), 401, "signature"},
		{"not a JWT", "ghp_notajwt0000000000000000000000000000", 401, "malformed"},
	} {
		resp, body := initWith(t, endpoint, "Bearer "+c.token)
		if resp.StatusCode != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%s: %d %q, want %d saying %q", c.name, resp.StatusCode, body, c.status, c.says)
		}
		if resp.StatusCode/100 == 2 {
			continue
		}
		if !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
			t.Errorf("%s: no challenge: %q", c.name, resp.Header.Get("WWW-Authenticate"))
		}
		// RFC 6750 section 3.1: a token presented but refused is
		// invalid_token (401) or insufficient_scope (403).
		wantErr := `error="invalid_token"`
		if c.status == http.StatusForbidden {
			wantErr = `error="insufficient_scope"`
		}
		if ch := resp.Header.Get("WWW-Authenticate"); !strings.Contains(ch, wantErr) {
			t.Errorf("%s: challenge %q lacks %s", c.name, ch, wantErr)
		}
		if strings.Contains(body, c.token) || strings.Contains(log.String(), c.token) {
			t.Errorf("%s: the token appears in the answer or the log", c.name)
		}
		if _, err := connectAs(t, endpoint, c.token, "2025-11-25"); err == nil {
			t.Errorf("%s: the SDK client connected", c.name)
		}
	}

	// Key rotation: a token signed with a key published after the set was
	// fetched is accepted once the set is fetched again (unknown kid).
	time.Sleep(time.Until(fetched.Add(11 * time.Second))) // the least time between two fetches of the key set is 10 s
	k2 := is.addKey(t, "k2")
	rotated := signRS256(t, k2, "k2", jwt.MapClaims{"iss": is.url(), "aud": resource, "sub": "alice", "exp": now.Add(time.Hour).Unix(), "scope": "mcp:query"})
	if resp, body := initWith(t, endpoint, "Bearer "+rotated); resp.StatusCode != http.StatusOK {
		t.Fatalf("token of a rotated-in key: %d %s", resp.StatusCode, body)
	}
}

// TestHTTPOAuthMetadataWithSDK: the go-sdk's own client-side discovery
// reads the challenge and the Protected Resource Metadata of a server
// whose resource is its real address, and accepts them (the metadata's
// resource must equal the resource, its authorization server must be
// https or loopback).
func TestHTTPOAuthMetadataWithSDK(t *testing.T) {
	fake := fakegithub.ForTest(t)
	is := newIssuer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	res := "http://" + addr + "/mcp"
	endpoint := httpServer(t, fake, "--listen", addr, "--oauth-issuer", is.url(), "--oauth-resource", res)
	if endpoint != res {
		t.Fatalf("endpoint %s, want %s", endpoint, res)
	}
	resp, _ := initWith(t, endpoint, "")
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil || len(challenges) != 1 || !strings.EqualFold(challenges[0].Scheme, "bearer") {
		t.Fatalf("challenges %+v: %v", challenges, err)
	}
	metaURL := challenges[0].Params["resource_metadata"]
	if metaURL != "http://"+addr+"/.well-known/oauth-protected-resource/mcp" {
		t.Fatalf("resource_metadata %q", metaURL)
	}
	prm, err := oauthex.GetProtectedResourceMetadata(context.Background(), metaURL, res, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	if len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != is.url() {
		t.Fatalf("authorization servers %v", prm.AuthorizationServers)
	}
	meta, err := oauthex.GetAuthServerMeta(context.Background(), prm.AuthorizationServers[0]+"/.well-known/oauth-authorization-server", prm.AuthorizationServers[0], http.DefaultClient)
	if err != nil || meta == nil || meta.JWKSURI != is.url()+"/jwks" {
		t.Fatalf("the issuer's metadata through the SDK: %+v %v", meta, err)
	}
	tok := is.token(t, "erin", func(c jwt.MapClaims) { c["aud"] = res })
	c, err := connectAs(t, endpoint, tok, "2025-11-25")
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Query(t, acme+" LIMIT 1"); r.IsError || r.RowCount != 1 {
		t.Fatalf("query: %+v", r)
	}
}

// unsigned is a JWT with alg none and no signature.
func unsigned(t *testing.T, c jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodNone, c).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// hmacWithPublicKey is the algorithm-confusion attack: HS256 keyed with
// the issuer's public key.
func hmacWithPublicKey(t *testing.T, is *issuer, c jwt.MapClaims) string {
	t.Helper()
	is.mu.Lock()
	n := is.keys["k1"].N.Bytes()
	is.mu.Unlock()
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, c)
	tok.Header["kid"] = "k1"
	s, err := tok.SignedString(n)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHTTPStaticTokens: with --tokens-file a request needs one of the
// file's tokens; a wrong or missing one gets 401 with a Bearer challenge.
func TestHTTPStaticTokens(t *testing.T) {
	fake := fakegithub.ForTest(t)
	file := tokensFile(t, "# principal token\nalice "+alice+"\n\nbob   "+bob+"\n", 0o640)
	endpoint, log := httpServerLog(t, fake, "--tokens-file", file)
	for _, tok := range []string{alice, bob} {
		for _, v := range []string{"2025-11-25", ""} {
			c, err := connectAs(t, endpoint, tok, v)
			if err != nil {
				t.Fatalf("right token, protocol %q: %v", v, err)
			}
			if r := c.Query(t, acme+" LIMIT 1"); r.IsError || r.RowCount != 1 {
				t.Fatalf("right token: %+v", r)
			}
		}
	}
	for _, auth := range []string{"", "Bearer " + alice[:len(alice)-1] + "x", "Bearer " + alice + "x", "Bearer " + alice[:10], "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:"+alice))} {
		resp, body := initWith(t, endpoint, auth)
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("Authorization %.12q…: %d %q (challenge %q), want 401 with a Bearer challenge", auth, resp.StatusCode, body, resp.Header.Get("WWW-Authenticate"))
		}
		if presented := strings.HasPrefix(auth, "Bearer "); presented != strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Errorf("Authorization %.12q…: challenge %q; want error=\"invalid_token\" exactly when a bearer token was presented", auth, resp.Header.Get("WWW-Authenticate"))
		}
	}
	if _, err := connectAs(t, endpoint, strings.Repeat("c3", 20), "2025-11-25"); err == nil {
		t.Error("the SDK client connected with a wrong token")
	}
	if strings.Contains(log.String(), alice) || strings.Contains(log.String(), bob) {
		t.Error("a token appears in the log")
	}
	if !strings.Contains(log.String(), "tokens file "+file+" is accessible to other users (mode 0640)") {
		t.Errorf("no warning about the tokens file's mode:\n%s", log)
	}
	if !strings.Contains(log.String(), "authorization: 2 static tokens") {
		t.Errorf("the log does not say how clients are authorized:\n%s", log)
	}
}

// TestHTTPResultsPerPrincipal: a kept result is served only to the
// principal that made it. Another principal, static token or OAuth
// subject, paging it (fetch_result_page) or reading it
// (engine://results/{id}) gets the same answer as for an id never kept.
func TestHTTPResultsPerPrincipal(t *testing.T) {
	fake := fakegithub.ForTest(t)
	is := newIssuer(t)
	file := tokensFile(t, "alice "+alice+"\nbob "+bob+"\n", 0o600)
	endpoint := httpServer(t, fake, "--tokens-file", file, "--oauth-issuer", is.url(), "--oauth-resource", resource)
	conn := func(tok string) *mcptest.Client {
		c, err := connectAs(t, endpoint, tok, "2025-11-25")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ca, cb := conn(alice), conn(bob)
	// A session belongs to its principal: bob cannot use alice's.
	if resp, body := rawPost(t, endpoint, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{
		"Mcp-Session-Id": ca.S.ID(), "MCP-Protocol-Version": "2025-11-25", "Authorization": "Bearer " + bob,
	}); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("bob on alice's session: %d %s, want 403", resp.StatusCode, body)
	}
	// An OAuth subject named like a static principal is another principal.
	cAliceOAuth, cCarol := conn(is.token(t, "alice", nil)), conn(is.token(t, "carol", nil))
	ra := ca.Query(t, acme+" LIMIT 3")
	rc := cCarol.Query(t, acme+" LIMIT 2")
	if ra.IsError || ra.ResultID == "" || rc.IsError || rc.ResultID == "" {
		t.Fatalf("queries: %+v %+v", ra, rc)
	}
	ctx := context.Background()
	page := func(c *mcptest.Client, id string) mcptest.Result {
		return c.Call(t, ctx, "fetch_result_page", map[string]any{"result_id": id})
	}
	read := func(c *mcptest.Client, id string) string {
		_, err := c.S.ReadResource(ctx, &mcp.ReadResourceParams{URI: "engine://results/" + id})
		if err == nil {
			return ""
		}
		return err.Error()
	}
	// Each owner pages and reads its own.
	for _, o := range []struct {
		c  *mcptest.Client
		id string
		n  int
	}{{ca, ra.ResultID, 3}, {cCarol, rc.ResultID, 2}} {
		if r := page(o.c, o.id); r.IsError || len(r.Rows) != o.n {
			t.Fatalf("owner's page: %+v", r)
		}
		if e := read(o.c, o.id); e != "" {
			t.Fatalf("owner's resource: %s", e)
		}
	}
	const never = "0123456789abcdef00"
	for _, o := range []struct {
		name string
		c    *mcptest.Client
		id   string
	}{{"bob on alice's", cb, ra.ResultID}, {"OAuth alice on static alice's", cAliceOAuth, ra.ResultID}, {"alice on carol's", ca, rc.ResultID}, {"bob on carol's", cb, rc.ResultID}} {
		r, unknown := page(o.c, o.id), page(o.c, never)
		if !r.IsError || r.Error == nil || !unknown.IsError || unknown.Error == nil {
			t.Fatalf("%s: page %+v", o.name, r)
		}
		if got, want := strings.ReplaceAll(r.Text, o.id, "ID"), strings.ReplaceAll(unknown.Text, never, "ID"); got != want {
			t.Errorf("%s: page answers %q, an unknown id %q", o.name, got, want)
		}
		e, eu := read(o.c, o.id), read(o.c, never)
		if e == "" || strings.ReplaceAll(e, o.id, "ID") != strings.ReplaceAll(eu, never, "ID") {
			t.Errorf("%s: resource answers %q, an unknown id %q", o.name, e, eu)
		}
	}
}

// TestHTTPAuthSettings: --allow-remote needs authorization; bad
// authorization settings are usage errors (exit 1) that say what to do.
func TestHTTPAuthSettings(t *testing.T) {
	fake, env := fakeEnv(t)
	short := testutil.TempFile(t, "tokens", "alice short\n")
	for _, c := range []struct {
		args []string
		says []string
	}{
		{[]string{"--allow-remote"}, []string{"--allow-remote", "--oauth-issuer", "--tokens-file", "Sharing the server with a team"}},
		{[]string{"--listen", "0.0.0.0:0"}, []string{"--allow-remote", "--tokens-file"}},
		{[]string{"--allow-remote", "--oauth-issuer", "http://issuer.example"}, []string{"https"}},
		{[]string{"--allow-remote", "--oauth-issuer", "https://issuer.example"}, []string{"--oauth-resource"}},
		{[]string{"--oauth-resource", resource}, []string{"--oauth-issuer"}},
		{[]string{"--allow-remote", "--tokens-file", short}, []string{"shorter than", "openssl rand"}},
		{[]string{"--allow-remote", "--tokens-file", "/nonexistent/tokens"}, []string{"--tokens-file"}},
		{[]string{"--transport", "stdio", "--tokens-file", short}, []string{"stdio", "--transport http"}},
	} {
		args := append(append([]string{"mcp", "--transport", "http", "--listen", "127.0.0.1:0"}, serverFlags...), c.args...)
		r := testutil.Run(t, env, "", args...)
		if r.Code != 1 {
			t.Errorf("%v: exit %d, want 1 (usage): %s", c.args, r.Code, r.Stderr)
			continue
		}
		testutil.Contains(t, strings.Join(c.args, " "), r.Stderr, c.says...)
	}
	// With authorization, --allow-remote starts (on loopback here) and
	// serves only clients with a token.
	tok := strings.Repeat("z9", 20)
	endpoint := httpServer(t, fake, "--allow-remote", "--tokens-file", testutil.TempFile(t, "tokens", "team "+tok+"\n"))
	if resp, _ := initWith(t, endpoint, ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("--allow-remote with tokens, no token: %d", resp.StatusCode)
	}
	if resp, body := initWith(t, endpoint, "Bearer "+tok); resp.StatusCode != http.StatusOK {
		t.Fatalf("--allow-remote with tokens, the token: %d %s", resp.StatusCode, body)
	}
	// Settings from the environment and the config file.
	is := newIssuer(t)
	cfg := testutil.TempFile(t, "config.yaml", "oauth_resource: "+resource+"\noauth_scope: [mcp:query]\n")
	endpoint, _ = mcptest.StartHTTP(t, testutil.FakeEnv(t, fake.URL(), "ENGINE_MCP_OAUTH_ISSUER="+is.url(), "ENGINE_CONFIG="+cfg), serverFlags...)
	if resp, _ := initWith(t, endpoint, ""); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `scope="mcp:query"`) {
		t.Fatalf("settings from the environment and config: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if resp, body := initWith(t, endpoint, "Bearer "+is.token(t, "dana", nil)); resp.StatusCode != http.StatusOK {
		t.Fatalf("settings from the environment and config, a valid token: %d %s", resp.StatusCode, body)
	}
}

// TestHTTPOAuthKeysUnavailable: when the issuer's keys cannot be read,
// a client presenting a token is told so (401, invalid_token, try
// later), without the issuer's URLs, which may be internal ones: they go
// to the server's log.
func TestHTTPOAuthKeysUnavailable(t *testing.T) {
	fake := fakegithub.ForTest(t)
	is := newIssuer(t)
	const internal = "/internal-only/keys-7f3a"
	endpoint, log := httpServerLog(t, fake, "--oauth-issuer", is.url(), "--oauth-resource", resource, "--oauth-jwks-url", is.url()+internal)
	resp, body := initWith(t, endpoint, "Bearer "+is.token(t, "alice", nil))
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "could not read its authorization server's keys") ||
		!strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("token while the keys cannot be read: %d %q (challenge %q)", resp.StatusCode, body, resp.Header.Get("WWW-Authenticate"))
	}
	if strings.Contains(body, internal) || strings.Contains(body, is.url()) {
		t.Fatalf("the 401 names the issuer's URLs: %q", body)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(log.String(), internal); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the log does not say which URL failed:\n%s", log)
		}
	}
}
