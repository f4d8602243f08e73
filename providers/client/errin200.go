package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/buger/jsonparser"

	"github.com/enginehq/engine/providers"
)

// Errors in a 200: some providers answer a failed request with a 2xx
// status and say so in the body (Slack: {"ok": false, "error":
// "invalid_auth"}). The profile's rule (providers.ErrorIn200) names the
// field, the value meaning failure and the field holding the code, and
// which codes are about credentials, rate limits or temporary failures.
// Such an answer is an error of kind "http" with its status, never rows;
// a rate-limit or retryable code is retried within the retry budget like
// a 429 or a 503.

// failure is a 2xx answer the profile's rule marks as failed.
type failure struct {
	rule *providers.ErrorIn200
	prof *providers.Profile
	code string
}

// failedIn200 applies the profile's rule to a 2xx body.
func failedIn200(prof *providers.Profile, body []byte) (failure, bool) {
	if prof == nil || prof.ErrorIn200 == nil {
		return failure{}, false
	}
	r := prof.ErrorIn200
	raw, typ, ok := valueAt(body, r.Field)
	if !ok {
		return failure{}, false
	}
	got := string(raw)
	if typ == jsonparser.String {
		got = `"` + got + `"`
	}
	want := strings.TrimSpace(r.Equals)
	if !json.Valid([]byte(want)) {
		b, _ := json.Marshal(want) // a bare word is a string
		want = string(b)
	}
	if got != want {
		return failure{}, false
	}
	return failure{rule: r, prof: prof, code: stringAt(body, r.Code)}, true
}

// failed200 reports whether a 2xx body is a failure under the profile.
func failed200(prof *providers.Profile, body []byte) bool {
	_, failed := failedIn200(prof, body)
	return failed
}

// decision classifies the failure by its code.
func (f failure) decision(h http.Header, now time.Time) decision {
	code := f.code
	if code == "" {
		code = "no error code"
	}
	d := decision{message: fmt.Sprintf("the provider answered with an error in a 2xx body (%s=%s): %s", f.rule.Field, f.rule.Equals, code)}
	switch {
	case slices.Contains(f.rule.Auth, f.code):
		advice := f.prof.Credentials
		if advice == "" {
			advice = "check the credentials given with --auth for this provider"
		}
		d.message += "; the credentials are missing, invalid or lack a scope: " + advice
	case slices.Contains(f.rule.RateLimited, f.code):
		d.retryable, d.rateLimited = true, true
		d.retryAfter = parseRetryAfter(h.Get("Retry-After"), now)
		if d.retryAfter <= 0 {
			d.retryAfter = f.prof.RateLimitOf().SecondaryWait()
		}
		d.message += " (rate limit)"
	case slices.Contains(f.rule.Retryable, f.code):
		d.retryable = true
		d.retryAfter = parseRetryAfter(h.Get("Retry-After"), now)
	}
	return d
}

// in200Error is the ProviderError of a failed 2xx answer.
func (c *Client) in200Error(call Call, r *response, f failure) *providers.ProviderError {
	d := f.decision(r.header, time.Now())
	pe := c.newError(call, r.url.String(), "http", "")
	pe.Message = providers.OneLine(c.redact(d.message), messageLimit)
	pe.Status = r.status
	pe.Body = providers.TruncateUTF8(c.redact(string(r.body)), bodyExcerpt)
	pe.Retryable, pe.RateLimited, pe.RetryAfter = d.retryable, d.rateLimited, d.retryAfter
	pe.Attempts = r.attempts
	return pe
}

// BucketOf is the rate-limit bucket of a path under the provider's
// profile (providers.Profile.BucketOf; GitHub: core, search, code_search,
// "" for the free /rate_limit): the engine groups a statement's requests
// by it.
func (c *Client) BucketOf(path string) string { return c.prof.BucketOf(path) }
