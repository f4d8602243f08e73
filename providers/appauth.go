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

// GitHub App installation credentials. --auth
// '{"github":{"type":"app","app_id":123,"installation_id":456,"private_key_path":"key.pem"}}'
// (or "private_key_env":"VAR" naming a variable that holds the PEM), or,
// without --auth, the environment variables GITHUB_APP_ID,
// GITHUB_APP_INSTALLATION_ID and GITHUB_APP_PRIVATE_KEY_PATH (or
// GITHUB_APP_PRIVATE_KEY holding the PEM) for providers whose token
// variables include GITHUB_TOKEN; these take precedence over the token
// variables.
//
// Without installation_id the credentials cover every installation of
// the app (docs/orgscale.md): the client lists them (GET
// /app/installations) and sends each request with the token of the
// installation on the account its path names (AccountOfPath); a request
// that names no account uses default_installation (an account login,
// GITHUB_APP_DEFAULT_INSTALLATION), or the app's only installation. The key is read and parsed when the credentials are
// resolved, so a bad key is an error before any request. The HTTP client
// (providers/client) signs the JWT and exchanges it for installation
// tokens; neither the key, the JWT nor a token is ever printed.

// Environment variables of GitHub App credentials.
const (
	EnvAppID          = "GITHUB_APP_ID"
	EnvInstallationID = "GITHUB_APP_INSTALLATION_ID"
	EnvAppKeyPath     = "GITHUB_APP_PRIVATE_KEY_PATH"
	EnvAppKey         = "GITHUB_APP_PRIVATE_KEY"
	// EnvDefaultInstallation names the account whose installation serves
	// requests that name no account, when no installation ID is set.
	EnvDefaultInstallation = "GITHUB_APP_DEFAULT_INSTALLATION"
)

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
	if a.Multi() {
		return "github app " + a.AppID + " (every installation)"
	}
	return "github app " + a.AppID + " installation " + a.InstallationID
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

func resolveApp(cfg *AuthConfig, getenv func(string) string) (Credentials, error) {
	if err := cfg.checkApp(); err != nil {
		return Credentials{}, fmt.Errorf("auth: %v", err)
	}
	var pem []byte
	var source, warning string
	if cfg.PrivateKeyPath != "" {
		b, err := os.ReadFile(cfg.PrivateKeyPath)
		if err != nil {
			return Credentials{}, fmt.Errorf("auth: GitHub App private key: %v; private_key_path must name the PEM file downloaded from the app's settings", err)
		}
		pem, source = b, "key file "+cfg.PrivateKeyPath
		warning = keyFileWarning(cfg.PrivateKeyPath)
	} else {
		pem, source = []byte(getenv(cfg.PrivateKeyEnv)), "key env "+cfg.PrivateKeyEnv
		if strings.TrimSpace(string(pem)) == "" {
			return Credentials{}, fmt.Errorf("auth: environment variable %s (the GitHub App's private key) is empty or unset", cfg.PrivateKeyEnv)
		}
	}
	key, err := jwt.ParseRSAPrivateKeyFromPEM(pem)
	if err != nil {
		// Never echo the key or the parser's view of it.
		return Credentials{}, fmt.Errorf("auth: the GitHub App private key (%s) is not an RSA private key in PEM form; download a new key from the app's settings", source)
	}
	app := &AppCredentials{AppID: string(cfg.AppID), InstallationID: string(cfg.InstallationID), DefaultInstallation: cfg.DefaultInstallation, Key: key}
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
func keyFileWarning(path string) string {
	if runtime.GOOS == "windows" {
		return "" // permission bits do not describe Windows ACLs
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return ""
	}
	return fmt.Sprintf("the GitHub App private key %s is accessible to other users (mode %04o): anyone who can read it can act as the app; make it private with chmod 600 %s",
		path, fi.Mode().Perm(), path)
}

// Warning is a problem of the credentials that does not stop their use
// (a private key file readable by others), or "". Surfaces print it once.
func (c Credentials) Warning() string { return c.warning }

// appFromEnv reads the GITHUB_APP_* variables (only for providers whose
// token variables include GITHUB_TOKEN). ok is false when none is set.
func appFromEnv(defaultEnv []string, getenv func(string) string) (Credentials, bool, error) {
	github := false
	for _, v := range defaultEnv {
		github = github || v == "GITHUB_TOKEN"
	}
	if !github {
		return Credentials{}, false, nil
	}
	id, inst := strings.TrimSpace(getenv(EnvAppID)), strings.TrimSpace(getenv(EnvInstallationID))
	def := strings.TrimSpace(getenv(EnvDefaultInstallation))
	path, pemEnv := strings.TrimSpace(getenv(EnvAppKeyPath)), ""
	if path == "" && strings.TrimSpace(getenv(EnvAppKey)) != "" {
		pemEnv = EnvAppKey
	}
	if id == "" && inst == "" && path == "" && pemEnv == "" {
		return Credentials{}, false, nil
	}
	cfg := &AuthConfig{Type: AuthApp, AppID: FlexID(id), InstallationID: FlexID(inst), PrivateKeyPath: path, PrivateKeyEnv: pemEnv, DefaultInstallation: def}
	if err := cfg.checkApp(); err != nil {
		return Credentials{}, true, fmt.Errorf("auth: %s and %s (or %s) must be set for GitHub App auth, with %s for one installation or %s for every installation: %v", EnvAppID, EnvAppKeyPath, EnvAppKey, EnvInstallationID, EnvDefaultInstallation, err)
	}
	c, err := resolveApp(cfg, getenv)
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

// AccountOfPath is the account (organisation or user login) whose
// installation of a GitHub App serves a request to path (relative to the
// API's base URL): the {org} of /orgs/{org}/..., the {owner} of
// /repos/{owner}/{repo}/... and the {username} of /users/{username}/...;
// "" when the path names no account (/search/..., /user, /rate_limit).
// Logins compare case-insensitively (GitHub's rule): callers lower it.
func AccountOfPath(path string) string {
	parts := strings.SplitN(strings.TrimPrefix(path, "/"), "/", 3)
	if len(parts) < 2 || parts[1] == "" {
		return ""
	}
	switch parts[0] {
	case "orgs", "users":
		return parts[1]
	case "repos":
		if len(parts) == 3 && parts[2] != "" {
			return parts[1]
		}
	}
	return ""
}

// AppJWTPath reports whether path (relative to the API's base URL) is an
// endpoint that GitHub authenticates with the app's JWT rather than an
// installation token: the app's own (/app, /app/installations, ...) and
// the installation of an account (/orgs/{org}/installation,
// /repos/{owner}/{repo}/installation, /users/{username}/installation).
func AppJWTPath(path string) bool {
	if path == "/app" || strings.HasPrefix(path, "/app/") {
		return true
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch {
	case len(parts) == 3 && (parts[0] == "orgs" || parts[0] == "users"):
		return parts[1] != "" && parts[2] == "installation"
	case len(parts) == 4 && parts[0] == "repos":
		return parts[1] != "" && parts[2] != "" && parts[3] == "installation"
	}
	return false
}
