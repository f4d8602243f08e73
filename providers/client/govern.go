package client

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// The governor's hooks into the retrying client: beforeAttempt runs before
// every attempt (retries included) and waits for the governor's admission;
// afterAttempt runs after every attempt, once the body was read by
// checkRetry, and reports the response to the governor.

// admitted is the governor's record of one attempt, keyed by the request's
// attemptState (one per send).
type admitted struct {
	gov    *Governor
	bucket string
	at     time.Time
}

var admissions sync.Map // *attemptState -> admitted

// beforeAttempt is the RequestLogHook.
func (c *Client) beforeAttempt(l retryablehttp.Logger, req *http.Request, retry int) {
	countAttempt(l, req, retry)
	st := stateFrom(req.Context())
	gov := c.govFor(req.URL.EscapedPath())
	if gov == nil || st == nil {
		return
	}
	bucket := c.BucketOf(req.URL.Path)
	if d, why := gov.Delay(bucket); d >= NoticeMin {
		noticeWait(req.Context(), d, why)
	}
	at, err := gov.Acquire(req.Context(), bucket)
	if err != nil {
		return // the context is done: the attempt fails at once
	}
	if sp, _ := req.Context().Value(splitKey{}).(*splitProgress); sp != nil {
		sp.sent.Add(1)
	}
	admissions.Store(st, admitted{gov: gov, bucket: bucket, at: at})
}

// afterAttempt is the CheckRetry policy: checkRetry's decision, after which
// the governor learns what the response said.
func (c *Client) afterAttempt(ctx context.Context, resp *http.Response, err error) (bool, error) {
	retry, cerr := c.checkRetry(ctx, resp, err)
	st := stateFrom(ctx)
	if resp != nil && resp.StatusCode == http.StatusUnauthorized && resp.Request != nil && c.app != nil {
		// The installation token was refused (expired early or revoked):
		// drop it, and retry a first attempt once with a new one
		// (PrepareRetry re-signs; concurrent requests share the new one).
		c.dropAppToken(bearerOf(resp.Request))
		if !retry && cerr == nil && st != nil && st.attempts == 1 && c.opts.RetryMax > 0 {
			retry, st.nextWait = true, 0
			c.logf("auth: the GitHub App installation token was refused; retrying with a new one")
		}
	}
	if st == nil {
		return retry, cerr
	}
	v, ok := admissions.LoadAndDelete(st)
	if !ok {
		return retry, cerr
	}
	a := v.(admitted)
	if resp != nil {
		a.gov.Done(a.bucket, a.at, resp.StatusCode, resp.Header, st.body)
	} else {
		a.gov.Done(a.bucket, a.at, 0, nil, nil)
	}
	return retry, cerr
}

// Governor returns the governor shared by every client of this client's
// credential and origin (nil when governing is off).
func (c *Client) Governor() *Governor { return c.gov }

// pausedError is the error of a request that would wait out a secondary-
// limit pause longer than MaxRetryWait: nothing is sent, and the error is
// retryable after the pause.
func (c *Client) pausedError(req *http.Request) error {
	bucket := c.BucketOf(req.URL.Path)
	gov := c.govFor(req.URL.EscapedPath())
	if gov == nil || bucket == "" {
		return nil
	}
	if reset := gov.SpentUntil(bucket); time.Until(reset) > c.opts.MaxRetryWait {
		wait := time.Until(reset)
		pe := c.newError(Call{}, req.URL.String(), "budget", fmt.Sprintf(
			"not sent: the %q rate-limit bucket of this credential is spent until its reset at %s (in %s); retry after the reset, or use another credential (e.g. a GitHub App installation)",
			bucket, reset.UTC().Format("15:04:05 UTC"), wait.Round(time.Second)))
		pe.Retryable, pe.RateLimited, pe.RetryAfter = true, true, wait
		return pe
	}
	gov.sharedPaused()
	until := gov.PausedUntil()
	wait := time.Until(until)
	if until.IsZero() || wait <= c.opts.MaxRetryWait {
		return nil
	}
	pe := c.newError(Call{}, req.URL.String(), "paused", fmt.Sprintf(
		"not sent: every request of this credential is paused until %s (in %s) after GitHub answered a secondary rate limit; retry after the pause (GitHub bans clients that keep requesting while limited)",
		until.UTC().Format("15:04:05 UTC"), wait.Round(time.Second)))
	pe.Retryable, pe.RateLimited, pe.RetryAfter = true, true, wait
	return pe
}
