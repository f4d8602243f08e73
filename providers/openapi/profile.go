package openapi

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// The profile sections of a profile file (ProfileFile) beside absences and naming
// (docs/providers.md has a worked example):
//
//	"auth":       {"token_env": ["GITHUB_TOKEN", "GH_TOKEN"],
//	               "credentials": "set GITHUB_TOKEN to a token with access",
//	               "app": {"name": "GitHub App", "token_path": "/app/installations/{installation_id}/access_tokens", ...}},
//	"headers":    {"Accept": "application/vnd.github+json"},
//	"pagination": {"default": {"style": "link"},
//	               "operations": {"customers/list": {"style": "cursor", ...}}},
//	"rate_limit": {"remaining": "X-RateLimit-Remaining", ..., "probe": "/rate_limit",
//	               "buckets": [{"contains": "/search/code", "bucket": "code_search"}]},
//	"errors":     {"message": ["error"],
//	               "in_200": {"field": "ok", "equals": "false", "code": "error",
//	                          "auth": ["invalid_auth"], "rate_limited": ["ratelimited"]}}
//
// token_env and auth.app.env are read only from the profiles compiled into the binary
// (BuildIndex, cmd/indexgen): a document loaded with --provider gets
// credentials only from --auth, whatever its profile says.

// AuthProfile is a provider's credentials: the environment variables read
// for a bearer token (built-in profiles only), the advice shown when
// the provider refuses or hides an answer for want of them, and its app
// installation auth kind (auth type "app"), if it has one.
type AuthProfile struct {
	TokenEnv    []string           `json:"token_env,omitempty"`
	Credentials string             `json:"credentials,omitempty"`
	App         *providers.AppAuth `json:"app,omitempty"`
	// Schemes names, per security scheme of the description, the
	// environment variable that holds its secret (security.go); never a
	// secret itself.
	Schemes map[string]SchemeProfile `json:"schemes,omitempty"`
}

// PaginationProfile declares paging where the document does not show it:
// Default for every list method whose paging is not inferred, and per
// operationId.
type PaginationProfile struct {
	Default    *providers.Paging            `json:"default,omitempty"`
	Operations map[string]*providers.Paging `json:"operations,omitempty"`
}

// RateLimitProfile is providers.RateLimit plus the free probe endpoint and
// the path buckets.
type RateLimitProfile struct {
	providers.RateLimit
	Probe   string                 `json:"probe,omitempty"`
	Buckets []providers.PathBucket `json:"buckets,omitempty"`
}

// ErrorsProfile names the error-message fields and the "error in a 200"
// rule.
type ErrorsProfile struct {
	Message []string              `json:"message,omitempty"`
	In200   *providers.ErrorIn200 `json:"in_200,omitempty"`
}

// checkProfile validates the profile sections (ParseProfileFile).
func (o *ProfileFile) checkProfile() error {
	if a := o.Auth; a != nil {
		for _, v := range a.TokenEnv {
			if v == "" || strings.ContainsAny(v, "= \t") {
				return fmt.Errorf("overrides: auth.token_env: %q is not an environment variable name", v)
			}
		}
		if app := a.App; app != nil && (app.Name == "" || !strings.HasPrefix(app.InstallationsPath, "/") || !strings.HasPrefix(app.TokenPath, "/") || !strings.Contains(app.TokenPath, "{installation_id}")) {
			return errors.New(`overrides: auth.app needs "name", "installations_path" (a path) and "token_path" (a path with {installation_id})`)
		}
	}
	for k := range o.Headers {
		if k == "" || http.CanonicalHeaderKey(k) == "Authorization" {
			return fmt.Errorf("overrides: headers: %q cannot be a default header (credentials come from --auth)", k)
		}
	}
	if pg := o.Pagination; pg != nil {
		if err := checkPaging("pagination.default", pg.Default); err != nil {
			return err
		}
		for _, op := range sortedOps(pg.Operations) {
			if pg.Operations[op] == nil {
				return fmt.Errorf("overrides: pagination.operations %s: empty", op)
			}
			if err := checkPaging("pagination.operations "+op, pg.Operations[op]); err != nil {
				return err
			}
		}
	}
	if rl := o.RateLimit; rl != nil {
		if rl.SecondaryWaitSeconds < 0 {
			return fmt.Errorf("overrides: rate_limit.secondary_wait_seconds must not be negative")
		}
		if err := providers.CheckProbePath(rl.Probe); err != nil {
			return fmt.Errorf("overrides: %w", err)
		}
		for _, b := range rl.Buckets {
			if b.Contains == "" || b.Bucket == "" {
				return fmt.Errorf("overrides: rate_limit.buckets: contains and bucket are required")
			}
		}
		for _, w := range rl.Windows {
			if w.Limit <= 0 || w.Seconds <= 0 {
				return fmt.Errorf("overrides: rate_limit.windows: limit and seconds must be positive (e.g. {\"limit\": 900, \"seconds\": 60}: at most 900 requests in any minute)")
			}
		}
	}
	if e := o.Errors; e != nil && e.In200 != nil {
		r := e.In200
		if r.Field == "" || r.Equals == "" {
			return fmt.Errorf("overrides: errors.in_200: field and equals are required (e.g. \"field\": \"ok\", \"equals\": \"false\")")
		}
	}
	return nil
}

// checkPaging validates one paging description (nil is fine).
func checkPaging(where string, p *providers.Paging) error {
	if p == nil {
		return nil
	}
	bad := func(msg string) error { return fmt.Errorf("overrides: %s: style %q: %s", where, p.Style, msg) }
	switch p.Style {
	case providers.PagingLink, providers.PagingNone:
	case providers.PagingNextURL:
		if p.Next == "" {
			return bad(`"next" (the body path of the next page's URL) is required`)
		}
	case providers.PagingCursor:
		if p.Param == "" {
			return bad(`"param" (the request parameter the cursor is sent as) is required`)
		}
		if p.Next == "" && (p.HasMore == "" || p.LastItem == "") {
			return bad(`give "next" (the body path of the next cursor), or "has_more" and "last_item" (the flag and the item property whose last value is the cursor)`)
		}
	case providers.PagingOffset, providers.PagingPage:
		if p.Param == "" {
			return bad(`"param" (the offset or page request parameter) is required`)
		}
	default:
		return fmt.Errorf("overrides: %s: unknown style %q (link, next_url, cursor, offset, page or none)", where, p.Style)
	}
	if p.SizeMax < 0 {
		return bad(`"size_max" must not be negative`)
	}
	return nil
}

// applyProfile sets the header's profile, headers and (trusted only) token
// variables, and the methods' declared paging. Every operation named
// must be a GET of the document.
func applyProfile(o *ProfileFile, h *providers.Header, resources []*providers.Resource, trusted bool) error {
	if o == nil {
		return nil
	}
	byOp := methodsByOperation(resources)
	if len(o.Headers) > 0 {
		h.Headers = map[string]string{}
		for k, v := range o.Headers {
			h.Headers[k] = v
		}
	}
	prof := h.Profile
	if prof == nil {
		prof = &providers.Profile{}
	}
	if err := applySecurityProfile(o, h); err != nil {
		return err
	}
	if a := o.Auth; a != nil {
		if trusted {
			h.TokenEnv = append([]string(nil), a.TokenEnv...)
		}
		prof.Credentials = a.Credentials
		if a.App != nil {
			app := *a.App
			if !trusted {
				app.Env = nil
			}
			prof.App = &app
		}
	}
	if rl := o.RateLimit; rl != nil {
		r := rl.RateLimit
		prof.RateLimit = &r
		prof.RateLimitProbe = rl.Probe
		prof.Buckets = rl.Buckets
	}
	if e := o.Errors; e != nil {
		if len(e.Message) > 0 {
			prof.ErrorMessage = e.Message
		}
		prof.ErrorIn200 = e.In200
	}
	if prof.Credentials != "" || prof.RateLimit != nil || prof.ErrorIn200 != nil || len(prof.ErrorMessage) > 0 || prof.RateLimitProbe != "" || len(prof.Buckets) > 0 || prof.App != nil {
		h.Profile = prof
	}
	if pg := o.Pagination; pg != nil {
		for _, op := range sortedOps(pg.Operations) {
			m := byOp[op]
			if m == nil {
				return fmt.Errorf("overrides: pagination.operations %s: no GET operation with that operationId", op)
			}
			setPaging(m, pg.Operations[op])
		}
		if d := pg.Default; d != nil && d.Style != providers.PagingLink {
			for _, r := range resources {
				for _, m := range r.Methods {
					if m.Paging == nil && !m.Paginated && (m.Shape == providers.ShapeArray || m.Shape == providers.ShapeWrapped) {
						if _, declared := pg.Operations[m.OperationID]; !declared {
							setPaging(m, d)
						}
					}
				}
			}
		}
	}
	return nil
}

// setPaging gives m a copy of p and drops the parameters the paging owns
// from the method's parameters (they are sent by the client, not bound in
// WHERE).
func setPaging(m *providers.Method, p *providers.Paging) {
	if p.Style == providers.PagingLink {
		m.Paging, m.Paginated = nil, true
		return
	}
	cp := *p
	m.Paging = &cp
	m.Paginated = p.Style != providers.PagingNone
	if !m.Paginated {
		return
	}
	owned := map[string]bool{}
	for _, n := range cp.Params() {
		owned[n] = true
	}
	kept := m.Params[:0]
	for _, prm := range m.Params {
		if prm.In == providers.InQuery && owned[prm.Name] && !prm.Required {
			continue
		}
		kept = append(kept, prm)
	}
	m.Params = kept
}

// inferErrorMessage returns the error-message field the document's error
// responses (4xx and default) agree on, or nil when they do not say.
func inferErrorMessage(doc *openapi3.T) []string {
	counts := map[string]int{}
	for _, item := range doc.Paths.Map() {
		if item == nil || item.Get == nil || item.Get.Responses == nil {
			continue
		}
		for code, ref := range item.Get.Responses.Map() {
			if !(code == "default" || (len(code) == 3 && code[0] == '4')) || ref == nil || ref.Value == nil {
				continue
			}
			mt := jsonMedia(ref.Value.Content)
			if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
				continue
			}
			if f := messageField(mt.Schema.Value); f != "" {
				counts[f]++
			}
		}
	}
	if len(counts) == 0 {
		return nil
	}
	// The field most responses name; of fields named as often, the first
	// by name.
	best := slices.MinFunc(slices.Collect(maps.Keys(counts)), func(a, b string) int {
		return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b))
	})
	return []string{best}
}

// messageField finds the message of an error schema: a string "message",
// an object "error" with a string "message", a string "error", or an
// array "errorMessages".
func messageField(s *openapi3.Schema) string {
	props := properties(s, 0)
	if props == nil {
		return ""
	}
	is := func(name, typ string) *openapi3.Schema {
		alts := props.byName[name]
		if len(alts) != 1 || alts[0] == nil {
			return nil
		}
		if typ == "object" && isObject(alts[0]) || typ == "string" && columnType(alts[0]) == providers.TypeText || typ == "array" && isArray(alts[0]) {
			return alts[0]
		}
		return nil
	}
	switch {
	case is("message", "string") != nil:
		return "message"
	case is("error", "object") != nil:
		if in := properties(is("error", "object"), 0); in != nil && len(in.byName["message"]) == 1 {
			return "error.message"
		}
	case is("error", "string") != nil:
		return "error"
	case is("errorMessages", "array") != nil:
		return "errorMessages"
	}
	return ""
}
