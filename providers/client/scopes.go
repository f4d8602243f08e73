package client

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// GrantedScopes asks path of the provider (GitHub: /rate_limit, which
// costs no rate limit) with the client's credentials, once and without
// retries, and returns the token scopes the answer's X-OAuth-Scopes header
// lists. listed is false when the answer has no such header: GitHub sends
// it for classic tokens only, so the permissions of a GitHub App, a
// fine-grained token (or no token) cannot be listed this way. An answer
// >= 400 is an error.
func (c *Client) GrantedScopes(ctx context.Context, path string) (scopes []string, listed bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseStr+path, nil)
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	req.Header.Set("Accept", "application/json")
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	if err := c.authorize(ctx, req); err != nil {
		return nil, false, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, false, fmt.Errorf("GET %s: %s", c.sanitize(req.URL.String()), c.redact(err.Error()))
	}
	resp.Body.Close()
	c.requests.Add(1)
	if resp.StatusCode >= 400 {
		return nil, false, fmt.Errorf("GET %s: HTTP %d", c.sanitize(req.URL.String()), resp.StatusCode)
	}
	vals, ok := resp.Header[http.CanonicalHeaderKey("X-OAuth-Scopes")]
	if !ok {
		return nil, false, nil
	}
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				scopes = append(scopes, s)
			}
		}
	}
	return scopes, true, nil
}
