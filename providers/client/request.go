package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/httpcache"
)

// Call is one execution of a method (providers.Call).
type Call = providers.Call

// buildURL returns the first page's URL of a call.
func (c *Client) buildURL(call Call) (string, error) {
	m := call.Method
	if m == nil {
		return "", errors.New("client: call without a method")
	}
	var missing []string
	for _, name := range m.Required() {
		if _, ok := call.Params[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("%s: missing required parameter(s): %s", m.OperationID, strings.Join(missing, ", "))
	}
	names := make([]string, 0, len(call.Params))
	for name := range call.Params {
		names = append(names, name)
	}
	sort.Strings(names)
	query := url.Values{}
	for _, name := range names {
		p := m.Param(name)
		if p == nil {
			return "", fmt.Errorf("%s: unknown parameter %q", m.OperationID, name)
		}
		switch {
		case p.In == providers.InQuery:
			query.Set(p.Key(), call.Params[name]) // the API's spelling
		case p.In == providers.InPath && p.AlsoQuery:
			query.Set(p.Key(), call.Params[name]) // declared in both places
		}
	}
	for _, p := range m.Params {
		// set once for the provider (providers/presets.go), unless WHERE binds it
		if _, bound := call.Params[p.Name]; !bound && p.Preset != "" && p.In == providers.InQuery {
			query.Set(p.Key(), p.Preset)
		}
	}

	// Substitute {name} placeholders, each value one escaped segment.
	var path strings.Builder
	rest := m.Path
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			path.WriteString(rest)
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("%s: malformed path template %q", m.OperationID, m.Path)
		}
		path.WriteString(rest[:i])
		name := rest[i+1 : i+j]
		if p := m.ParamByKey(name); p != nil {
			name = p.Name // call.Params holds SQL names
		}
		v, ok := call.Params[name]
		if !ok {
			return "", fmt.Errorf("%s: missing value for path parameter %s", m.OperationID, name)
		}
		switch v {
		case "":
			return "", fmt.Errorf("%s: path parameter %s must not be empty", m.OperationID, name)
		case ".", "..":
			return "", fmt.Errorf("%s: path parameter %s must not be %q", m.OperationID, name, v)
		}
		if p := m.Param(name); p != nil && p.Slashes {
			seg, err := pathSegments(m.OperationID, name, v)
			if err != nil {
				return "", err
			}
			path.WriteString(seg)
		} else {
			path.WriteString(url.PathEscape(v))
		}
		rest = rest[i+j+1:]
	}
	p := path.String()
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	switch pg := m.Paging; {
	case pg != nil && pg.Size != "":
		if !query.Has(pg.Size) {
			n := c.opts.PerPage
			if pg.SizeMax > 0 && n > pg.SizeMax {
				n = pg.SizeMax
			}
			if pg.SizeMin > 0 && n < pg.SizeMin {
				n = pg.SizeMin
			}
			query.Set(pg.Size, strconv.Itoa(n))
		}
	case pg == nil && m.Paginated && !query.Has("per_page"):
		query.Set("per_page", strconv.Itoa(c.opts.PerPage))
	}
	u := c.baseStr + p
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u, nil
}

// callHeaders returns the header parameters of a call (Param.In
// "header"), by the API's name.
func callHeaders(call Call) map[string]string {
	var out map[string]string
	if call.Method == nil {
		return nil
	}
	for _, p := range call.Method.Params {
		if p.In != providers.InHeader {
			continue
		}
		v, ok := call.Params[p.Name]
		if !ok && p.Preset != "" {
			v, ok = p.Preset, true // set once for the provider (providers/presets.go)
		}
		if ok {
			if out == nil {
				out = map[string]string{}
			}
			out[p.Key()] = v
		}
	}
	return out
}

// response is one page as received: final status, headers, body and the URL
// it was finally served from (after redirects).
type response struct {
	status int
	header http.Header
	body   []byte
	url    *url.URL
	// attempts is how many times the request was tried.
	attempts int
	// redirected is true when a redirect was followed to get this answer.
	redirected bool
	// shared is true when another asker's request got this answer
	// (share.go).
	shared bool
}

// fetch GETs one URL with retries. It returns ctx.Err() when ctx is done,
// a *providers.ProviderError for transport failures and oversized bodies,
// and otherwise the response whatever its status.
//
// With a cache, a stored entry is served without a request only when the
// cache has a TTL, the entry is within it and the response allowed it
// (no "no-cache"); otherwise an entry with a validator is revalidated
// (If-None-Match / If-Modified-Since), and a 304 reuses its body. The
// rules are in cache.go.
func (c *Client) fetch(ctx context.Context, call Call, rawURL string, stats *callStats) (*response, error) {
	cache := c.opts.Cache
	if cache == nil {
		return c.send(ctx, call, rawURL, stats, nil)
	}
	key := c.cacheKey(call, rawURL)
	var cached *httpcache.Entry
	if e, ok := cache.Get(key); ok && c.reusable(e) {
		if cache.Fresh(e) && !noCache(e.Header) {
			stats.cacheHits.Add(1)
			c.cacheHits.Add(1)
			c.logf("GET %s -> served from cache", c.sanitize(rawURL))
			u, _ := url.Parse(rawURL)
			return &response{status: http.StatusOK, header: e.Header, body: c.scrub(e.Body), url: u}, nil
		}
		if hasValidator(e.Header) {
			cached = e
		}
	}
	resp, err := c.send(ctx, call, rawURL, stats, cached)
	if err != nil {
		return resp, err
	}
	switch {
	case resp.status == http.StatusNotModified && cached != nil:
		stats.revalidated.Add(1)
		c.revalidated.Add(1)
		c.logf("GET %s -> 304, served from cache", c.sanitize(rawURL))
		header := updatedHeader(cached.Header, resp.header)
		if reflect.DeepEqual(header, cached.Header) {
			c.opts.Cache.Touch(key) //nolint:errcheck // a lost touch only costs a revalidation
		} else {
			c.store(key, header, cached.Body)
		}
		return &response{status: http.StatusOK, header: header, body: c.scrub(cached.Body), url: resp.url, attempts: resp.attempts}, nil
	case resp.status == http.StatusOK && !markedPartial(call.Method, resp.body) && !failed200(c.prof, resp.body):
		// A partial answer is an error (kind incomplete), and so is an
		// error in a 200 (errin200.go): neither is stored, so the retry
		// the error advises asks the provider again.
		c.store(key, storedHeader(resp.header), resp.body)
	}
	return resp, nil
}

// cacheKey identifies a request: URL, the headers that shape the answer,
// and the credentials' identity (a hash, never the secret).
func (c *Client) cacheKey(call Call, rawURL string) string {
	parts := []string{"GET", rawURL, c.opts.Credentials.Identity()}
	for _, k := range sortedKeys(c.headers) {
		parts = append(parts, k+": "+c.headers[k])
	}
	hs := callHeaders(call)
	for _, k := range sortedKeys(hs) {
		parts = append(parts, "param "+k+": "+hs[k])
	}
	return httpcache.Key(parts...)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// send GETs one URL with retries, conditionally when a stale cache entry
// can be revalidated.
func (c *Client) send(ctx context.Context, call Call, rawURL string, stats *callStats, cached *httpcache.Entry) (*response, error) {
	st := &attemptState{client: c, url: c.sanitize(rawURL)}
	req, err := retryablehttp.NewRequestWithContext(context.WithValue(ctx, stateKey{}, st), http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, c.newError(call, rawURL, "transport", "invalid request URL: "+err.Error())
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	req.Header.Set("Accept", "application/json")
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	if call.Method != nil && call.Method.Accept != "" {
		// The media types the method's answer is declared with: a
		// provider-wide Accept (GitHub's application/vnd.github+json)
		// would be refused (406) by a method that answers only, say,
		// application/jwk-set+json or text/plain.
		req.Header.Set("Accept", call.Method.Accept)
	}
	for k, v := range callHeaders(call) {
		req.Header.Set(k, v)
	}
	if sameOrigin(req.URL, c.base) {
		if err := c.authorize(ctx, req.Request); err != nil {
			return nil, err
		}
		// The description's schemes (providers/security.go): a method
		// whose variables are unset fails here, before anything is sent.
		if err := c.opts.Credentials.ForMethod(req.Request, call.Method); err != nil {
			return nil, err
		}
	}
	if cached != nil {
		if et := cached.Header.Get("Etag"); et != "" {
			req.Header.Set("If-None-Match", et)
		}
		if lm := cached.Header.Get("Last-Modified"); lm != "" {
			req.Header.Set("If-Modified-Since", lm)
		}
	}
	if !takeRequest(ctx) {
		return nil, &RequestLimitError{Provider: c.provider, URL: c.sanitize(rawURL), Limit: requestLimitOf(ctx)}
	}
	resp, err := c.rc.Do(req)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	stats.requests.Add(int64(st.attempts))
	c.requests.Add(int64(st.attempts))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if st.limited {
		return nil, &RequestLimitError{Provider: c.provider, URL: c.sanitize(rawURL), Limit: requestLimitOf(ctx), Retry: true}
	}
	if err == nil && st.readErr != nil {
		err = st.readErr
	}
	if err != nil {
		pe := c.newError(call, rawURL, "transport", "")
		pe.Attempts = st.attempts
		classifyTransport(err, pe, c.redact)
		c.logf("GET %s: %s (attempt %d)", pe.URL, pe.Message, st.attempts)
		return nil, pe
	}
	if resp == nil {
		return nil, c.newError(call, rawURL, "transport", "no response")
	}
	final := req.URL
	if resp.Request != nil && resp.Request.URL != nil {
		final = resp.Request.URL
	}
	c.logf("GET %s -> %d (attempt %d)", c.sanitize(final.String()), resp.StatusCode, st.attempts)
	if st.tooBig && resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		pe := c.newError(call, final.String(), "decode", fmt.Sprintf("response body exceeds the %d-byte limit (MaxBodyBytes); narrow the query", c.opts.MaxBodyBytes))
		pe.Status = resp.StatusCode
		pe.Attempts = st.attempts
		return nil, pe
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: c.scrub(st.body, bearerOf(req.Request)), url: final, attempts: st.attempts, redirected: st.redirected}, nil
}

// minScrubbed is the shortest secret form scrubbed from an answer's body
// (scrub): a token, a key, base64 of user:password. A shorter one (a
// short password) could stand for a number or a key of the JSON, which
// replacing would break; the output's own redaction covers it.
const minScrubbed = 8

// scrub replaces the credentials' secrets that an answer echoes in its
// body with [REDACTED] before anything reads it: the rows SQLite holds,
// the response cache on disk. So no SQL function (hex, upper, replace)
// can bring a secret back out of the data, which redacting the output
// alone allowed. The secrets are the configured ones, in every form, and
// own, the token the request carried (an app has one per installation:
// an answer echoes its own). A body without one, almost every body, is
// returned as it is after one search per secret form.
func (c *Client) scrub(body []byte, own ...string) []byte {
	for _, sec := range append(c.secretForms[:len(c.secretForms):len(c.secretForms)], own...) {
		if len(sec) >= minScrubbed && bytes.Contains(body, []byte(sec)) {
			body = bytes.ReplaceAll(body, []byte(sec), []byte("[REDACTED]"))
		}
	}
	return body
}

// bearerOf is the token a request carries as "Authorization: Bearer", or
// "" (a GitHub App installation's, in the app's case).
func bearerOf(req *http.Request) string {
	if tok, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer "); ok {
		return tok
	}
	return ""
}

// newError starts a ProviderError for a call; URL and message are scrubbed.
func (c *Client) newError(call Call, rawURL, kind, msg string) *providers.ProviderError {
	op := ""
	if call.Method != nil {
		op = call.Method.OperationID
	}
	return &providers.ProviderError{
		Provider:  c.provider,
		Method:    http.MethodGet,
		Operation: op,
		URL:       c.sanitize(rawURL),
		Message:   c.redact(msg),
		Kind:      kind,
		Attempts:  1,
	}
}

// redact removes the credentials' secrets from s, in every form
// (Secrets).
func (c *Client) redact(s string) string {
	secrets := c.Secrets()
	if len(secrets) == 0 {
		return s
	}
	return providers.Redact(s, secrets...)
}

// sanitize is a URL as errors and debug lines show it: without userinfo,
// fragment and secret query values, credentials redacted, then bounded to
// MaxURLBytes (elided in the middle: a next link can carry a cursor of
// megabytes).
func (c *Client) sanitize(rawURL string) string {
	return providers.ElideMiddle(c.redact(sanitizeURL(rawURL)), MaxURLBytes)
}

// MaxURLBytes bounds a URL in errors and debug lines.
const MaxURLBytes = 1024

// secretParam reports query parameters whose values are never shown.
func secretParam(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "key", "api_key", "apikey", "sig", "signature", "x-amz-signature", "x-amz-credential", "code":
		return true
	}
	return strings.Contains(n, "token") || strings.Contains(n, "secret") || strings.Contains(n, "password")
}

// sanitizeURL drops userinfo and fragment and masks secret-looking query
// values.
func sanitizeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable URL)"
	}
	u.User = nil
	u.Fragment = ""
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for k := range q {
			if secretParam(k) {
				q[k] = []string{"REDACTED"}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// pathSegments is the value of a path parameter that holds a path
// (Param.Slashes) as it goes on the wire: its slashes as written (GitHub
// answers 404 to a contents path whose slashes are sent as %2F, for
// fine-grained tokens), each segment escaped. A segment that is empty
// (a leading, trailing or doubled slash), "." or ".." is refused before
// any request: it would name another resource than the one written, or
// none, once a server or proxy cleans the path.
func pathSegments(op, name, v string) (string, error) {
	segs := strings.Split(v, "/")
	for i, s := range segs {
		switch s {
		case "":
			return "", &PathError{Op: op, Param: name, Value: v, Why: "it has an empty segment (a leading, trailing or doubled /); write the path without them, e.g. .github/workflows/ci.yml"}
		case ".", "..":
			return "", &PathError{Op: op, Param: name, Value: v, Why: fmt.Sprintf("it has a %q segment, which would name another path once cleaned; write the path from the repository's root, without . or ..", s)}
		}
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/"), nil
}

// PathError is a path parameter's value the engine will not send. It is
// a usage error of the statement (kind "plan"): nothing was asked of the
// provider.
type PathError struct {
	Op, Param, Value string
	Why              string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("%s = %s cannot be sent: %s", e.Param, strconv.Quote(e.Value), e.Why)
}

// ErrorKind is "plan": the statement asks for something the engine
// refuses before any request.
func (e *PathError) ErrorKind() string { return "plan" }
