package providers

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sort"
	"strings"
)

// Auth from the description (docs/providers.md, "Auth from the
// description"): the schemes of an OpenAPI document's
// components.securitySchemes that the engine can send (Security), and,
// per method, the requirements its operation (or the document) declares
// (Method.Auth). Each scheme's secret comes from an environment variable
// (SchemeEnv): one the profile names, which must start with the
// provider's name (so a description cannot make the engine read another
// provider's secret), else a default made of the provider's name,
// ACME_API_KEY, ACME_TOKEN or ACME_BASIC_AUTH. A secret is never written
// in a profile or an index.

// SchemeType is the kind of a description's security scheme the engine
// sends.
type SchemeType string

// Scheme types.
const (
	// SchemeAPIKey: OpenAPI's apiKey, sent as is in a header, a query
	// parameter or a cookie (SecurityScheme.In, Param). A header named
	// Authorization carries the raw key ("Authorization: KEY").
	SchemeAPIKey SchemeType = "api_key"
	// SchemeBearer: http bearer, and oauth2 / openIdConnect, whose access
	// token is sent the same way ("Authorization: Bearer TOKEN").
	SchemeBearer SchemeType = "bearer"
	// SchemeBasic: http basic, the secret being user:password.
	SchemeBasic SchemeType = "basic"
)

// SecurityScheme is one scheme of the description that the engine can
// send.
type SecurityScheme struct {
	// Name is the scheme's key in components.securitySchemes.
	Name string     `json:"name"`
	Type SchemeType `json:"type"`
	// In and Param say where an apiKey goes (InHeader, InQuery or
	// InCookie) and the header, parameter or cookie name.
	In    string `json:"in,omitempty"`
	Param string `json:"param,omitempty"`
	// Env is the environment variable the profile names for the secret
	// ("" for the default, see Header.SchemeEnv).
	Env string `json:"env,omitempty"`
}

// Where says where the scheme's secret is sent, for messages.
func (s SecurityScheme) Where() string {
	switch s.Type {
	case SchemeAPIKey:
		if s.In == InHeader && strings.EqualFold(s.Param, "Authorization") {
			return "the raw Authorization header"
		}
		return fmt.Sprintf("%s %s", s.In, s.Param)
	case SchemeBasic:
		return "an HTTP Basic Authorization header (user:password)"
	}
	return "an Authorization: Bearer header"
}

// Security is the description's auth (Header.Security).
type Security struct {
	Schemes []SecurityScheme `json:"schemes"`
}

// SchemesOrNil returns the schemes (nil for a nil Security).
func (s *Security) SchemesOrNil() []SecurityScheme {
	if s == nil {
		return nil
	}
	return s.Schemes
}

// Scheme returns the named scheme, or nil.
func (s *Security) Scheme(name string) *SecurityScheme {
	if s == nil {
		return nil
	}
	for i := range s.Schemes {
		if s.Schemes[i].Name == name {
			return &s.Schemes[i]
		}
	}
	return nil
}

// EnvPrefix is the prefix of the environment variables of provider name:
// its name in upper case, other characters than letters and digits as
// '_', then '_' ("ACME_").
func EnvPrefix(name string) string { return envWord(name) + "_" }

func envWord(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "_")
}

// SchemeEnv is the environment variable that holds the secret of scheme
// s: the one the profile names when it starts with the provider's prefix
// (EnvPrefix), else PREFIX_API_KEY for the only apiKey scheme (with
// several, PREFIX_ and the key's name: ACME_X_API_KEY), PREFIX_TOKEN for
// a bearer (oauth2, openIdConnect) scheme, PREFIX_BASIC_AUTH
// (user:password) for basic.
func (h *Header) SchemeEnv(s SecurityScheme) string {
	prefix := EnvPrefix(h.Provider)
	if s.Env != "" && strings.HasPrefix(s.Env, prefix) {
		return s.Env
	}
	switch s.Type {
	case SchemeAPIKey:
		n := 0
		for _, o := range h.Security.Schemes {
			if o.Type == SchemeAPIKey {
				n++
			}
		}
		if n > 1 && envWord(s.Param) != "" {
			return prefix + envWord(s.Param)
		}
		return prefix + "API_KEY"
	case SchemeBasic:
		return prefix + "BASIC_AUTH"
	}
	return prefix + "TOKEN"
}

// AuthScheme is the kind of Credentials resolved from the description's
// schemes (no auth entry for the provider).
const AuthScheme AuthType = "scheme"

// AuthAPIKey is the auth entry type that gives the secret of the
// description's apiKey scheme (AuthConfig.Scheme names it when there are
// several) from CredentialsEnvVar.
const AuthAPIKey AuthType = "api_key"

// schemeCredentials resolves the secret of every scheme of h.Security
// from its variable; override, when set, gives one scheme's secret (an
// api_key auth entry). A variable that is unset is no error here: a
// method that needs it fails before its request (ForMethod).
func (h *Header) schemeCredentials(getenv func(string) string, override map[string]string, source string) Credentials {
	c := Credentials{kind: AuthScheme, source: source, sec: h.Security, provider: h.Provider, schemes: map[string]string{}, vars: map[string]string{}}
	for _, s := range h.Security.Schemes {
		v := h.SchemeEnv(s)
		c.vars[s.Name] = v
		if sec, ok := override[s.Name]; ok {
			c.schemes[s.Name] = sec
			continue
		}
		if sec := strings.TrimSpace(getenv(v)); sec != "" {
			c.schemes[s.Name] = sec
		}
	}
	return c
}

// apiKeyScheme is the scheme an api_key auth entry gives the secret of.
func (h *Header) apiKeyScheme(name string) (*SecurityScheme, error) {
	var keys []string
	for _, s := range h.securitySchemes() {
		if s.Type == SchemeAPIKey {
			keys = append(keys, s.Name)
		}
	}
	switch {
	case name != "":
		if s := h.Security.Scheme(name); s != nil && s.Type == SchemeAPIKey {
			return s, nil
		}
		return nil, fmt.Errorf("auth: type %q: the description of %s has no apiKey scheme %q (its apiKey schemes: %s)", AuthAPIKey, h.Provider, name, orNone(keys))
	case len(keys) == 1:
		return h.Security.Scheme(keys[0]), nil
	case len(keys) == 0:
		return nil, fmt.Errorf("auth: type %q: the description of %s declares no apiKey scheme; use bearer or basic", AuthAPIKey, h.Provider)
	}
	return nil, fmt.Errorf("auth: type %q: the description of %s has several apiKey schemes (%s); name one with \"scheme\"", AuthAPIKey, h.Provider, strings.Join(keys, ", "))
}

func (h *Header) securitySchemes() []SecurityScheme {
	if h == nil || h.Security == nil {
		return nil
	}
	return h.Security.Schemes
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// schemeIdentity hashes every scheme secret.
func (c Credentials) schemeIdentity() string {
	names := make([]string, 0, len(c.schemes))
	for n := range c.schemes {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		h.Write([]byte(n + "\x00" + c.schemes[n] + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Secrets returns every secret the credentials may send, for scrubbing
// text that leaves the process. Never print them.
func (c Credentials) Secrets() []string {
	var out []string
	if c.secret != "" {
		out = append(out, c.secret)
	}
	for _, s := range c.schemes {
		out = append(out, s)
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// ForMethod sets on req the credentials m's requirements (Method.Auth)
// call for, from the description's schemes: the first requirement whose
// every scheme has its secret; none when the method needs none or allows
// an anonymous request. A method that needs credentials none of whose
// requirements can be met is a *MissingCredentialsError, and req is not
// to be sent. Credentials of another kind (an auth entry) are set by
// Apply instead; ForMethod does nothing for them.
func (c Credentials) ForMethod(req *http.Request, m *Method) error {
	if c.kind != AuthScheme || m == nil || len(m.Auth) == 0 {
		return nil
	}
	optional := false
	for _, alt := range m.Auth {
		if len(alt) == 0 {
			optional = true
			continue
		}
		if !c.satisfies(alt) {
			continue
		}
		for _, name := range alt {
			c.applyScheme(req, c.sec.Scheme(name), c.schemes[name])
		}
		return nil
	}
	if optional {
		return nil
	}
	e := &MissingCredentialsError{Provider: c.provider, Operation: m.OperationID, Path: m.Path}
	for _, alt := range m.Auth {
		var need []string
		for _, name := range alt {
			s := c.sec.Scheme(name)
			if s == nil {
				need = append(need, fmt.Sprintf("a %q scheme the engine cannot send", name))
				continue
			}
			if _, ok := c.schemes[name]; !ok {
				need = append(need, fmt.Sprintf("%s (the description's %s scheme %q, sent in %s)", c.vars[name], schemeKind(s.Type), name, s.Where()))
			}
		}
		e.Needs = append(e.Needs, strings.Join(need, " and "))
	}
	return e
}

func schemeKind(t SchemeType) string {
	switch t {
	case SchemeAPIKey:
		return "apiKey"
	case SchemeBasic:
		return "http basic"
	}
	return "bearer"
}

func (c Credentials) satisfies(alt []string) bool {
	for _, name := range alt {
		if c.sec.Scheme(name) == nil {
			return false
		}
		if _, ok := c.schemes[name]; !ok {
			return false
		}
	}
	return true
}

func (c Credentials) applyScheme(req *http.Request, s *SecurityScheme, secret string) {
	switch s.Type {
	case SchemeBearer:
		req.Header.Set("Authorization", "Bearer "+secret)
	case SchemeBasic:
		user, pw, _ := strings.Cut(secret, ":")
		req.SetBasicAuth(user, pw)
	case SchemeAPIKey:
		switch s.In {
		case InHeader:
			req.Header.Set(s.Param, secret)
		case InQuery:
			q := req.URL.Query()
			q.Set(s.Param, secret)
			req.URL.RawQuery = q.Encode()
		case InCookie:
			req.AddCookie(&http.Cookie{Name: s.Param, Value: secret})
		}
	}
}

// MissingCredentialsError is a method that needs credentials whose
// environment variables are unset: nothing is sent. It is a usage error
// of the command (kind "usage"), naming the variables to set.
type MissingCredentialsError struct {
	Provider, Operation, Path string
	// Needs lists, per requirement the description allows, what is
	// missing ("ACME_API_KEY (the description's apiKey scheme ...)").
	Needs []string
}

func (e *MissingCredentialsError) Error() string {
	op := "GET " + e.Path
	if e.Operation != "" {
		op += " (" + e.Operation + ")"
	}
	return fmt.Sprintf("%s of provider %s needs credentials, and nothing was sent: set %s; or give an auth entry for %s (null_auth to send none)",
		op, e.Provider, strings.Join(e.Needs, "; or set "), e.Provider)
}

// ErrorKind is "usage": the command lacks a setting.
func (e *MissingCredentialsError) ErrorKind() string { return "usage" }

// ErrorSetting is "auth".
func (e *MissingCredentialsError) ErrorSetting() string { return "auth" }

// PlaceholderHost reports whether the host of a server URL is a
// placeholder a description writes for the user's own host rather than
// a host to send anything to: a template variable left in it
// ("https://{subdomain}.example.com"), a label such as "your-domain",
// "yourcompany", "mycompany" or "example" (example.zendesk.com), or a domain reserved for documentation
// (example.com, .org, .net, and the .example and .invalid TLDs). It
// returns the placeholder part, or "" for a real host.
func PlaceholderHost(raw string) string {
	rest := raw
	if _, after, ok := strings.Cut(rest, "://"); ok {
		rest = after
	}
	host := rest
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if i := strings.IndexAny(host, "{<"); i >= 0 {
		j := strings.IndexAny(host[i:], "}>")
		if j < 0 {
			return host[i:]
		}
		return host[i : i+j+1]
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" || net.ParseIP(strings.Trim(host, "[]")) != nil {
		return ""
	}
	labels := strings.Split(host, ".")
	n := len(labels)
	if tld := labels[n-1]; tld == "example" || tld == "invalid" {
		return host
	}
	if n >= 2 && labels[n-2] == "example" && (labels[n-1] == "com" || labels[n-1] == "org" || labels[n-1] == "net") {
		return strings.Join(labels[n-2:], ".")
	}
	for i, l := range labels[:max(n-1, 1)] {
		w := strings.NewReplacer("-", "", "_", "").Replace(l)
		if w == "example" && i > 0 {
			continue // only a first label (example.zendesk.com); example.com is above
		}
		if strings.HasPrefix(w, "your") || placeholderLabels[w] {
			return l
		}
	}
	return ""
}

// placeholderLabels are host labels (without '-' and '_') descriptions
// write for the user's own host.
var placeholderLabels = map[string]bool{
	"mycompany": true, "mydomain": true, "myinstance": true, "mysite": true, "myserver": true, "myorg": true,
	"mytenant": true, "myaccount": true, "mysubdomain": true, "subdomain": true, "hostname": true,
	"domain": true, "instance": true, "tenant": true, "placeholder": true, "changeme": true, "companyname": true,
	"example": true, // Zendesk's {subdomain} defaults to "example": example.zendesk.com
}
