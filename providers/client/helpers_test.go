package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/enginehq/engine/providers"
)

const testToken = "ghp_testSECRETtoken1234567890"

func testProvider(t *testing.T) *providers.Provider {
	t.Helper()
	p, err := newProvider(providers.Header{
		Provider: "github",
		BaseURL:  "https://api.github.invalid",
		Headers:  map[string]string{"X-GitHub-Api-Version": "2022-11-28"},
		Profile:  githubProfile(),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func listMethod() *providers.Method {
	return &providers.Method{
		Name: "list_for_org", OperationID: "repos/list-for-org", Path: "/orgs/{org}/repos",
		Params: []providers.Param{
			{Name: "org", In: providers.InPath, Required: true},
			{Name: "type", In: providers.InQuery},
		},
		Shape: providers.ShapeArray, Paginated: true,
	}
}

// serve serves h on loopback until the test ends.
func serve(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// newTestClient builds a client against srv with fast retries.
func newTestClient(t *testing.T, srv *httptest.Server, mod func(*Options)) *Client {
	t.Helper()
	opts := Options{
		BaseURL:      srv.URL,
		Credentials:  bearer(t, testToken),
		RetryWaitMin: 5 * time.Millisecond,
		RetryWaitMax: 20 * time.Millisecond,
		MaxRetryWait: 5 * time.Second,
		Logf:         t.Logf,
	}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(testProvider(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// collect runs a call and gathers the emitted items.
func collect(t *testing.T, c *Client, call Call) ([]json.RawMessage, Stats, error) {
	t.Helper()
	var (
		mu  sync.Mutex
		all []json.RawMessage
		in  atomic.Int32
	)
	st, err := c.Do(context.Background(), call, func(items []json.RawMessage) error {
		if in.Add(1) != 1 {
			t.Error("emit called concurrently")
		}
		defer in.Add(-1)
		mu.Lock()
		all = append(all, items...)
		mu.Unlock()
		return nil
	})
	return all, st, err
}

func orgCall() Call {
	return Call{Method: listMethod(), Params: map[string]string{"org": "acme"}}
}

func asProviderError(t *testing.T, err error) *providers.ProviderError {
	t.Helper()
	var pe *providers.ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *providers.ProviderError", err, err)
	}
	if pe.Provider != "github" || pe.Method != "GET" || pe.Operation != "repos/list-for-org" && pe.Operation != "" {
		t.Errorf("error identity: %+v", pe)
	}
	if strings.Contains(err.Error(), testToken) || strings.Contains(pe.Body, testToken) || strings.Contains(fmt.Sprintf("%+v", pe), testToken) {
		t.Errorf("token leaked in error: %+v", pe)
	}
	return pe
}

// pagedHandler serves pages 1..n of items at /orgs/acme/repos with Link
// headers (next and last unless noLast).
func pagedHandler(n, perPage int, noLast bool, hits *atomic.Int32) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		page := 1
		fmt.Sscan(r.URL.Query().Get("page"), &page)
		if page < 1 || page > n {
			http.Error(w, `{"message":"bad page"}`, 400)
			return
		}
		link := func(p int) string {
			q := r.URL.Query()
			q.Set("page", fmt.Sprint(p))
			return "http://" + r.Host + r.URL.Path + "?" + q.Encode()
		}
		var links []string
		if page < n {
			links = append(links, fmt.Sprintf(`<%s>; rel="next"`, link(page+1)))
			if !noLast {
				links = append(links, fmt.Sprintf(`<%s>; rel="last"`, link(n)))
			}
		}
		if len(links) > 0 {
			w.Header().Set("Link", strings.Join(links, ", "))
		}
		if page == 2 {
			time.Sleep(30 * time.Millisecond) // finish out of order
		}
		items := make([]string, perPage)
		for i := range items {
			items[i] = fmt.Sprintf(`{"page":%d,"i":%d}`, page, i)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "["+strings.Join(items, ",")+"]")
	}
}

func pageOf(t *testing.T, item json.RawMessage) (int, int) {
	t.Helper()
	var v struct{ Page, I int }
	if err := json.Unmarshal(item, &v); err != nil {
		t.Fatal(err)
	}
	return v.Page, v.I
}

// header is a header of the names and values in kv (name, value, ...).
func header(kv ...string) http.Header {
	out := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		out.Set(kv[i], kv[i+1])
	}
	return out
}

// unixSeconds is t as a rate-limit reset header carries it.
func unixSeconds(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

// acquire admits one request of bucket; an error fails the test.
func acquire(t testing.TB, g *Governor, bucket string) time.Time {
	t.Helper()
	at, err := g.Acquire(context.Background(), bucket)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// acquireN admits n requests of bucket, none answered, and returns when
// each was sent.
func acquireN(t testing.TB, g *Governor, bucket string, n int) []time.Time {
	t.Helper()
	sent := make([]time.Time, n)
	for i := range sent {
		sent[i] = acquire(t, g, bucket)
	}
	return sent
}

// settleGoroutines waits until the goroutine count drops to at most want.
func settleGoroutines(want int) int {
	var n int
	for range 100 {
		n = runtime.NumGoroutine()
		if n <= want {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
	return n
}

// githubProfile is the run-time part of registry/profiles/github.json
// (the client's GitHub behaviour is data; these tests pin it).
func githubProfile() *providers.Profile {
	return &providers.Profile{
		ErrorMessage: []string{"message"},
		RateLimit: &providers.RateLimit{
			Remaining: "X-RateLimit-Remaining", Reset: "X-RateLimit-Reset", Limit: "X-RateLimit-Limit", Used: "X-RateLimit-Used", Resource: "X-RateLimit-Resource",
			Phrases:              []string{"rate limit", "abuse detection"},
			SecondaryPhrases:     []string{"secondary rate limit", "abuse detection"},
			SecondaryWaitSeconds: 60,
		},
		Credentials:    "set GITHUB_TOKEN (or GH_TOKEN) to a token with access, or pass --auth",
		RateLimitProbe: "/rate_limit",
		Buckets:        []providers.PathBucket{{Contains: "/search/code", Bucket: "code_search"}, {Contains: "/search/", Bucket: "search"}},
	}
}

// classifyHTTP classifies with GitHub's profile.
func classifyHTTP(status int, h http.Header, body []byte, now time.Time) decision {
	return classifyWith(githubProfile(), status, h, body, now)
}

// bearer is credentials sending token as a bearer token, resolved as the
// engine resolves an auth entry.
func bearer(t testing.TB, token string) providers.Credentials {
	t.Helper()
	var none *providers.Header
	c, err := none.Credentials(&providers.AuthConfig{Type: providers.AuthBearer, CredentialsEnvVar: "TOKEN"}, func(string) string { return token })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newProvider is the provider of an index encoded from h and resources,
// as the engine decodes a compiled index.
func newProvider(h providers.Header, resources []*providers.Resource) (*providers.Provider, error) {
	data, err := providers.Encode(h, resources)
	if err != nil {
		return nil, err
	}
	return providers.Decode(data)
}
