package fakegithub

import (
	"net/http"
	"testing"
	"time"
)

// A 304 to a conditional request with credentials costs no rate limit
// (docs.github.com, "Use conditional requests"), with or without the
// limiter, and its headers show the bucket unchanged; an anonymous 304,
// and a conditional request answered 200, count.
func TestNotModifiedIsFreeWithCredentials(t *testing.T) {
	left := 100
	for name, s := range map[string]*Server{
		"default": ForTest(t),
		"limits":  ForTest(t, WithLimits(Limits{Buckets: map[string]BucketLimit{"core": {Limit: 100, Remaining: &left, Window: time.Hour}}})),
	} {
		t.Run(name, func(t *testing.T) {
			do := func(auth, etag string) *http.Response {
				t.Helper()
				req, _ := http.NewRequest(http.MethodGet, s.URL()+"/orgs/acme", nil)
				if auth != "" {
					req.Header.Set("Authorization", auth)
				}
				if etag != "" {
					req.Header.Set("If-None-Match", etag)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp
			}
			first := do("Bearer x", "")
			etag, used := first.Header.Get("ETag"), first.Header.Get("X-RateLimit-Used")
			if first.StatusCode != 200 || etag == "" || used != "1" {
				t.Fatalf("first: %d etag %q used %q", first.StatusCode, etag, used)
			}
			for i := 0; i < 3; i++ {
				r := do("Bearer x", etag)
				if r.StatusCode != http.StatusNotModified || r.Header.Get("X-RateLimit-Used") != "1" || r.Header.Get("X-RateLimit-Remaining") != first.Header.Get("X-RateLimit-Remaining") {
					t.Fatalf("304 %d: %d used %q remaining %q", i, r.StatusCode, r.Header.Get("X-RateLimit-Used"), r.Header.Get("X-RateLimit-Remaining"))
				}
			}
			if r := do("", etag); r.StatusCode != http.StatusNotModified || r.Header.Get("X-RateLimit-Used") != "2" {
				t.Fatalf("anonymous 304: %d used %q", r.StatusCode, r.Header.Get("X-RateLimit-Used"))
			}
			if r := do("Bearer x", `W/"other"`); r.StatusCode != 200 || r.Header.Get("X-RateLimit-Used") != "3" {
				t.Fatalf("conditional 200: %d used %q", r.StatusCode, r.Header.Get("X-RateLimit-Used"))
			}
		})
	}
}
