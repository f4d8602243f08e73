package providers

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
)

// AuthConfig is one provider's auth entry (the CLI's --auth), e.g.
// {"type":"bearer","credentialsenvvar":"MY_TOKEN"}.
type AuthConfig struct {
	Type              AuthType `json:"type"`
	CredentialsEnvVar string   `json:"credentialsenvvar,omitempty"`
	// GitHub App installation (type "app"): the app's ID, the
	// installation's ID, and its private key (PEM) from a file or from an
	// environment variable.
	AppID          FlexID `json:"app_id,omitempty"`
	InstallationID FlexID `json:"installation_id,omitempty"`
	PrivateKeyPath string `json:"private_key_path,omitempty"`
	PrivateKeyEnv  string `json:"private_key_env,omitempty"`
	// DefaultInstallation (without InstallationID) is the account login
	// whose installation serves requests that name no account.
	DefaultInstallation string `json:"default_installation,omitempty"`
	// Scheme (type "api_key") names the description's apiKey scheme
	// whose secret CredentialsEnvVar holds, when it has several.
	Scheme string `json:"scheme,omitempty"`
}

// Check validates one provider's auth entry: the fields its type needs.
// The command line's --auth JSON is decoded in cmd/engine, which names
// the flag in its errors.
func (a AuthConfig) Check() error {
	switch a.Type {
	case AuthNull:
	case AuthBearer, AuthBasic, AuthAPIKey:
		if a.CredentialsEnvVar == "" {
			return fmt.Errorf("type %q needs credentialsenvvar naming the environment variable that holds the secret", a.Type)
		}
	case AuthApp:
		return a.checkApp()
	default:
		return fmt.Errorf("unknown type %q (use bearer, basic, api_key, app or null_auth)", a.Type)
	}
	return nil
}

// Credentials are resolved secrets for one provider. The secret is never
// printed: String and GoString redact it.
type Credentials struct {
	kind    AuthType
	secret  string
	source  string // where the secret came from, e.g. "env GITHUB_TOKEN"
	app     *AppCredentials
	warning string // see Warning
	// From the description's schemes (kind AuthScheme, security.go):
	// the schemes, each one's secret when its variable is set, and each
	// one's variable.
	sec      *Security
	provider string
	schemes  map[string]string
	vars     map[string]string
}

// Credentials resolves the provider's credentials from cfg, its auth
// entry, or, when cfg is nil, from the environment variables the header
// names: its app kind's (Profile.App.Env), then its token variables
// (TokenEnv), in order, then those of its description's security schemes
// (Header.Security, security.go). A configured variable that is empty is
// an error; no variable set means anonymous access (a method whose
// description requires a scheme then fails before its request). A nil
// header names none.
func (h *Header) Credentials(cfg *AuthConfig, getenv func(string) string) (Credentials, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var kind *AppAuth
	var defaultEnv []string
	if h != nil {
		kind, defaultEnv = h.Profile.AppAuth(), h.TokenEnv
	}
	if cfg == nil {
		if app, ok, err := appFromEnv(kind, getenv); ok || err != nil {
			return app, err
		}
		for _, v := range defaultEnv {
			if s := strings.TrimSpace(getenv(v)); s != "" {
				return Credentials{kind: AuthBearer, secret: s, source: "env " + v}, nil
			}
		}
		if h != nil && h.Security != nil && len(h.Security.Schemes) > 0 {
			return h.schemeCredentials(getenv, nil, "the description's security schemes"), nil
		}
		return Credentials{kind: AuthNull, source: "anonymous"}, nil
	}
	switch cfg.Type {
	case AuthNull:
		return Credentials{kind: AuthNull, source: "null_auth"}, nil
	case AuthBearer, AuthBasic:
		s := strings.TrimSpace(getenv(cfg.CredentialsEnvVar))
		if s == "" {
			return Credentials{}, unsetVariable(cfg.CredentialsEnvVar)
		}
		if cfg.Type == AuthBasic && !strings.Contains(s, ":") {
			return Credentials{}, fmt.Errorf("auth: basic credentials in %s must be user:password", cfg.CredentialsEnvVar)
		}
		return Credentials{kind: cfg.Type, secret: s, source: "env " + cfg.CredentialsEnvVar}, nil
	case AuthApp:
		return resolveApp(cfg, kind, getenv)
	case AuthAPIKey:
		if h == nil || h.Security == nil {
			return Credentials{}, fmt.Errorf("auth: type %q needs a description that declares an apiKey scheme", AuthAPIKey)
		}
		s, err := h.apiKeyScheme(cfg.Scheme)
		if err != nil {
			return Credentials{}, err
		}
		sec := strings.TrimSpace(getenv(cfg.CredentialsEnvVar))
		if sec == "" {
			return Credentials{}, unsetVariable(cfg.CredentialsEnvVar)
		}
		return h.schemeCredentials(getenv, map[string]string{s.Name: sec}, "env "+cfg.CredentialsEnvVar), nil
	}
	return Credentials{}, fmt.Errorf("auth: unknown type %q", cfg.Type)
}

// Apply sets the Authorization header on req.
func (c Credentials) Apply(req *http.Request) {
	switch c.kind {
	case AuthBearer:
		req.Header.Set("Authorization", "Bearer "+c.secret)
	case AuthBasic:
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(c.secret)))
	}
}

// Anonymous reports whether no secret is sent.
func (c Credentials) Anonymous() bool {
	return c.kind == "" || c.kind == AuthNull || (c.kind == AuthScheme && len(c.schemes) == 0)
}

// Identity is a stable, non-reversible identifier of the credentials (for
// cache keys): a truncated SHA-256 of the secret, or "anonymous".
func (c Credentials) Identity() string {
	if c.Anonymous() {
		return "anonymous"
	}
	if c.app != nil {
		return c.app.identity
	}
	if c.kind == AuthScheme {
		return c.schemeIdentity()
	}
	sum := sha256.Sum256([]byte(string(c.kind) + "\x00" + c.secret))
	return hex.EncodeToString(sum[:8])
}

// Secret returns the raw secret so that callers can scrub it from text
// (Secrets returns every one). Never print it.
func (c Credentials) Secret() string {
	if c.secret == "" && len(c.schemes) > 0 {
		return c.Secrets()[0]
	}
	return c.secret
}

// String describes the credentials without the secret.
func (c Credentials) String() string {
	if c.Anonymous() {
		return "anonymous"
	}
	if c.app != nil {
		return fmt.Sprintf("%s (%s)", c.app, c.source)
	}
	return string(c.kind) + " (" + c.source + ")"
}

// GoString redacts too, so %#v cannot leak the secret.
func (c Credentials) GoString() string { return "providers.Credentials{" + c.String() + "}" }

// Redact replaces every occurrence of the given secrets in s.
func Redact(s string, secrets ...string) string {
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "[REDACTED]")
		}
	}
	return s
}

// SecretForms are the forms in which secrets may come back in an answer
// or an error: each as it is, base64 (an HTTP Basic Authorization header
// carries user:password so), query-escaped, and the password part of
// user:password. Scrubbing text of a credential scrubs all of them.
func SecretForms(secrets []string) []string {
	out := make([]string, 0, 4*len(secrets))
	for _, sec := range secrets {
		out = append(out, sec, base64.StdEncoding.EncodeToString([]byte(sec)), url.QueryEscape(sec))
		if _, pw, ok := strings.Cut(sec, ":"); ok {
			out = append(out, pw)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// tokenPrefixes begin the tokens and keys of well-known providers
// (GitHub's classic, OAuth, user, server and fine-grained tokens,
// GitLab's, Slack's, Stripe's and OpenAI's).
var tokenPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "sk_live_", "sk_test_", "sk-"}

// unsetVariable is the error of credentialsenvvar naming an unset or
// empty variable. A name that is a token itself (a slip from a config
// that takes the token) is not repeated: it would land in CI logs.
func unsetVariable(name string) error {
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(name, p) {
			return fmt.Errorf("auth: credentialsenvvar holds what looks like a token (it begins with %s), not the name of a variable; put the token in a variable (export GITHUB_TOKEN=...) and give that name; the value is not shown", p)
		}
	}
	return fmt.Errorf("auth: environment variable %s is empty or unset; export it or choose null_auth", name)
}

// AuthType is the kind of credentials of an --auth entry.
type AuthType string

// Auth types accepted in --auth (stackql-compatible spelling).
const (
	// AuthNull sends no credentials.
	AuthNull AuthType = "null_auth"
	// AuthBearer sends "Authorization: Bearer" with the token read from
	// CredentialsEnvVar.
	AuthBearer AuthType = "bearer"
	// AuthBasic sends HTTP Basic credentials read from CredentialsEnvVar
	// (user:password).
	AuthBasic AuthType = "basic"
	// AuthApp is a GitHub App installation: the engine signs a JWT with
	// the app's private key and exchanges it for installation tokens
	// (appauth.go).
	AuthApp AuthType = "app"
)
