package client

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/providers/httpcache"
)

func TestResetWaitEdges(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	for v, want := range map[string]time.Duration{
		"":                          0,
		"garbage":                   0,
		"-5":                        0,
		"0":                         0,
		"1699999000":                time.Second, // past
		"1700000060":                time.Minute,
		"1700000060000":             time.Minute, // milliseconds
		"99999999999999999":         maxServerWait,
		strconv.Itoa(math.MaxInt64): maxServerWait,
		"1800000000":                maxServerWait, // > 24 h away
	} {
		if got := resetWait(v, now); got != want {
			t.Errorf("resetWait(%q) = %v, want %v", v, got, want)
		}
	}
	for v, want := range map[string]time.Duration{
		"60": time.Minute, "0": 0, "-1": 0, "99999999999999999999": 0, "9999999999": maxServerWait,
		now.Add(48 * time.Hour).UTC().Format(http.TimeFormat): maxServerWait,
	} {
		if got := parseRetryAfter(v, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", v, got, want)
		}
	}
	for _, d := range []time.Duration{math.MaxInt64, maxServerWait, time.Nanosecond} {
		if s := (&providers.ProviderError{RetryAfter: d}).RetryAfterSeconds(); s <= 0 {
			t.Errorf("RetryAfterSeconds(%v) = %d", d, s)
		}
	}
}

func TestClassifySecondaryRateLimits(t *testing.T) {
	now := time.Now()
	for name, c := range map[string]struct {
		status int
		h      http.Header
		body   string
		retry  bool
		after  time.Duration
	}{
		"abuse with Retry-After":  {403, header("Retry-After", "60"), `{"message":"You have triggered an abuse detection mechanism."}`, true, time.Minute},
		"abuse without":           {403, header(), `{"message":"You have triggered an abuse detection mechanism."}`, true, time.Minute},
		"secondary without":       {403, header(), `{"message":"You have exceeded a secondary rate limit."}`, true, time.Minute},
		"403 Retry-After only":    {403, header("Retry-After", "5"), `{"message":"Forbidden"}`, true, 5 * time.Second},
		"primary":                 {403, header("X-Ratelimit-Remaining", "0", "X-Ratelimit-Reset", unixSeconds(now.Add(120*time.Second))), `{"message":"API rate limit exceeded"}`, true, 120 * time.Second},
		"secondary ignores reset": {403, header("X-Ratelimit-Remaining", "10", "X-Ratelimit-Reset", unixSeconds(now.Add(3000*time.Second))), `{"message":"secondary rate limit"}`, true, time.Minute},
		"plain 403":               {403, header(), `{"message":"Resource not accessible by integration"}`, false, 0},
		"429 without Retry-After": {429, header(), `{}`, true, time.Minute},
	} {
		d := classifyHTTP(c.status, c.h, []byte(c.body), now)
		if d.retryable != c.retry || (c.retry && (d.retryAfter < c.after-2*time.Second || d.retryAfter > c.after+2*time.Second)) {
			t.Errorf("%s: retryable %v after %v, want %v %v", name, d.retryable, d.retryAfter, c.retry, c.after)
		}
	}
}

func TestSamePagePath(t *testing.T) {
	u := func(s string) *url.URL { x, _ := url.Parse(s); return x }
	for _, c := range []struct {
		cur, next string
		ok        bool
	}{
		{"https://h/orgs/acme/repos?per_page=100", "https://h/orgs/acme/repos?page=2", true},
		{"https://h/orgs/acme/repos", "https://h/orgs/tiny/repos?page=2", false},
		{"https://h/repos/acme/api/issues", "https://h/repositories/42/issues?page=2", true},
		{"https://h/repositories/42/issues?page=2", "https://h/repositories/42/issues?page=3", true},
		{"https://h/repos/acme/api/issues", "https://h/repos/evil/x/issues?page=2", false},
		{"https://h/repositories/42/issues", "https://h/repositories/43/issues?page=2", false},
		{"https://h/repos/acme/api/issues", "https://h/repositories/42/pulls?page=2", false},
		{"https://h/api/v3/repos/a/b/issues", "https://h/api/v3/repositories/1/issues", true},
	} {
		if got := samePagePath(u(c.cur), u(c.next)); got != c.ok {
			t.Errorf("samePagePath(%s, %s) = %v", c.cur, c.next, got)
		}
	}
}

// A 404 "Branch not protected" reached through a followed redirect (a
// renamed repository's 301) is an error, not "no rows"; the same answer
// without a redirect is "no rows"; a 302 is not followed.
func TestAbsenceNeverAfterRedirect(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/repos/old/x/branches/main/protection":
			http.Redirect(w, r, "/repos/acme/x/branches/main/protection", http.StatusMovedPermanently)
		case "/repos/temp/x/branches/main/protection":
			http.Redirect(w, r, "/repos/acme/x/branches/main/protection", http.StatusFound)
		default:
			w.WriteHeader(404)
			fmt.Fprint(w, `{"message":"Branch not protected"}`)
		}
	}))
	c := newTestClient(t, srv, nil)
	m := &providers.Method{OperationID: "repos/get-branch-protection", Path: "/repos/{owner}/x/branches/main/protection",
		Params: []providers.Param{{Name: "owner", In: providers.InPath, Required: true}}, Shape: providers.ShapeObject,
		Absent: []providers.AbsentRule{{Status: 404, Message: "Branch not protected"}}, RedirectAdvice: "use another token"}
	if items, _, err := collect(t, c, Call{Method: m, Params: map[string]string{"owner": "acme"}}); err != nil || len(items) != 0 {
		t.Fatalf("direct: items %v err %v", items, err)
	}
	_, _, err := collect(t, c, Call{Method: m, Params: map[string]string{"owner": "old"}})
	var pe *providers.ProviderError
	if !errors.As(err, &pe) || pe.Status != 404 || !strings.Contains(pe.Message, "after a redirect") {
		t.Fatalf("after 301: %v", err)
	}
	_, st, err := collect(t, c, Call{Method: m, Params: map[string]string{"owner": "temp"}})
	if !errors.As(err, &pe) || pe.Status != 302 || pe.Kind != "redirect" || pe.Retryable ||
		!strings.Contains(pe.Message, "/repos/acme/x/branches/main/protection") || !strings.HasSuffix(pe.Message, "use another token") || st.Requests != 1 {
		t.Fatalf("302: %v (requests %d)", err, st.Requests)
	}
}

// The partial-answer flag makes any page an "incomplete" error.
func TestIncompleteFlag(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"total_count":1,"incomplete_results":%v,"items":[{"a":1}]}`, r.URL.Query().Get("q") == "slow")
	}))
	c := newTestClient(t, srv, nil)
	m := &providers.Method{OperationID: "search/repos", Path: "/search/repositories", Shape: providers.ShapeWrapped, ItemKey: "items",
		Params: []providers.Param{{Name: "q", In: providers.InQuery, Required: true}}, IncompleteFlag: "incomplete_results"}
	if items, _, err := collect(t, c, Call{Method: m, Params: map[string]string{"q": "fast"}}); err != nil || len(items) != 1 {
		t.Fatalf("complete: %v %v", items, err)
	}
	_, _, err := collect(t, c, Call{Method: m, Params: map[string]string{"q": "slow"}})
	var pe *providers.ProviderError
	if !errors.As(err, &pe) || pe.Kind != "incomplete" || !pe.Retryable || pe.Status != 200 {
		t.Fatalf("incomplete: %v", err)
	}
}

// A partial answer is never stored in the response cache: the retry its
// error advises must ask the provider again, even with a TTL that would
// serve a stored answer unasked.
func TestIncompleteNotCached(t *testing.T) {
	var requests atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		w.Header().Set("Etag", fmt.Sprintf(`"v%d"`, n))
		w.Header().Set("Cache-Control", "private, max-age=60")
		fmt.Fprintf(w, `{"total_count":1,"incomplete_results":%v,"items":[{"a":1}]}`, n == 1)
	}))
	cache, err := httpcache.Open(t.TempDir(), time.Hour, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, srv, func(o *Options) { o.Cache = cache })
	m := &providers.Method{OperationID: "search/repos", Path: "/search/repositories", Shape: providers.ShapeWrapped, ItemKey: "items",
		Params: []providers.Param{{Name: "q", In: providers.InQuery, Required: true}}, IncompleteFlag: "incomplete_results"}
	call := Call{Method: m, Params: map[string]string{"q": "x"}}
	if _, _, err := collect(t, c, call); err == nil {
		t.Fatal("first answer is partial: want an error")
	}
	items, st, err := collect(t, c, call)
	if err != nil || len(items) != 1 || st.CacheHits != 0 || requests.Load() != 2 {
		t.Fatalf("retry: items %v err %v stats %+v requests %d; want a fresh complete answer", items, err, st, requests.Load())
	}
	// The complete answer is stored and, within the TTL, served unasked.
	if _, st, err := collect(t, c, call); err != nil || st.CacheHits != 1 || requests.Load() != 2 {
		t.Fatalf("third: %v %+v requests %d", err, st, requests.Load())
	}
}
