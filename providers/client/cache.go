package client

import (
	"net/http"
	"net/textproto"
	"sort"
	"strings"

	"github.com/enginehq/engine/providers/httpcache"
)

// Response cache rules (RFC 9111, for a private cache):
//
//   - Only 200 responses are stored. "Cache-Control: no-store" is never
//     stored (and removes an entry stored earlier), nor is "Vary: *".
//   - "Cache-Control: no-cache" may be stored but is never served without
//     revalidation, whatever the TTL; without a validator (ETag or
//     Last-Modified) it could never be revalidated, so it is not stored at
//     all (GitHub's search answers are of this kind).
//   - Vary: the values of the request headers it names are fingerprinted
//     with the entry, which is only used for a request with the same
//     values. The credentials enter the fingerprint as their identity (a
//     hash), never as the secret.
//   - A stored entry is served without a request only within the cache's
//     TTL (0 by default: never); otherwise it is revalidated, and a 304
//     refreshes the entry's headers and time.

// storedHeaders are the response headers kept with an entry.
var storedHeaders = []string{"Link", "Etag", "Last-Modified", "Content-Type", "Cache-Control", "Vary"}

// storedHeader keeps the headers of h that an entry needs.
func storedHeader(h http.Header) http.Header {
	keep := http.Header{}
	for _, k := range storedHeaders {
		if v := h.Values(k); len(v) > 0 {
			keep[k] = v
		}
	}
	return keep
}

// updatedHeader is a stored entry's header updated by a 304's (RFC 9111
// 4.3.4: the 304's headers replace the stored ones).
func updatedHeader(stored, notModified http.Header) http.Header {
	h := stored.Clone()
	for _, k := range storedHeaders {
		if k == "Content-Type" {
			continue
		}
		if v := notModified.Values(k); len(v) > 0 {
			h[k] = v
		}
	}
	return h
}

// cacheDirectives returns the lower-cased directive names of
// Cache-Control.
func cacheDirectives(h http.Header) map[string]bool {
	d := map[string]bool{}
	for _, line := range h.Values("Cache-Control") {
		for _, part := range strings.Split(line, ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(part), "=")
			if name = strings.ToLower(strings.TrimSpace(name)); name != "" {
				d[name] = true
			}
		}
	}
	return d
}

func noCache(h http.Header) bool { return cacheDirectives(h)["no-cache"] }

func hasValidator(h http.Header) bool { return h.Get("Etag") != "" || h.Get("Last-Modified") != "" }

// varyNames returns the canonical header names of Vary, sorted, and
// whether it holds "*".
func varyNames(h http.Header) (names []string, star bool) {
	seen := map[string]bool{}
	for _, line := range h.Values("Vary") {
		for _, n := range strings.Split(line, ",") {
			n = strings.TrimSpace(n)
			if n == "*" {
				return nil, true
			}
			if n != "" && !seen[textproto.CanonicalMIMEHeaderKey(n)] {
				seen[textproto.CanonicalMIMEHeaderKey(n)] = true
				names = append(names, textproto.CanonicalMIMEHeaderKey(n))
			}
		}
	}
	sort.Strings(names)
	return names, false
}

// storable reports whether a 200 with header h may be stored.
func storable(h http.Header) bool {
	d := cacheDirectives(h)
	if d["no-store"] {
		return false
	}
	if _, star := varyNames(h); star {
		return false
	}
	if d["no-cache"] && !hasValidator(h) {
		return false
	}
	return true
}

// requestHeader is the value of a request header as this client sends it
// (see send), for Vary; Authorization is the credentials' identity.
func (c *Client) requestHeader(name string) string {
	switch name {
	case "Authorization", "Cookie":
		return c.opts.Credentials.Identity()
	case "User-Agent":
		return c.opts.UserAgent
	case "Accept":
		if v, ok := c.headers["Accept"]; ok {
			return v
		}
		return "application/json"
	}
	for k, v := range c.headers {
		if textproto.CanonicalMIMEHeaderKey(k) == name {
			return v
		}
	}
	return ""
}

// varyFingerprint hashes the request's values of the headers named by the
// response's Vary.
func (c *Client) varyFingerprint(h http.Header) string {
	names, _ := varyNames(h)
	if len(names) == 0 {
		return ""
	}
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, n+": "+c.requestHeader(n))
	}
	return httpcache.Key(parts...)
}

// reusable reports whether a stored entry may answer this client's
// request: its Vary headers have the same values now.
func (c *Client) reusable(e *httpcache.Entry) bool {
	if _, star := varyNames(e.Header); star {
		return false
	}
	return e.Vary == c.varyFingerprint(e.Header)
}

// store writes an entry, or removes the stored one when the answer may
// not be stored.
func (c *Client) store(key string, header http.Header, body []byte) {
	if !storable(header) {
		c.opts.Cache.Delete(key)
		return
	}
	if err := c.opts.Cache.Put(key, &httpcache.Entry{Header: header, Body: body, Vary: c.varyFingerprint(header)}); err != nil {
		c.logf("cache: not stored: %v", err)
	}
}
