package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/enginehq/engine/providers"
)

// BudgetProbeMin is the smallest estimate for which CheckBudget asks
// /rate_limit (free on GitHub) when nothing is known yet of the bucket:
// smaller statements cannot burn much of an hour's budget.
const BudgetProbeMin = 100

// BucketBudget is what a statement learns of one rate-limit bucket.
type BucketBudget = providers.BucketBudget

// CheckBudget refuses, before any request, a statement that needs n
// requests of path's rate-limit bucket when fewer remain before the
// bucket's reset and the reset is further away than the retry budget
// (MaxRetryWait) could wait: it fails fast instead of spending the rest of
// the hour half-way. The error is a retryable *providers.ProviderError of
// Kind "budget" whose RetryAfter is the time until the reset. When the
// bucket is unknown and n >= BudgetProbeMin, /rate_limit is asked first.
// Without a governor, or for free requests, it returns nil.
func (c *Client) CheckBudget(ctx context.Context, path string, n int) error {
	bucket := c.BucketOf(path)
	gov := c.govFor(path)
	if gov == nil || bucket == "" || n <= 0 {
		return nil
	}
	if c.app != nil && c.app.app.Multi() && c.knownInstallation(path) == nil {
		return nil // a path template over several installations: each has its own budget
	}
	if err := c.checkBucket(ctx, path, bucket, gov, n); err != nil {
		return err
	}
	// Within the bucket: the statement's place in the window shared with
	// other processes (admission.go).
	return c.reserve(ctx, path, n)
}

func (c *Client) checkBucket(ctx context.Context, path, bucket string, gov *Governor, n int) error {
	b, ok := gov.Bucket(bucket)
	if !ok && n >= BudgetProbeMin && c.prof != nil && c.prof.RateLimitProbe != "" && gov == c.govFor(c.prof.RateLimitProbe) {
		c.probeRateLimit(ctx)
		b, ok = gov.Bucket(bucket)
	}
	if !ok || n <= b.Remaining {
		return nil
	}
	wait := time.Until(b.Reset)
	if b.Reset.IsZero() || wait <= c.opts.MaxRetryWait {
		return nil // the pacing and the retries can wait for this reset
	}
	pe := &providers.ProviderError{
		Provider:    c.provider,
		Method:      http.MethodGet,
		URL:         c.redact(c.baseStr + path), // the method's path template
		Kind:        "budget",
		Retryable:   true,
		RateLimited: true,
		RetryAfter:  wait.Round(time.Second),
		Message: fmt.Sprintf("the statement needs about %d requests of the %q rate-limit bucket but only %d of %d remain until the reset at %s (in %s); nothing was sent. Retry after the reset, narrow the statement, or use another credential (e.g. a GitHub App installation)",
			n, bucket, b.Remaining, b.Limit, b.Reset.UTC().Format(time.RFC3339), wait.Round(time.Second)),
	}
	return pe
}

// Budget returns what is known of path's bucket (ok false when unknown,
// or, for a GitHub App over every installation, when path is not served
// by one known installation: each installation has its own budget).
func (c *Client) Budget(path string) (BucketBudget, bool) {
	bucket := c.BucketOf(path)
	gov := c.govFor(path)
	if gov == nil || bucket == "" {
		return BucketBudget{}, false
	}
	if c.app != nil && c.app.app.Multi() && c.knownInstallation(path) == nil {
		// Over several installations (a path template, or the app's own
		// endpoints counted with them): no one remaining budget applies.
		return BucketBudget{Bucket: bucket}, false
	}
	b, ok := gov.Bucket(bucket)
	if !ok {
		return BucketBudget{Bucket: bucket}, false
	}
	return BucketBudget{Bucket: bucket, Limit: b.Limit, Remaining: b.Remaining, Reset: b.Reset}, true
}

// probeRateLimit asks the profile's free rate-limit endpoint (GitHub: GET
// /rate_limit) and records its buckets. Failures are ignored (providers without the
// endpoint answer 404): the statement then runs unchecked.
func (c *Client) probeRateLimit(ctx context.Context) {
	gov := c.govFor(c.prof.RateLimitProbe)
	if gov == nil || !gov.startProbe() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	defer cancel()
	// The probe is a path on the base URL (validated with the profile; an
	// index can carry any text): like every credentialed request, it is
	// sent only to the base URL's origin.
	if err := providers.CheckProbePath(c.prof.RateLimitProbe); err != nil {
		c.logf("%v: not sent", err)
		return
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseStr+c.prof.RateLimitProbe, nil)
	if err != nil {
		return
	}
	if !sameOrigin(req.URL, c.base) {
		c.logf("rate-limit probe %s: not on the origin of %s; not sent", c.sanitize(req.URL.String()), c.sanitize(c.baseStr))
		return
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	req.Header.Set("Accept", "application/json")
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	if err := c.authorize(ctx, req); err != nil {
		return
	}
	c.requests.Add(1)
	resp, err := c.hc.Do(req)
	if err != nil {
		c.logf("GET %s: %v", c.sanitize(req.URL.String()), c.redact(err.Error()))
		return
	}
	defer resp.Body.Close()
	c.logf("GET %s -> %d (rate-limit probe, free)", c.sanitize(req.URL.String()), resp.StatusCode)
	if resp.StatusCode != http.StatusOK {
		return
	}
	var body struct {
		Resources map[string]struct {
			Limit     int   `json:"limit"`
			Remaining int   `json:"remaining"`
			Used      int   `json:"used"`
			Reset     int64 `json:"reset"`
		} `json:"resources"`
	}
	if json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&body) != nil {
		return
	}
	for name, r := range body.Resources {
		gov.Record(Bucket{Name: name, Limit: r.Limit, Remaining: r.Remaining, Used: r.Used, Reset: time.Unix(r.Reset, 0)})
	}
}

// Cached reports whether the first page of call would cost no rate limit
// when the response cache holds it: served without a request (within
// --cache-ttl) or revalidated with its validator, which GitHub answers
// 304 Not Modified without counting it when nothing changed. The budget
// checks leave such requests out of what a statement needs (a page that
// changed meanwhile costs one request after all, paced as any other).
func (c *Client) Cached(call Call) bool {
	cache := c.opts.Cache
	if cache == nil || call.Method == nil {
		return false
	}
	u, err := c.buildURL(call)
	if err != nil {
		return false
	}
	e, ok := cache.Get(c.cacheKey(call, u))
	if !ok || !c.reusable(e) {
		return false
	}
	return (cache.Fresh(e) && !noCache(e.Header)) || hasValidator(e.Header)
}

// ProbedBudget is Budget, asking the profile's free rate-limit endpoint
// first when the bucket is not known yet (engine check's budget of a
// whole file, before anything is sent).
func (c *Client) ProbedBudget(ctx context.Context, path string) (BucketBudget, bool) {
	if b, ok := c.Budget(path); ok {
		return b, true
	}
	if c.app != nil && c.app.app.Multi() {
		return BucketBudget{}, false // each installation has its own budget
	}
	gov := c.govFor(path)
	if gov != nil && c.prof != nil && c.prof.RateLimitProbe != "" && gov == c.govFor(c.prof.RateLimitProbe) && c.BucketOf(path) != "" {
		c.probeRateLimit(ctx)
	}
	return c.Budget(path)
}

// WindowRate is one window of the governor that paces path's requests
// (Windows).
type WindowRate struct {
	Bucket string // "" for the window of every request
	N      int
	Per    time.Duration
}

// Windows lists the windows that pace path's requests at their current
// budgets (none without a governor, or for free requests).
func (c *Client) Windows(path string) []WindowRate {
	gov := c.govFor(path)
	bucket := c.BucketOf(path)
	if gov == nil || bucket == "" {
		return nil
	}
	gov.mu.Lock()
	defer gov.mu.Unlock()
	var out []WindowRate
	for _, w := range gov.windows(bucket) {
		name := ""
		if w != gov.points {
			name = bucket
		}
		out = append(out, WindowRate{Bucket: name, N: w.budget(gov.factor), Per: w.length})
	}
	return out
}
