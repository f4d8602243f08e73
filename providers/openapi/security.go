package openapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// Auth from the description (providers/security.go, docs/providers.md
// "Auth from the description"): components.securitySchemes become the
// header's Security (apiKey in a header, the query or a cookie; http
// bearer and basic; oauth2 and openIdConnect as bearer tokens), and each
// GET's security requirements (its own, else the document's) its
// Method.Auth. A document that declares schemes but no requirement at all
// makes them optional: each scheme whose variable is set is sent, and a
// request without any is sent anonymously.

// deriveSecurity returns the schemes of doc the engine can send, nil when
// none.
func deriveSecurity(doc *openapi3.T) *providers.Security {
	if doc.Components == nil || len(doc.Components.SecuritySchemes) == 0 {
		return nil
	}
	names := make([]string, 0, len(doc.Components.SecuritySchemes))
	for n := range doc.Components.SecuritySchemes {
		names = append(names, n)
	}
	sort.Strings(names)
	sec := &providers.Security{}
	for _, n := range names {
		ref := doc.Components.SecuritySchemes[n]
		if ref == nil || ref.Value == nil {
			continue
		}
		s := ref.Value
		out := providers.SecurityScheme{Name: n}
		switch strings.ToLower(s.Type) {
		case "apikey":
			in := strings.ToLower(s.In)
			if s.Name == "" || (in != providers.InHeader && in != providers.InQuery && in != providers.InCookie) {
				continue
			}
			out.Type, out.In, out.Param = providers.SchemeAPIKey, in, s.Name
		case "http":
			switch strings.ToLower(s.Scheme) {
			case "bearer":
				out.Type = providers.SchemeBearer
			case "basic":
				out.Type = providers.SchemeBasic
			default:
				continue // digest, hoba, ...: not sent
			}
		case "oauth2", "openidconnect":
			out.Type = providers.SchemeBearer
		default:
			continue // mutualTLS
		}
		sec.Schemes = append(sec.Schemes, out)
	}
	if len(sec.Schemes) == 0 {
		return nil
	}
	return sec
}

// methodAuth is the requirements of op over sec (Method.Auth):
// alternatives whose schemes the engine can send, an empty one where the
// operation allows anonymous requests. A requirement naming a scheme the
// engine cannot send is dropped. No requirement declared anywhere in a
// document with schemes: each scheme alone, or none.
func methodAuth(doc *openapi3.T, op *openapi3.Operation, sec *providers.Security, declared bool) [][]string {
	if sec == nil {
		return nil
	}
	var reqs openapi3.SecurityRequirements
	switch {
	case op.Security != nil:
		reqs = *op.Security
	case doc.Security != nil:
		reqs = doc.Security
	case !declared:
		var out [][]string
		for _, s := range sec.Schemes {
			out = append(out, []string{s.Name})
		}
		return append(out, []string{})
	}
	if len(reqs) == 0 {
		return nil // security: [] - no credentials
	}
	var out [][]string
	dropped := false
	for _, r := range reqs {
		alt := make([]string, 0, len(r))
		ok := true
		for name := range r {
			if sec.Scheme(name) == nil {
				ok = false
			}
			alt = append(alt, name)
		}
		if !ok {
			dropped = true
			continue
		}
		sort.Strings(alt)
		out = append(out, alt)
	}
	if len(out) == 0 && dropped {
		// Only schemes the engine cannot send (mutualTLS, digest): it
		// sends nothing, and the provider says whether that is enough.
		return nil
	}
	return out
}

// securityDeclared reports whether doc declares a security requirement
// anywhere (at its top or on any operation).
func securityDeclared(doc *openapi3.T) bool {
	if doc.Security != nil {
		return true
	}
	if doc.Paths == nil {
		return false
	}
	for _, item := range doc.Paths.Map() {
		if item == nil {
			continue
		}
		for _, op := range item.Operations() {
			if op != nil && op.Security != nil {
				return true
			}
		}
	}
	return false
}

// dropKeyParams removes from m the parameters that are an apiKey scheme's
// own (an api_key query parameter declared beside the scheme): the
// engine sends the secret itself, and it is never a WHERE column. A
// scheme whose parameter the operation declares required is required
// in every alternative of m.Auth: Trello's operations require both
// key and token, while their security lists the two as alternatives.
func dropKeyParams(m *providers.Method, sec *providers.Security) {
	if sec == nil {
		return
	}
	var required []string
	m.Params = slices.DeleteFunc(m.Params, func(p providers.Param) bool {
		for _, s := range sec.Schemes {
			if s.Type != providers.SchemeAPIKey || s.In != p.In {
				continue
			}
			if p.In == providers.InHeader && strings.EqualFold(s.Param, p.Key()) || p.Key() == s.Param {
				if p.Required && !slices.Contains(required, s.Name) {
					required = append(required, s.Name)
				}
				return true
			}
		}
		return false
	})
	if len(required) == 0 {
		return
	}
	alts := m.Auth
	if len(alts) == 0 {
		alts = [][]string{{}}
	}
	var out [][]string
	for _, alt := range alts {
		merged := append(slices.Clone(alt), required...)
		slices.Sort(merged)
		merged = slices.Compact(merged)
		if !slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, merged) }) {
			out = append(out, merged)
		}
	}
	m.Auth = out
}

// serverURL is the document's first server URL with each {variable}
// replaced by its default; a variable without one stays as written (a
// placeholder the engine refuses to send to, providers.PlaceholderHost).
func serverURL(s *openapi3.Server) string {
	u := s.URL
	for name, v := range s.Variables {
		if v != nil && v.Default != "" {
			u = strings.ReplaceAll(u, "{"+name+"}", v.Default)
		}
	}
	return strings.TrimRight(u, "/")
}

// SchemeProfile is the profile's word on one security scheme of the
// description: the environment variable that holds its secret. A
// profile never holds a secret: a literal is refused.
type SchemeProfile struct {
	Env string `json:"env"`
}

// secretWords are fields a profile could write a literal secret in.
var secretWords = map[string]bool{"value": true, "key": true, "api_key": true, "apikey": true, "token": true,
	"secret": true, "password": true, "credentials": true, "bearer": true}

// UnmarshalJSON refuses anything but "env", and says so plainly for a
// literal secret.
func (s *SchemeProfile) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("a scheme entry is an object {\"env\": \"VAR\"} naming the environment variable that holds the secret")
	}
	for k := range raw {
		if k == "env" {
			continue
		}
		if secretWords[strings.ToLower(k)] {
			return fmt.Errorf("%q: a profile never holds a secret; name the environment variable that holds it: {\"env\": \"VAR\"}", k)
		}
		return fmt.Errorf("unknown field %q (a scheme entry takes only \"env\")", k)
	}
	if e, ok := raw["env"]; ok {
		if err := json.Unmarshal(e, &s.Env); err != nil {
			return fmt.Errorf("\"env\" must be a string naming an environment variable")
		}
	}
	return nil
}

// checkEnvName validates a variable name a profile gives.
func checkEnvName(where, v string) error {
	if v == "" || strings.ContainsAny(v, "= \t\r\n") {
		return fmt.Errorf("overrides: %s: %q is not an environment variable name", where, v)
	}
	return nil
}

// applySecurityProfile applies the profile's auth.schemes and params to
// h (whose Security the description gave): each variable a profile names
// must start with the provider's prefix, a scheme must be the
// description's, and no default header or literal param may be an
// apiKey scheme's (a secret written in a profile).
func applySecurityProfile(o *ProfileFile, h *providers.Header) error {
	prefix := providers.EnvPrefix(h.Provider)
	ownVar := func(where, v string) error {
		if err := checkEnvName(where, v); err != nil {
			return err
		}
		if !strings.HasPrefix(v, prefix) {
			return fmt.Errorf("overrides: %s: %s does not start with %s: a profile names only variables of its own provider (%s...), so that a description cannot make the engine send another provider's secret", where, v, prefix, prefix)
		}
		return nil
	}
	if a := o.Auth; a != nil && len(a.Schemes) > 0 {
		for _, name := range sortedOps(a.Schemes) {
			s := h.Security.Scheme(name)
			if s == nil {
				var known []string
				for _, k := range h.Security.SchemesOrNil() {
					known = append(known, k.Name)
				}
				return fmt.Errorf("overrides: auth.schemes %s: the description has no such security scheme (it has: %s)", name, strings.Join(known, ", "))
			}
			if err := ownVar("auth.schemes "+name+".env", a.Schemes[name].Env); err != nil {
				return err
			}
			s.Env = a.Schemes[name].Env
		}
	}
	keyHeader := func(name string) *providers.SecurityScheme {
		for _, s := range h.Security.SchemesOrNil() {
			if s.Type == providers.SchemeAPIKey && (s.In == providers.InHeader && strings.EqualFold(s.Param, name) || s.In == providers.InQuery && s.Param == name) {
				return &s
			}
		}
		return nil
	}
	for k := range o.Headers {
		if s := keyHeader(k); s != nil && s.In == providers.InHeader {
			return fmt.Errorf("overrides: headers: %s is the description's apiKey scheme %q: a profile never holds a secret; the engine sends it from %s", k, s.Name, h.SchemeEnv(*s))
		}
	}
	if len(o.Params) > 0 {
		h.Params = map[string]providers.ParamPreset{}
		for _, name := range sortedOps(o.Params) {
			p := o.Params[name]
			if err := providers.CheckPresetName(name); err != nil {
				return fmt.Errorf("overrides: params: %v", err)
			}
			if (p.Value == "") == (p.Env == "") {
				return fmt.Errorf("overrides: params %s: give exactly one of \"value\" or \"env\" (the environment variable that holds it)", name)
			}
			if p.Env != "" {
				if err := ownVar("params "+name+".env", p.Env); err != nil {
					return err
				}
			}
			if s := keyHeader(name); s != nil && p.Value != "" {
				return fmt.Errorf("overrides: params %s is the description's apiKey scheme %q: a profile never holds a secret; the engine sends it from %s", name, s.Name, h.SchemeEnv(*s))
			}
			h.Params[name] = p
		}
	}
	return nil
}

// schemeAdvice sets the profile's credentials advice, where the profile
// gives none, from the description's schemes: the variables to set
// ("set ACME_API_KEY (the apiKey sent in header X-API-Key)"), shown when
// the provider refuses or hides an answer for want of credentials.
func schemeAdvice(h *providers.Header) {
	if h.Security == nil || (h.Profile != nil && h.Profile.Credentials != "") {
		return
	}
	var parts []string
	seen := map[string]bool{}
	for _, s := range h.Security.Schemes {
		v := h.SchemeEnv(s)
		if seen[v] {
			continue
		}
		seen[v] = true
		parts = append(parts, fmt.Sprintf("%s (%s)", v, s.Where()))
	}
	if h.Profile == nil {
		h.Profile = &providers.Profile{}
	}
	h.Profile.Credentials = "set " + strings.Join(parts, " or ") + ", the variables of the description's security schemes"
}
