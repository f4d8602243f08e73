package providers

import "strings"

// AppAuth is a provider's app-installation auth kind (auth type "app"), as
// its profile declares it (auth.app in the profile file): the engine signs
// a JWT with the app's private key and exchanges it for installation
// tokens. Everything the client and the credential resolver know about
// the provider's app endpoints comes from here (docs/providers.md,
// "Credentials"); a provider whose profile declares none takes no app
// credentials.
type AppAuth struct {
	// Name is how messages call the app, e.g. "GitHub App".
	Name string `json:"name"`
	// InstallationsPath lists the app's installations (JWT, paged by the
	// Link header), each with its id and account.login.
	InstallationsPath string `json:"installations_path"`
	// TokenPath mints an installation token (POST, JWT); its
	// {installation_id} is replaced by the installation's ID.
	TokenPath string `json:"token_path"`
	// Headers are sent with the app's own requests (listing, minting);
	// ProviderHeaders names the provider's default headers they also
	// carry (an API version pin).
	Headers         map[string]string `json:"headers,omitempty"`
	ProviderHeaders []string          `json:"provider_headers,omitempty"`
	// JWTPaths are the path patterns of the endpoints authenticated with
	// the app's JWT rather than an installation token (see MatchPath).
	JWTPaths []string `json:"jwt_paths,omitempty"`
	// AccountPaths are the path patterns whose {account} segment names
	// the account whose installation serves the request.
	AccountPaths []string `json:"account_paths,omitempty"`
	// Env names the environment variables that give app credentials
	// without an explicit auth entry. Read only for trusted definitions
	// (those whose token variables are read, see Header.TokenEnv).
	Env *AppEnv `json:"env,omitempty"`
}

// AppEnv names the environment variables of app credentials.
type AppEnv struct {
	AppID          string `json:"app_id"`
	InstallationID string `json:"installation_id"`
	PrivateKeyPath string `json:"private_key_path"`
	PrivateKey     string `json:"private_key"`
	// DefaultInstallation names the account whose installation serves
	// requests that name no account, when no installation ID is set.
	DefaultInstallation string `json:"default_installation"`
}

// App returns the provider's app auth kind, or nil when it declares none.
func (p *Profile) AppAuth() *AppAuth {
	if p == nil {
		return nil
	}
	return p.App
}

// MatchPath matches a request path (relative to the API's base URL)
// against a pattern of segments: "*" is one non-empty segment,
// "{account}" one non-empty segment it returns, a final "**" any number
// of further segments (none included); other segments match themselves.
func MatchPath(pattern, path string) (account string, ok bool) {
	pat := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, p := range pat {
		if p == "**" && i == len(pat)-1 {
			return account, true
		}
		if i >= len(segs) {
			return "", false
		}
		switch s := segs[i]; p {
		case "*":
			if s == "" {
				return "", false
			}
		case "{account}":
			if s == "" {
				return "", false
			}
			account = s
		default:
			if s != p {
				return "", false
			}
		}
	}
	return account, len(segs) == len(pat)
}

// Account is the account (organisation or user login) whose installation
// serves a request to path (relative to the API's base URL): the
// {account} of the first AccountPaths pattern that matches; "" when the
// path names no account. Logins compare case-insensitively (callers lower
// it).
func (a *AppAuth) Account(path string) string {
	for _, p := range a.AccountPaths {
		if acct, ok := MatchPath(p, path); ok && acct != "" {
			return acct
		}
	}
	return ""
}

// JWTPath reports whether path (relative to the API's base URL) is an
// endpoint authenticated with the app's JWT rather than an installation
// token.
func (a *AppAuth) JWTPath(path string) bool {
	for _, p := range a.JWTPaths {
		if _, ok := MatchPath(p, path); ok {
			return true
		}
	}
	return false
}

// DropCredentialEnv forgets the environment variables the header names
// for credentials (TokenEnv and the app kind's Env), for a definition not
// trusted with them, and reports whether it named any.
func (h *Header) DropCredentialEnv() bool {
	named := len(h.TokenEnv) > 0
	h.TokenEnv = nil
	if a := h.Profile.AppAuth(); a != nil && a.Env != nil {
		named = true
		prof, app := *h.Profile, *a
		app.Env = nil
		prof.App = &app
		h.Profile = &prof
	}
	return named
}

// CredentialEnvFrom sets the environment variables the header names for
// credentials from o (the embedded index of a pulled definition).
func (h *Header) CredentialEnvFrom(o *Header) {
	h.TokenEnv = append([]string(nil), o.TokenEnv...)
	if a, oa := h.Profile.AppAuth(), o.Profile.AppAuth(); a != nil && oa != nil && oa.Env != nil {
		prof, app, env := *h.Profile, *a, *oa.Env
		app.Env = &env
		prof.App = &app
		h.Profile = &prof
	}
}
