package providers

import (
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/golang-jwt/jwt/v5"
)

// App installation credentials (auth type "app"), for a provider whose
// profile declares the kind (Profile.App, appkind.go; GitHub's: a GitHub
// App): an auth entry
// {"type":"app","app_id":123,"installation_id":456,"private_key_path":"key.pem"}
// (or "private_key_env":"VAR" naming a variable that holds the PEM), or,
// without one, the environment variables the profile names (auth.app.env;
// GitHub's GITHUB_APP_ID, GITHUB_APP_INSTALLATION_ID and
// GITHUB_APP_PRIVATE_KEY_PATH or GITHUB_APP_PRIVATE_KEY) for a trusted
// definition; these take precedence over the token variables.
//
// Without installation_id the credentials cover every installation of
// the app (docs/orgscale.md): the client lists them and sends each
// request with the token of the installation on the account its path
// names (AppAuth.Account); a request that names no account uses
// default_installation (an account login), or the app's only
// installation. The key is read and parsed when the credentials are
// resolved, so a bad key is an error before any request. The HTTP client
// (providers/client) signs the JWT and exchanges it for installation
// tokens; neither the key, the JWT nor a token is ever printed.

// FlexID is an ID given as a JSON number or string.
type FlexID string

// UnmarshalJSON accepts 123 or "123".
func (f *FlexID) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*f = FlexID(n.String())
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errors.New("an ID must be a number or a string of digits")
	}
	*f = FlexID(strings.TrimSpace(s))
	return nil
}

func validID(s FlexID) bool {
	n, err := strconv.ParseUint(string(s), 10, 63)
	return err == nil && n > 0
}

// AppCredentials are a GitHub App's: IDs and the parsed key. An empty
// InstallationID means every installation of the app (Multi).
type AppCredentials struct {
	// Kind is the provider's app auth kind (its profile's).
	Kind           *AppAuth
	AppID          string
	InstallationID string
	// DefaultInstallation is the account login whose installation serves
	// requests that name no account (Multi only; "" = the only one).
	DefaultInstallation string
	Key                 *rsa.PrivateKey
	identity            string
}

// Multi reports whether the credentials cover every installation of the
// app (no installation ID given).
func (a *AppCredentials) Multi() bool { return a.InstallationID == "" }

// GoString and String never print the key.
func (a *AppCredentials) String() string {
	name := strings.ToLower(a.Kind.Name)
	if a.Multi() {
		return name + " " + a.AppID + " (every installation)"
	}
	return name + " " + a.AppID + " installation " + a.InstallationID
}

// GoString redacts the key.
func (a *AppCredentials) GoString() string { return "&providers.AppCredentials{" + a.String() + "}" }

// App returns the GitHub App credentials, or nil.
func (c Credentials) App() *AppCredentials { return c.app }

func (a AuthConfig) checkApp() error {
	const example = `e.g. {"type":"app","app_id":123,"installation_id":456,"private_key_path":"app.pem"}`
	switch {
	case !validID(a.AppID):
		return fmt.Errorf("type app needs app_id, the GitHub App's numeric ID (%s)", example)
	case a.InstallationID != "" && !validID(a.InstallationID):
		return fmt.Errorf("type app: installation_id must be the numeric ID of the app's installation on the org, or left out to use every installation of the app (%s)", example)
	case a.InstallationID != "" && a.DefaultInstallation != "":
		return fmt.Errorf("type app: default_installation applies only without installation_id (every installation of the app); give one of them")
	case a.DefaultInstallation != "" && !validLogin(a.DefaultInstallation):
		return fmt.Errorf("type app: default_installation must be the login of an account (organisation or user) the app is installed on, e.g. \"acme\"")
	case (a.PrivateKeyPath == "") == (a.PrivateKeyEnv == ""):
		return fmt.Errorf("type app needs exactly one of private_key_path (a PEM file) or private_key_env (a variable holding the PEM) (%s)", example)
	case a.CredentialsEnvVar != "":
		return fmt.Errorf("type app takes no credentialsenvvar; use private_key_env")
	}
	return nil
}

func resolveApp(cfg *AuthConfig, kind *AppAuth, getenv func(string) string) (Credentials, error) {
	if err := cfg.checkApp(); err != nil {
		return Credentials{}, fmt.Errorf("auth: %v", err)
	}
	if kind == nil {
		return Credentials{}, errors.New("auth: type app: this provider's profile declares no app authentication (auth.app); use bearer or basic")
	}
	var pem []byte
	var source, warning string
	if cfg.PrivateKeyPath != "" {
		b, err := os.ReadFile(cfg.PrivateKeyPath)
		if err != nil {
			return Credentials{}, fmt.Errorf("auth: %s private key: %v; private_key_path must name the PEM file downloaded from the app's settings", kind.Name, err)
		}
		pem, source = b, "key file "+cfg.PrivateKeyPath
		warning = keyFileWarning(kind.Name, cfg.PrivateKeyPath)
	} else {
		pem, source = []byte(getenv(cfg.PrivateKeyEnv)), "key env "+cfg.PrivateKeyEnv
		if strings.TrimSpace(string(pem)) == "" {
			return Credentials{}, fmt.Errorf("auth: environment variable %s (the %s's private key) is empty or unset", cfg.PrivateKeyEnv, kind.Name)
		}
	}
	key, err := jwt.ParseRSAPrivateKeyFromPEM(pem)
	if err != nil {
		// Never echo the key or the parser's view of it.
		return Credentials{}, fmt.Errorf("auth: the %s private key (%s) is not an RSA private key in PEM form; download a new key from the app's settings", kind.Name, source)
	}
	app := &AppCredentials{Kind: kind, AppID: string(cfg.AppID), InstallationID: string(cfg.InstallationID), DefaultInstallation: cfg.DefaultInstallation, Key: key}
	// The default installation answers the requests that name no account
	// (a search sees that installation's repositories): it is part of
	// what the credentials can read, so of their identity (cache keys).
	sum := sha256.Sum256([]byte("app\x00" + app.AppID + "\x00" + app.InstallationID + "\x00" + key.N.String() + "\x00" + strings.ToLower(app.DefaultInstallation)))
	app.identity = hex.EncodeToString(sum[:8])
	return Credentials{kind: AuthApp, source: source, app: app, warning: warning}, nil
}

// keyFileWarning is the warning for a private key file that others than
// its owner may read or write (any group or other permission bit, as ssh
// checks), or "". The key is still used: the warning says how to fix it.
func keyFileWarning(name, path string) string {
	if runtime.GOOS == "windows" {
		return "" // permission bits do not describe Windows ACLs
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return ""
	}
	return fmt.Sprintf("the %s private key %s is accessible to other users (mode %04o): anyone who can read it can act as the app; make it private with chmod 600 %s",
		name, path, fi.Mode().Perm(), path)
}

// Warning is a problem of the credentials that does not stop their use
// (a private key file readable by others), or "". Surfaces print it once.
func (c Credentials) Warning() string { return c.warning }

// appFromEnv reads the app variables the profile names (kind.Env). ok is
// false when none is set.
func appFromEnv(kind *AppAuth, getenv func(string) string) (Credentials, bool, error) {
	if kind == nil || kind.Env == nil {
		return Credentials{}, false, nil
	}
	e := kind.Env
	get := func(v string) string {
		if v == "" {
			return ""
		}
		return strings.TrimSpace(getenv(v))
	}
	id, inst, def := get(e.AppID), get(e.InstallationID), get(e.DefaultInstallation)
	path, pemEnv := get(e.PrivateKeyPath), ""
	if path == "" && get(e.PrivateKey) != "" {
		pemEnv = e.PrivateKey
	}
	if id == "" && inst == "" && path == "" && pemEnv == "" {
		return Credentials{}, false, nil
	}
	cfg := &AuthConfig{Type: AuthApp, AppID: FlexID(id), InstallationID: FlexID(inst), PrivateKeyPath: path, PrivateKeyEnv: pemEnv, DefaultInstallation: def}
	if err := cfg.checkApp(); err != nil {
		return Credentials{}, true, fmt.Errorf("auth: %s and %s (or %s) must be set for %s auth, with %s for one installation or %s for every installation: %v", e.AppID, e.PrivateKeyPath, e.PrivateKey, kind.Name, e.InstallationID, e.DefaultInstallation, err)
	}
	c, err := resolveApp(cfg, kind, getenv)
	return c, true, err
}

// validLogin reports whether s can be a GitHub account login: letters,
// digits and hyphens, at most 39 characters.
func validLogin(s string) bool {
	if s == "" || len(s) > 39 {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
