package mcpsurface

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/enginehq/engine/test/testutil"
)

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// jwkOf is the public JWK of a private key.
func jwkOf(t testing.TB, kid string, key crypto.Signer) map[string]string {
	t.Helper()
	switch k := key.Public().(type) {
	case *ecdsa.PublicKey:
		b, err := k.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		n := (len(b) - 1) / 2
		return map[string]string{"kty": "EC", "kid": kid, "crv": k.Curve.Params().Name, "x": b64(b[1 : 1+n]), "y": b64(b[1+n:])}
	case ed25519.PublicKey:
		return map[string]string{"kty": "OKP", "kid": kid, "crv": "Ed25519", "x": b64(k)}
	case *rsa.PublicKey:
		return map[string]string{"kty": "RSA", "kid": kid, "n": b64(k.N.Bytes()), "e": b64([]byte{1, 0, 1})}
	}
	t.Fatalf("key %T", key)
	return nil
}

// testIssuer serves OpenID discovery only (no RFC 8414 metadata) and a
// key set.
func testIssuer(t testing.TB, keys ...map[string]string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var fetches atomic.Int32
	var srv *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/tenant/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": srv.URL + "/tenant", "jwks_uri": srv.URL + "/keys"}) //nolint:errcheck
	})
	mux.HandleFunc("/keys", func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"keys": keys}) //nolint:errcheck
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &fetches
}

// TestAuthKeyTypes: tokens signed with ES256, ES384 and EdDSA keys verify
// against a key set found by OpenID discovery; keys are fetched once.
func TestAuthKeyTypes(t *testing.T) {
	ec256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ec384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	srv, fetches := testIssuer(t, jwkOf(t, "e256", ec256), jwkOf(t, "e384", ec384), jwkOf(t, "ed", ed),
		map[string]string{"kty": "oct", "kid": "sym", "k": b64([]byte("secret"))}, // not a public key: skipped
		map[string]string{"kty": "RSA", "kid": "enc", "use": "enc", "n": "AQAB", "e": "AQAB"})
	a, err := NewAuth(AuthOptions{Issuer: srv.URL + "/tenant", Resource: "https://mcp.example/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kid    string
		method jwt.SigningMethod
		key    crypto.Signer
	}{{"e256", jwt.SigningMethodES256, ec256}, {"e384", jwt.SigningMethodES384, ec384}, {"ed", jwt.SigningMethodEdDSA, ed}} {
		tok := jwt.NewWithClaims(c.method, jwt.MapClaims{"iss": srv.URL + "/tenant", "aud": []string{"x", "https://mcp.example/mcp"}, "sub": "u1", "exp": time.Now().Add(time.Minute).Unix(), "scp": []string{"a", "b"}})
		tok.Header["kid"] = c.kid
		s, err := tok.SignedString(c.key)
		if err != nil {
			t.Fatal(err)
		}
		ti, err := a.verify(context.Background(), s, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.kid, err)
		}
		if ti.UserID != "oauth:u1" || strings.Join(ti.Scopes, " ") != "a b" {
			t.Fatalf("%s: %+v", c.kid, ti)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Fatalf("key set fetched %d times, want 1", n)
	}
	// A token signed with ES256 but naming the ES384 key is refused.
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": srv.URL + "/tenant", "aud": "https://mcp.example/mcp", "sub": "u1", "exp": time.Now().Add(time.Minute).Unix()})
	tok.Header["kid"] = "e384"
	s, _ := tok.SignedString(ec256)
	if _, err := a.verify(context.Background(), s, nil); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("ES256 token on a P-384 key: %v", err)
	}
}

// TestAuthUnknownKidRefetchBounded: a flood of tokens naming unknown key
// ids fetches the key set at most once per jwksMinRefresh.
func TestAuthUnknownKidRefetchBounded(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	srv, fetches := testIssuer(t, jwkOf(t, "k", ec))
	a, err := NewAuth(AuthOptions{Issuer: srv.URL + "/tenant", JWKSURL: srv.URL + "/keys", Resource: "https://mcp.example/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		tok := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": srv.URL + "/tenant", "aud": "https://mcp.example/mcp", "sub": "u", "exp": time.Now().Add(time.Minute).Unix()})
		tok.Header["kid"] = "unknown-" + string(rune('a'+i%26))
		s, _ := tok.SignedString(ec)
		if _, err := a.verify(context.Background(), s, nil); !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), "kid") {
			t.Fatalf("unknown kid: %v", err)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Fatalf("key set fetched %d times for 50 unknown kids, want 1", n)
	}
}

// TestAuthDiscoveryRefusals: metadata naming another issuer, or a key
// set over plain http off loopback, is not used; settings that cannot
// work are refused at start.
func TestAuthDiscoveryRefusals(t *testing.T) {
	var srv *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": "https://other.example", "jwks_uri": srv.URL + "/keys"}) //nolint:errcheck
	})
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": srv.URL, "jwks_uri": "http://keys.example/jwks"}) //nolint:errcheck
	})
	srv = httptest.NewServer(mux)
	defer srv.Close()
	a, err := NewAuth(AuthOptions{Issuer: srv.URL, Resource: "https://mcp.example/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	a.logf = func(format string, args ...any) { fmt.Fprintf(&log, format, args...) }
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	s, _ := jwt.NewWithClaims(jwt.SigningMethodES256, jwt.MapClaims{"iss": srv.URL, "aud": "https://mcp.example/mcp", "sub": "u", "exp": time.Now().Add(time.Minute).Unix()}).SignedString(ec)
	_, err = a.verify(context.Background(), s, nil)
	// The client is told the keys could not be read; the log says why
	// (the issuer's URLs stay out of the answer).
	if !errors.Is(err, auth.ErrInvalidToken) || !strings.Contains(err.Error(), "could not read its authorization server's keys") || strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("verify: %v", err)
	}
	if !strings.Contains(log.String(), "https://other.example") || !strings.Contains(log.String(), "https only") {
		t.Fatalf("log: %q", log.String())
	}

	long := strings.Repeat("x", 32)
	for _, c := range []struct {
		o    AuthOptions
		says string
	}{
		{AuthOptions{}, "--tokens-file"},
		{AuthOptions{Issuer: "http://login.example", Resource: "https://m/mcp"}, "https only"},
		{AuthOptions{Issuer: "https://login.example", Resource: "https://m/mcp", JWKSURL: "ftp://k"}, "--oauth-jwks-url"},
		{AuthOptions{Issuer: "https://login.example", Resource: "mcp.example.com"}, "absolute"},
		{AuthOptions{TokensFile: testutil.TempFile(t, "dup", "a "+long+"\nb "+long+"\n")}, "also another line's"},
		{AuthOptions{TokensFile: testutil.TempFile(t, "twice", "a "+long+"\na "+long+"y\n")}, "two tokens"},
		{AuthOptions{TokensFile: testutil.TempFile(t, "three", "a b c\n")}, "NAME TOKEN"},
		{AuthOptions{TokensFile: testutil.TempFile(t, "empty", "# none\n")}, "no tokens"},
		{AuthOptions{TokensFile: testutil.TempFile(t, "ok", "a "+long+"\n"), Scopes: []string{"s"}}, "need --oauth-issuer"},
	} {
		if _, err := NewAuth(c.o); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v, want an error saying %q", c.o, err, c.says)
		}
		if _, err := NewAuth(c.o); err != nil && strings.Contains(err.Error(), long) {
			t.Errorf("%+v: the error shows a token: %v", c.o, err)
		}
	}
}

// BenchmarkAuthVerify: the cost of checking one bearer token per request,
// an RS256 JWT (key set cached) and a static token among 100.
func BenchmarkAuthVerify(b *testing.B) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	srv, _ := testIssuer(b, jwkOf(b, "r", key))
	var lines []string
	for i := 0; i < 100; i++ {
		lines = append(lines, "p"+strings.Repeat("0", i%10)+string(rune('a'+i%26))+string(rune('a'+i/26))+" "+strings.Repeat(string(rune('a'+i%26)), 20)+string(rune('A'+i/26))+strings.Repeat("z", 10))
	}
	file := testutil.TempFile(b, "tokens", strings.Join(lines, "\n"))
	a, err := NewAuth(AuthOptions{Issuer: srv.URL + "/tenant", Resource: "https://mcp.example/mcp", TokensFile: file})
	if err != nil {
		b.Fatal(err)
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"iss": srv.URL + "/tenant", "aud": "https://mcp.example/mcp", "sub": "u", "exp": time.Now().Add(time.Hour).Unix()})
	tok.Header["kid"] = "r"
	jwtText, _ := tok.SignedString(key)
	static := strings.Fields(lines[99])[1]
	for _, c := range []struct{ name, tok string }{{"jwt-rs256", jwtText}, {"static-of-100", static}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := a.verify(context.Background(), c.tok, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
