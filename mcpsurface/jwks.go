package mcpsurface

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Bounds of the issuer's key set (JWKS) fetching.
const (
	// jwksMaxBytes bounds a key set or metadata document.
	jwksMaxBytes = 1 << 20
	// jwksMaxKeys bounds the keys taken from one key set.
	jwksMaxKeys = 100
	// jwksTTL is how long a fetched key set is used before it is
	// fetched again.
	jwksTTL = 15 * time.Minute
	// jwksMinRefresh is the least time between two fetches: a token with
	// an unknown kid fetches the set again (the issuer rotated its keys),
	// but a flood of such tokens fetches at most once per this interval.
	jwksMinRefresh = 10 * time.Second
)

// jwks is the issuer's key set, fetched when first needed, cached, and
// fetched again after jwksTTL or on an unknown kid (at most once per
// jwksMinRefresh).
type jwks struct {
	url    string // "" until discovered from the issuer's metadata
	issuer string
	client *http.Client

	mu      sync.Mutex
	keys    map[string]jwk // by kid ("" for keys without one)
	fetched time.Time      // when keys were fetched
	tried   time.Time      // the last fetch, successful or not
}

type jwk struct {
	key any // *rsa.PublicKey, *ecdsa.PublicKey, ed25519.PublicKey
	alg string
}

// key returns the public key for a token's kid and alg.
func (j *jwks) key(ctx context.Context, kid, alg string) (any, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	now := time.Now()
	k, ok := j.lookup(kid)
	if (!ok || now.Sub(j.fetched) > jwksTTL) && now.Sub(j.tried) >= jwksMinRefresh {
		j.tried = now
		if err := j.refresh(ctx); err != nil && !ok {
			return nil, &keysUnavailable{err}
		}
		k, ok = j.lookup(kid)
	}
	if !ok {
		if kid == "" {
			return nil, errors.New("the token names no key (kid) and the issuer has several")
		}
		return nil, errors.New("the issuer's key set has no key with the token's kid")
	}
	if k.alg != "" && k.alg != alg {
		return nil, fmt.Errorf("the key is for %s, the token is signed with %s", k.alg, alg)
	}
	return k.key, nil
}

// keysUnavailable is a failure to read the issuer's metadata or keys. Its
// text names the issuer's URLs, which may be internal ones: it goes to
// the server's log, and the client is told only that the keys could not
// be read (Auth.verify).
type keysUnavailable struct{ err error }

func (e *keysUnavailable) Error() string { return e.err.Error() }
func (e *keysUnavailable) Unwrap() error { return e.err }

func (j *jwks) lookup(kid string) (jwk, bool) {
	if k, ok := j.keys[kid]; ok {
		return k, true
	}
	if kid == "" && len(j.keys) == 1 {
		for _, k := range j.keys {
			return k, true
		}
	}
	return jwk{}, false
}

// refresh fetches the key set (discovering its URL first if needed).
func (j *jwks) refresh(ctx context.Context) error {
	if j.url == "" {
		u, err := j.discover(ctx)
		if err != nil {
			return err
		}
		j.url = u
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := j.getJSON(ctx, j.url, &set); err != nil {
		return fmt.Errorf("the issuer's keys (%s): %w", j.url, err)
	}
	keys := map[string]jwk{}
	for _, raw := range set.Keys {
		if len(keys) == jwksMaxKeys {
			break
		}
		kid, k, err := parseJWK(raw)
		if err != nil {
			continue // a key of a kind not used for signing tokens here
		}
		keys[kid] = k
	}
	if len(keys) == 0 {
		return fmt.Errorf("the issuer's key set (%s) has no usable signing key", j.url)
	}
	j.keys, j.fetched = keys, time.Now()
	return nil
}

// discover reads jwks_uri from the issuer's metadata: RFC 8414's
// well-known URL, then OpenID Connect discovery's.
func (j *jwks) discover(ctx context.Context) (string, error) {
	iu, err := url.Parse(j.issuer)
	if err != nil {
		return "", err
	}
	path := strings.TrimSuffix(iu.Path, "/")
	var errs []string
	for _, u := range []string{
		iu.Scheme + "://" + iu.Host + "/.well-known/oauth-authorization-server" + path,
		strings.TrimSuffix(j.issuer, "/") + "/.well-known/openid-configuration",
	} {
		var m struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		if err := j.getJSON(ctx, u, &m); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if m.Issuer != j.issuer {
			errs = append(errs, fmt.Sprintf("%s names issuer %q, not %q", u, m.Issuer, j.issuer))
			continue
		}
		if err := secureURL(m.JWKSURI); err != nil {
			errs = append(errs, fmt.Sprintf("%s: jwks_uri %v", u, err))
			continue
		}
		return m.JWKSURI, nil
	}
	return "", fmt.Errorf("the issuer's metadata gave no key set (%s); give --oauth-jwks-url", strings.Join(errs, "; "))
}

// getJSON fetches a bounded JSON document.
func (j *jwks) getJSON(ctx context.Context, u string, v any) error {
	if err := secureURL(u); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := j.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, jwksMaxBytes+1))
	if err != nil {
		return err
	}
	if len(b) > jwksMaxBytes {
		return fmt.Errorf("GET %s: more than %d bytes", u, jwksMaxBytes)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	return nil
}

// parseJWK reads one public signing key of a JWK set (RFC 7517, 7518,
// 8037): RSA (2048 bits or more), EC P-256/384/521, OKP Ed25519.
func parseJWK(raw json.RawMessage) (string, jwk, error) {
	var k struct {
		Kty, Kid, Use, Alg, Crv, N, E, X, Y string
	}
	if err := json.Unmarshal(raw, &k); err != nil {
		return "", jwk{}, err
	}
	if k.Use != "" && k.Use != "sig" {
		return "", jwk{}, errors.New("not a signing key")
	}
	b := func(s string) ([]byte, error) { return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "=")) }
	switch k.Kty {
	case "RSA":
		n, err1 := b(k.N)
		e, err2 := b(k.E)
		if err := errors.Join(err1, err2); err != nil || len(e) == 0 || len(e) > 4 {
			return "", jwk{}, errors.New("bad RSA key")
		}
		pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		if pub.N.BitLen() < 2048 || pub.E < 3 || pub.E%2 == 0 {
			return "", jwk{}, errors.New("weak RSA key")
		}
		return k.Kid, jwk{key: pub, alg: k.Alg}, nil
	case "EC":
		curves := map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384(), "P-521": elliptic.P521()}
		c, ok := curves[k.Crv]
		if !ok {
			return "", jwk{}, errors.New("unknown curve")
		}
		x, err1 := b(k.X)
		y, err2 := b(k.Y)
		size := (c.Params().BitSize + 7) / 8
		if errors.Join(err1, err2) != nil || len(x) != size || len(y) != size {
			return "", jwk{}, errors.New("bad EC key")
		}
		pub, err := ecdsa.ParseUncompressedPublicKey(c, append(append([]byte{4}, x...), y...))
		if err != nil {
			return "", jwk{}, err
		}
		return k.Kid, jwk{key: pub, alg: k.Alg}, nil
	case "OKP":
		x, err := b(k.X)
		if k.Crv != "Ed25519" || err != nil || len(x) != ed25519.PublicKeySize {
			return "", jwk{}, errors.New("bad OKP key")
		}
		return k.Kid, jwk{key: ed25519.PublicKey(x), alg: k.Alg}, nil
	}
	return "", jwk{}, errors.New("unsupported key type")
}
