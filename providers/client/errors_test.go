package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/enginehq/engine/providers"
)

func TestRateLimit403OnPage2(t *testing.T) {
	var hits atomic.Int32
	ok := pagedHandler(3, 1, false, &hits)
	reset := time.Now().Add(time.Hour).Unix()
	var page2 atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "2" {
			page2.Add(1)
			w.Header().Set("X-Ratelimit-Remaining", "0")
			w.Header().Set("X-Ratelimit-Reset", strconv.FormatInt(reset, 10))
			w.WriteHeader(403)
			fmt.Fprint(w, `{"message":"API rate limit exceeded for user ID 1.","documentation_url":"https://docs.github.com"}`)
			return
		}
		ok(w, r)
	}))
	c := newTestClient(t, srv, nil) // budget 5s < 1h: surface at once
	start := time.Now()
	_, _, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if pe.Status != 403 || !pe.Retryable || !pe.RateLimited || pe.Kind != "http" || pe.Attempts != 1 || page2.Load() != 1 {
		t.Fatalf("error %+v, page 2 hits %d", pe, page2.Load())
	}
	if pe.RetryAfter < 59*time.Minute || pe.RetryAfter > 61*time.Minute {
		t.Errorf("RetryAfter %v, want about 1h", pe.RetryAfter)
	}
	if pe.Message != "API rate limit exceeded for user ID 1." || !strings.Contains(pe.URL, "page=2") || !strings.Contains(pe.Body, "rate limit") {
		t.Errorf("error %+v", pe)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("took %v; should surface at once", time.Since(start))
	}
}

func TestSecondaryRateLimitBody(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(403)
		fmt.Fprint(w, `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`)
	}))
	c := newTestClient(t, srv, nil)
	_, _, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if !pe.Retryable || !pe.RateLimited || pe.RetryAfter != time.Minute || pe.Attempts != 1 {
		t.Fatalf("error %+v", pe)
	}
}

func TestNonRetryableStatuses(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 409, 422} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			var hits atomic.Int32
			srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				w.Header().Set("X-Ratelimit-Remaining", "4999")
				w.WriteHeader(status)
				fmt.Fprintf(w, `{"message":"failure %d"}`, status)
			}))
			c := newTestClient(t, srv, nil)
			_, st, err := collect(t, c, orgCall())
			pe := asProviderError(t, err)
			if pe.Status != status || pe.Retryable || pe.RateLimited || pe.Attempts != 1 || hits.Load() != 1 || st.Requests != 1 {
				t.Fatalf("error %+v hits %d", pe, hits.Load())
			}
			if pe.Message != fmt.Sprintf("failure %d", status) {
				t.Errorf("message %q", pe.Message)
			}
			want := fmt.Sprintf("GET %s/orgs/acme/repos?per_page=100 failed: %d failure %d", srv.URL, status, status)
			if err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
}

func TestStatusTextWhenNoJSONMessage(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(404)
		fmt.Fprint(w, "<html>nope</html>")
	}))
	_, _, err := collect(t, newTestClient(t, srv, nil), orgCall())
	if pe := asProviderError(t, err); pe.Message != "Not Found" || pe.Body != "<html>nope</html>" {
		t.Fatalf("%+v", pe)
	}
}

func Test429RetryAfterThenSuccess(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"message":"slow down"}`)
			return
		}
		fmt.Fprint(w, `[{"ok":true}]`)
	}))
	c := newTestClient(t, srv, nil)
	start := time.Now()
	items, st, err := collect(t, c, orgCall())
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 900*time.Millisecond {
		t.Errorf("retried after %v; Retry-After asked for 1s", el)
	}
	if len(items) != 1 || st.Requests != 2 || st.Pages != 1 || hits.Load() != 2 {
		t.Fatalf("items %d stats %+v hits %d", len(items), st, hits.Load())
	}
}

func Test503AlwaysExhaustsRetries(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
	}))
	c := newTestClient(t, srv, func(o *Options) { o.RetryMax = 3 })
	_, st, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if pe.Status != 503 || !pe.Retryable || pe.Attempts != 4 || hits.Load() != 4 || st.Requests != 4 || pe.Message != "Service Unavailable" {
		t.Fatalf("error %+v hits %d stats %+v", pe, hits.Load(), st)
	}
}

func TestRetryAfterBeyondBudgetSurfacesAtOnce(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(503)
	}))
	c := newTestClient(t, srv, func(o *Options) { o.MaxRetryWait = 2 * time.Second })
	start := time.Now()
	_, _, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if time.Since(start) > time.Second || hits.Load() != 1 || pe.RetryAfter != 120*time.Second || !pe.Retryable || pe.RetryAfterSeconds() != 120 {
		t.Fatalf("error %+v after %v, hits %d", pe, time.Since(start), hits.Load())
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	if d := parseRetryAfter(now.Add(90*time.Second).Format(http.TimeFormat), now); d != 90*time.Second {
		t.Errorf("date: %v", d)
	}
	if d := parseRetryAfter(" 7 ", now); d != 7*time.Second {
		t.Errorf("seconds: %v", d)
	}
	for _, v := range []string{"", "-3", "soon", now.Add(-time.Hour).Format(http.TimeFormat)} {
		if d := parseRetryAfter(v, now); d != 0 {
			t.Errorf("%q: %v", v, d)
		}
	}
	if d := resetWait(unixSeconds(now.Add(30*time.Second)), now); d != 30*time.Second {
		t.Errorf("reset: %v", d)
	}
	if d := resetWait(unixSeconds(now.Add(-time.Minute)), now); d != time.Second {
		t.Errorf("reset in the past: %v", d)
	}
}

func TestClassifyHTTP(t *testing.T) {
	now := time.Now()
	tests := []struct {
		status      int
		h           http.Header
		body        string
		retry, rate bool
	}{
		{408, header(), "", true, false},
		{429, header(), "", true, true},
		{500, header(), "", true, false},
		{502, header(), "", true, false},
		{599, header(), "", true, false},
		{403, header("X-RateLimit-Remaining", "0"), "", true, true},
		{403, header(), `{"message":"API RATE LIMIT exceeded"}`, true, true},
		{403, header(), `{"message":"Resource not accessible by integration"}`, false, false},
		{400, header(), "", false, false},
		{401, header(), "", false, false},
		{404, header(), "", false, false},
		{409, header(), "", false, false},
		{422, header(), "", false, false},
	}
	for _, tt := range tests {
		d := classifyHTTP(tt.status, tt.h, []byte(tt.body), now)
		if d.retryable != tt.retry || d.rateLimited != tt.rate {
			t.Errorf("%d %v %q: %+v", tt.status, tt.h, tt.body, d)
		}
	}
}

// hijackClose closes the connection without answering.
func hijackClose(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

func TestConnectionReset(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		hijackClose(w)
	}))
	c := newTestClient(t, srv, func(o *Options) { o.RetryMax = 2 })
	_, st, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if pe.Kind != "transport" || !pe.Retryable || pe.Status != 0 || pe.Attempts != 3 || hits.Load() != 3 || st.Requests != 3 {
		t.Fatalf("error %+v hits %d stats %+v", pe, hits.Load(), st)
	}
	if strings.Contains(pe.Message, "http://") {
		t.Errorf("message repeats the URL: %q", pe.Message)
	}
}

func TestConnectionResetThenSuccess(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			hijackClose(w)
			return
		}
		fmt.Fprint(w, `[1]`)
	}))
	items, st, err := collect(t, newTestClient(t, srv, nil), orgCall())
	if err != nil || len(items) != 1 || st.Requests != 2 {
		t.Fatalf("items %d stats %+v err %v", len(items), st, err)
	}
}

func TestTruncatedBodyIsRetryableTransportError(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Length", "100")
		fmt.Fprint(w, `[{"a":1},`)
	}))
	c := newTestClient(t, srv, func(o *Options) { o.RetryMax = 1 })
	_, _, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if pe.Kind != "transport" || !pe.Retryable || hits.Load() != 2 || !strings.Contains(pe.Message, "reading response body") {
		t.Fatalf("error %+v hits %d", pe, hits.Load())
	}
}

func TestHugeErrorBodyKeepsStatus(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(404)
		fmt.Fprint(w, strings.Repeat("x", 5000))
	}))
	c := newTestClient(t, srv, func(o *Options) { o.MaxBodyBytes = 1024 })
	_, _, err := collect(t, c, orgCall())
	if pe := asProviderError(t, err); pe.Kind != "http" || pe.Status != 404 || len(pe.Body) != 300 {
		t.Fatalf("%+v", pe)
	}
}

func TestRequestTimeout(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}))
	c := newTestClient(t, srv, func(o *Options) { o.RequestTimeout = 50 * time.Millisecond; o.RetryMax = 1 })
	_, st, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if pe.Kind != "timeout" || !pe.Retryable || st.Requests != 2 {
		t.Fatalf("error %+v stats %+v", pe, st)
	}
}

func TestBodyTooLarge(t *testing.T) {
	for _, chunked := range []bool{false, true} {
		t.Run(fmt.Sprint("chunked=", chunked), func(t *testing.T) {
			var hits atomic.Int32
			srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				body := "[" + strings.Repeat(`"xxxxxxxx",`, 400) + "1]"
				if chunked {
					fmt.Fprint(w, body[:10])
					w.(http.Flusher).Flush()
					fmt.Fprint(w, body[10:])
					return
				}
				fmt.Fprint(w, body)
			}))
			c := newTestClient(t, srv, func(o *Options) { o.MaxBodyBytes = 1024 })
			_, _, err := collect(t, c, orgCall())
			pe := asProviderError(t, err)
			if pe.Kind != "decode" || pe.Retryable || pe.Status != 200 || !strings.Contains(pe.Message, "exceeds the 1024-byte limit") || hits.Load() != 1 {
				t.Fatalf("error %+v", pe)
			}
		})
	}
}

func TestPathEscaping(t *testing.T) {
	var uri atomic.Value
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uri.Store(r.RequestURI)
		fmt.Fprint(w, `[]`)
	}))
	c := newTestClient(t, srv, nil)
	call := orgCall()
	call.Params["org"] = "../../admin"
	if _, _, err := collect(t, c, call); err != nil {
		t.Fatal(err)
	}
	if got := uri.Load(); got != "/orgs/..%2F..%2Fadmin/repos?per_page=100" {
		t.Fatalf("request URI %q", got)
	}
	call.Params["org"] = "a b/c?d#e"
	if _, _, err := collect(t, c, call); err != nil {
		t.Fatal(err)
	}
	if got := uri.Load(); got != "/orgs/a%20b%2Fc%3Fd%23e/repos?per_page=100" {
		t.Fatalf("request URI %q", got)
	}
	for _, bad := range []map[string]string{{"org": ""}, {"org": ".."}, {"org": "."}, {}, {"org": "x", "nope": "1"}} {
		_, _, err := collect(t, c, Call{Method: listMethod(), Params: bad})
		var pe *providers.ProviderError
		if err == nil || errors.As(err, &pe) {
			t.Errorf("params %v: err %v, want a plain call error", bad, err)
		}
	}
}

func TestAuthorizationNotForwardedAcrossHosts(t *testing.T) {
	var otherAuth, sameAuth atomic.Value
	other := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherAuth.Store(r.Header.Get("Authorization") + "|" + r.Header.Get("X-GitHub-Api-Version"))
		fmt.Fprint(w, `[{"from":"other"}]`)
	}))
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/orgs/elsewhere/repos":
			// Same IP, different port: Go's own rule would keep the header.
			http.Redirect(w, r, other.URL+"/landing", http.StatusFound)
		case "/orgs/moved/repos":
			http.Redirect(w, r, "/orgs/acme/repos", http.StatusMovedPermanently)
		default:
			sameAuth.Store(r.Header.Get("Authorization"))
			fmt.Fprint(w, `[{"from":"same"}]`)
		}
	}))
	c := newTestClient(t, srv, nil)
	// A redirect to another origin is not followed: an error, and the
	// other host never sees the request (nor the token).
	items, _, err := collect(t, c, Call{Method: listMethod(), Params: map[string]string{"org": "elsewhere"}})
	var pe *providers.ProviderError
	if !errors.As(err, &pe) || pe.Kind != "redirect" || pe.Status != 302 || pe.Retryable || !strings.Contains(pe.Message, "another host") || len(items) != 0 {
		t.Fatalf("items %v err %v", items, err)
	}
	if got := otherAuth.Load(); got != nil {
		t.Fatalf("other host was contacted: %q", got)
	}
	if _, _, err := collect(t, c, Call{Method: listMethod(), Params: map[string]string{"org": "moved"}}); err != nil {
		t.Fatal(err)
	}
	if got := sameAuth.Load(); got != "Bearer "+testToken {
		t.Fatalf("same-origin redirect lost Authorization: %q", got)
	}
}

func TestTokenNeverInErrors(t *testing.T) {
	var none *providers.Header
	basic, err := none.Credentials(&providers.AuthConfig{Type: providers.AuthBasic, CredentialsEnvVar: "X"},
		func(string) string { return "octocat:" + testToken })
	if err != nil {
		t.Fatal(err)
	}
	for name, creds := range map[string]providers.Credentials{"bearer": bearer(t, testToken), "basic": basic} {
		t.Run(name, func(t *testing.T) {
			srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth := r.Header.Get("Authorization")
				if r.URL.Query().Get("page") == "2" {
					w.WriteHeader(200)
					fmt.Fprintf(w, `{"echo":%q`, auth) // invalid JSON echoing the header
					return
				}
				if r.URL.Query().Get("type") == "next" {
					w.Header().Set("Link", `</orgs/acme/repos?page=2&access_token=`+testToken+`>; rel="next"`)
					fmt.Fprint(w, `[]`)
					return
				}
				w.WriteHeader(401)
				fmt.Fprintf(w, `{"message":"Bad credentials: %s","token":%q}`, auth, testToken)
			}))
			c := newTestClient(t, srv, func(o *Options) {
				o.Credentials = creds
				o.Logf = func(format string, args ...any) {
					if line := fmt.Sprintf(format, args...); strings.Contains(line, testToken) {
						t.Errorf("secret logged: %s", line)
					}
				}
			})
			for _, typ := range []string{"", "next"} {
				call := orgCall()
				if typ != "" {
					call.Params["type"] = typ
				}
				_, _, err := collect(t, c, call)
				pe := asProviderError(t, err) // checks the token is absent
				for _, s := range []string{err.Error(), pe.Body, pe.Message, pe.URL, fmt.Sprintf("%#v", pe)} {
					if strings.Contains(s, testToken) || strings.Contains(s, "b2N0b2NhdDpnaHBf") {
						t.Fatalf("secret in %q", s)
					}
				}
			}
		})
	}
}

func TestContextCancelStopsPromptly(t *testing.T) {
	release := make(chan struct{})
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "" {
			q := r.URL.Query()
			q.Set("page", "2")
			next := r.URL.Path + "?" + q.Encode()
			q.Set("page", "9")
			w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next", <%s>; rel="last"`, next, r.URL.Path+"?"+q.Encode()))
			fmt.Fprint(w, `[1]`)
			return
		}
		select { // pages 2.. hang until the client goes away
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer close(release)

	c := newTestClient(t, srv, nil)
	// Warm up one connection so that the baseline includes the pool's steady state.
	c.CloseIdleConnections()
	before := runtime.NumGoroutine()

	ctx, cancel := context.WithCancel(context.Background())
	var emitted atomic.Int32
	done := make(chan error, 1)
	go func() {
		_, err := c.Do(ctx, orgCall(), func([]json.RawMessage) error { emitted.Add(1); return nil })
		done <- err
	}()
	time.Sleep(150 * time.Millisecond)
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
		var pe *providers.ProviderError
		if errors.As(err, &pe) {
			t.Fatalf("cancellation reported as ProviderError %v", pe)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Do did not return after cancel")
	}
	if el := time.Since(start); el > 500*time.Millisecond {
		t.Errorf("Do returned %v after cancel", el)
	}
	if emitted.Load() != 1 {
		t.Errorf("emitted %d pages", emitted.Load())
	}
	c.CloseIdleConnections()
	if n := settleGoroutines(before); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("goroutines: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

func TestContextCancelDuringBackoff(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(429)
	}))
	c := newTestClient(t, srv, func(o *Options) { o.MaxRetryWait = time.Minute })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Do(ctx, orgCall(), func([]json.RawMessage) error { return nil })
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
}

func TestConcurrentDoTotals(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, pagedHandler(3, 1, false, &hits))
	c := newTestClient(t, srv, nil)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := c.Do(context.Background(), orgCall(), func([]json.RawMessage) error { return nil })
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// Identical GETs in flight at once are sent once (share.go): every
	// page is either a request or shared.
	if tot := c.Totals(); tot.Requests+tot.Shared != 24 || tot.Pages != 24 || tot.Requests != int(hits.Load()) {
		t.Fatalf("totals %+v, %d requests received", tot, hits.Load())
	}
}

func TestNewRequiresBaseURL(t *testing.T) {
	p, _ := newProvider(providers.Header{Provider: "custom"}, nil)
	if _, err := New(p, Options{}); err == nil || !strings.Contains(err.Error(), "no base URL") {
		t.Fatalf("err %v", err)
	}
	if _, err := New(p, Options{BaseURL: "ftp://x"}); err == nil {
		t.Fatal("ftp accepted")
	}
	c, err := New(p, Options{BaseURL: "https://user:pw@example.com/api/"})
	if err != nil || c.BaseURL() != "https://user:pw@example.com/api" {
		t.Fatalf("%v %v", c, err)
	}
	if got := sanitizeURL("https://user:pw@example.com/x?access_token=abc&page=2&client_secret=s"); got != "https://example.com/x?access_token=REDACTED&client_secret=REDACTED&page=2" {
		t.Fatalf("sanitize: %s", got)
	}
}

func TestPaginationConcurrentInOrder(t *testing.T) {
	var hits atomic.Int32
	var seen sync.Map
	h := pagedHandler(3, 2, false, &hits)
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.URL.Query().Get("page"), r.Header.Clone())
		if got := r.URL.Query().Get("type"); got != "public" {
			t.Errorf("type query = %q", got)
		}
		h(w, r)
	}))
	c := newTestClient(t, srv, nil)
	var progress []int
	call := orgCall()
	call.Params["type"] = "public"
	call.OnPage = func(p int) { progress = append(progress, p) }
	items, st, err := collect(t, c, call)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 6 {
		t.Fatalf("got %d items, want 6", len(items))
	}
	for i, it := range items {
		p, j := pageOf(t, it)
		if p != i/2+1 || j != i%2 {
			t.Errorf("item %d is page %d #%d: out of order", i, p, j)
		}
	}
	if st.Requests != 3 || st.Pages != 3 || hits.Load() != 3 {
		t.Errorf("stats %+v, hits %d; want 3 requests, 3 pages", st, hits.Load())
	}
	if fmt.Sprint(progress) != "[1 2 3]" {
		t.Errorf("OnPage progress %v", progress)
	}
	v, _ := seen.Load("")
	hdr := v.(http.Header)
	if hdr.Get("Authorization") != "Bearer "+testToken || hdr.Get("X-GitHub-Api-Version") != "2022-11-28" || hdr.Get("User-Agent") != "engine" {
		t.Errorf("first request headers: %v", hdr)
	}
	if tot := c.Totals(); tot != st {
		t.Errorf("Totals %+v != %+v", tot, st)
	}
}

func TestPaginationSequentialNextOnly(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, pagedHandler(4, 3, true, &hits))
	c := newTestClient(t, srv, nil)
	items, st, err := collect(t, c, orgCall())
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 12 || st.Pages != 4 || st.Requests != 4 {
		t.Fatalf("items %d stats %+v", len(items), st)
	}
	for i, it := range items {
		if p, _ := pageOf(t, it); p != i/3+1 {
			t.Fatalf("item %d from page %d", i, p)
		}
	}
}

func TestPerPageSent(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "per_page=7" {
			t.Errorf("query %q", r.URL.RawQuery)
		}
		fmt.Fprint(w, "[]")
	}))
	c := newTestClient(t, srv, func(o *Options) { o.PerPage = 7 })
	if _, _, err := collect(t, c, orgCall()); err != nil {
		t.Fatal(err)
	}
}

func TestLimitStopsEarly(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, pagedHandler(5, 2, false, &hits))
	c := newTestClient(t, srv, nil)
	call := orgCall()
	call.Limit = 3
	items, st, err := collect(t, c, call)
	if err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 2 || st.Requests != 2 || len(items) != 4 {
		t.Fatalf("hits %d, stats %+v, items %d; want 2 requests and 4 items", hits.Load(), st, len(items))
	}
}

func TestMaxPages(t *testing.T) {
	for _, noLast := range []bool{false, true} {
		t.Run(fmt.Sprint("noLast=", noLast), func(t *testing.T) {
			var hits atomic.Int32
			srv := serve(t, pagedHandler(5, 1, noLast, &hits))
			c := newTestClient(t, srv, func(o *Options) { o.MaxPages = 3 })
			_, _, err := collect(t, c, orgCall())
			var le *PageLimitError
			if !errors.As(err, &le) || le.ErrorKind() != "plan" || le.ErrorSetting() != "max-pages" || le.Limit != 3 ||
				strings.Contains(le.Error(), "--") || !strings.Contains(le.Error(), "max-pages") {
				t.Fatalf("error %#v", err)
			}
			if !noLast && le.Total != 5 {
				t.Errorf("total %d, want 5 (from rel=\"last\")", le.Total)
			}
			want := int32(3)
			if !noLast {
				want = 1 // the page count is known from rel="last": fail before fetching
			}
			if hits.Load() != want {
				t.Errorf("hits %d, want %d", hits.Load(), want)
			}
		})
	}
	// Exactly MaxPages pages is fine.
	var hits atomic.Int32
	srv := serve(t, pagedHandler(3, 1, false, &hits))
	c := newTestClient(t, srv, func(o *Options) { o.MaxPages = 3 })
	if _, _, err := collect(t, c, orgCall()); err != nil {
		t.Fatal(err)
	}
}

func TestLinkLoop(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "http://" + r.Host + r.URL.Path
		if r.URL.Query().Get("page") == "2" {
			// Back to page 1, parameters in another order.
			w.Header().Set("Link", fmt.Sprintf(`<%s?per_page=100>; rel="next"`, base))
		} else {
			w.Header().Set("Link", fmt.Sprintf(`<%s?page=2&per_page=100>; rel="next"`, base))
		}
		fmt.Fprint(w, `[{"a":1}]`)
	}))
	c := newTestClient(t, srv, nil)
	_, st, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if !strings.Contains(pe.Message, "pagination loop") || st.Requests != 2 {
		t.Fatalf("error %v, stats %+v", err, st)
	}
}

func TestNextOnOtherHostRefused(t *testing.T) {
	var otherHits atomic.Int32
	other := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits.Add(1)
		fmt.Fprint(w, `[]`)
	}))
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", fmt.Sprintf(`<%s/orgs/acme/repos?page=2>; rel="next"`, other.URL))
		fmt.Fprint(w, `[]`)
	}))
	c := newTestClient(t, srv, nil)
	_, _, err := collect(t, c, orgCall())
	pe := asProviderError(t, err)
	if !strings.Contains(pe.Message, "refusing to follow") || otherHits.Load() != 0 {
		t.Fatalf("error %v, other hits %d", err, otherHits.Load())
	}
}

func TestRelativeNextLink(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "" {
			w.Header().Set("Link", `</orgs/acme/repos?page=2>; rel="next"`)
		}
		fmt.Fprint(w, `[{"a":1}]`)
	}))
	c := newTestClient(t, srv, nil)
	items, _, err := collect(t, c, orgCall())
	if err != nil || len(items) != 2 {
		t.Fatalf("items %d, err %v", len(items), err)
	}
}

func TestEmitErrorStops(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, pagedHandler(6, 1, false, &hits))
	c := newTestClient(t, srv, func(o *Options) { o.PageConcurrency = 2 })
	stop := errors.New("stop")
	n := 0
	_, err := c.Do(context.Background(), orgCall(), func([]json.RawMessage) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("err %v", err)
	}
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name    string
		m       providers.Method
		status  int
		body    string
		want    []string
		wantErr string
	}{
		{"wrapped", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "workflow_runs"}, 200, `{"total_count":2,"workflow_runs":[{"id":1},{"id":2}]}`, []string{`{"id":1}`, `{"id":2}`}, ""},
		{"wrapped absent key total 0", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "workflow_runs"}, 200, `{"total_count": 0}`, nil, ""},
		{"wrapped absent key", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "workflow_runs"}, 200, `{"total_count":3}`, nil, `no "workflow_runs" array`},
		{"wrapped not array", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "runs"}, 200, `{"runs":{}}`, nil, "JSON array"},
		{"wrapped got array", providers.Method{Shape: providers.ShapeWrapped, ItemKey: "runs"}, 200, `[]`, nil, "expected a JSON object"},
		{"object", providers.Method{Shape: providers.ShapeObject}, 200, ` {"id":7} `, []string{`{"id":7}`}, ""},
		{"object got array", providers.Method{Shape: providers.ShapeObject, Columns: []providers.Column{{Name: "id", Type: providers.TypeInteger}}}, 200, `[{"id":7}]`, nil, "expected a JSON object, got an array"},
		{"value object takes any JSON", providers.Method{Shape: providers.ShapeObject}, 200, `"v1.2.3"`, []string{`"v1.2.3"`}, ""},
		{"text", providers.Method{Shape: providers.ShapeText}, 200, "line 1\nline 2\n", []string{`"line 1\nline 2\n"`}, ""},
		{"string served as text", providers.Method{Shape: providers.ShapeObject, ValueType: providers.TypeText}, 200, "not JSON", []string{`"not JSON"`}, ""},
		{"none 204", providers.Method{Shape: providers.ShapeNone}, 204, ``, []string{`{}`}, ""},
		{"none 200 with body", providers.Method{Shape: providers.ShapeNone}, 200, `whatever`, []string{`{}`}, ""},
		{"array 204", providers.Method{Shape: providers.ShapeArray}, 204, ``, nil, ""},
		{"array", providers.Method{Shape: providers.ShapeArray}, 200, `[1,"x",{"a":[1]}]`, []string{`1`, `"x"`, `{"a":[1]}`}, ""},
		{"array got object", providers.Method{Shape: providers.ShapeArray}, 200, `{"message":"x"}`, nil, "expected response body to be a JSON array, got an object"},
		{"array truncated", providers.Method{Shape: providers.ShapeArray}, 200, `[{"a":1},{"b":`, nil, "response body is not valid JSON: unexpected EOF"},
		{"array malformed", providers.Method{Shape: providers.ShapeArray}, 200, `[{"a":1},}]`, nil, "response body is not valid JSON: invalid character"},
		{"array empty 200", providers.Method{Shape: providers.ShapeArray}, 200, ``, nil, "response body is empty"},
		{"undeclared shape array", providers.Method{}, 200, `[{"a":1}]`, []string{`{"a":1}`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			}))
			c := newTestClient(t, srv, nil)
			m := tt.m
			m.OperationID, m.Path = "repos/list-for-org", "/x"
			items, _, err := collect(t, c, Call{Method: &m})
			if tt.wantErr != "" {
				pe := asProviderError(t, err)
				if pe.Kind != "decode" || pe.Status != tt.status || !strings.Contains(pe.Message, tt.wantErr) || pe.Retryable {
					t.Fatalf("error %+v, want decode error containing %q", pe, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				got = append(got, string(it))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("items %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAbsentStatus(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Query().Get("page") == "2" {
			http.Error(w, `{"message":"Not Found"}`, 404)
			return
		}
		if r.URL.Path == "/repos/acme/x/branches/main/protection" {
			http.Error(w, `{"message":"Branch not protected"}`, 404)
			return
		}
		w.Header().Set("Link", `</p?page=2>; rel="next"`)
		fmt.Fprint(w, `[{"a":1}]`)
	}))
	c := newTestClient(t, srv, nil)
	m := &providers.Method{OperationID: "repos/get-branch-protection", Path: "/repos/acme/x/branches/main/protection", Shape: providers.ShapeObject, Absent: []providers.AbsentRule{{Status: 404, Message: "Branch not protected"}}}
	items, st, err := collect(t, c, Call{Method: m})
	if err != nil || len(items) != 0 || st.Requests != 1 {
		t.Fatalf("absent: items %v stats %+v err %v", items, st, err)
	}
	// Absent statuses only apply to the first page.
	m2 := &providers.Method{OperationID: "x/list", Path: "/p", Shape: providers.ShapeArray, Absent: []providers.AbsentRule{{Status: 404, Message: "Not Found"}}}
	_, _, err = collect(t, c, Call{Method: m2})
	var pe *providers.ProviderError
	if !errors.As(err, &pe) || pe.Status != 404 || pe.Message != "Not Found" {
		t.Fatalf("404 on page 2: %v", err)
	}
}

// TestRequestLimitHoldsAcrossCalls: under WithRequestLimit, concurrent
// calls with concurrent numbered pages send at most the limit in all, and
// the call that meets it fails with a RequestLimitError of kind plan.
func TestRequestLimitHoldsAcrossCalls(t *testing.T) {
	var sent atomic.Int64
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		page := r.URL.Query().Get("page")
		if page == "" {
			page = "1"
		}
		w.Header().Set("Link", fmt.Sprintf(`<%s%s?page=2&per_page=100>; rel="next", <%s%s?page=50&per_page=100>; rel="last"`, "http://"+r.Host, r.URL.Path, "http://"+r.Host, r.URL.Path))
		if page != "1" {
			w.Header().Del("Link")
		}
		w.Write([]byte(`[{"id":1}]`)) //nolint:errcheck
	}))
	c := newTestClient(t, srv, func(o *Options) { o.PageConcurrency = 8 })
	ctx := WithRequestLimit(context.Background(), 20)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = c.Do(ctx, Call{Method: listMethod(), Params: map[string]string{"org": fmt.Sprint("o", i)}}, func([]json.RawMessage) error { return nil })
		})
	}
	wg.Wait()
	if n := sent.Load(); n > 20 {
		t.Fatalf("%d requests sent under a limit of 20", n)
	}
	limited := 0
	for _, err := range errs {
		var le *RequestLimitError
		if errors.As(err, &le) {
			limited++
			if le.ErrorKind() != "plan" || le.ErrorSetting() != "max-requests" || le.Limit != 20 {
				t.Fatalf("%+v", le)
			}
		}
	}
	if limited == 0 {
		t.Fatalf("no call met the limit: %v", errs)
	}
}

// TestUnreachableHost: a host that cannot be reached is kind
// "unreachable": a refused connection (a real one, on a closed loopback
// port) is not retried; a DNS "no such host" is not; a DNS failure the
// resolver calls temporary is.
func TestUnreachableHost(t *testing.T) {
	srv := serve(t, http.NotFoundHandler())
	srv.Close()
	c := newTestClient(t, srv, nil)
	_, err := c.Do(context.Background(), orgCall(), func([]json.RawMessage) error { return nil })
	var pe *providers.ProviderError
	if !errors.As(err, &pe) || pe.Kind != "unreachable" || pe.Retryable || pe.Attempts != 1 {
		t.Fatalf("refused: %#v", err)
	}
	for _, c := range []struct {
		err   error
		retry bool
	}{
		{&net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}, false},
		{&net.DNSError{Err: "server misbehaving", Name: "api.github.com", IsTemporary: true}, true},
	} {
		pe := &providers.ProviderError{}
		classifyTransport(c.err, pe, func(s string) string { return s })
		if pe.Kind != "unreachable" || pe.Retryable != c.retry || transportRetryable(c.err) != c.retry {
			t.Errorf("%v: kind %s retryable %v", c.err, pe.Kind, pe.Retryable)
		}
	}
}
