package exec_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/enginehq/engine/test/testutil"
)

// TestResponseCache: a repeated query within the TTL makes no request;
// after the TTL it revalidates every page with If-None-Match and the
// unchanged pages come back 304 with the same rows.
func TestResponseCache(t *testing.T) {
	dir := t.TempDir()
	q := `SELECT count(*) AS c, sum(private) AS p FROM github.repos.repos WHERE org = 'acme'`
	runCached := func(ttl string) testutil.Result {
		r := testutil.Run(t, execEnv(t, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+dir, "ENGINE_CACHE_TTL="+ttl), "", "exec", "-o", "csv", q)
		if r.Code != 0 || r.Stdout != "c,p\n250,166\n" {
			t.Fatalf("exit %d: %s %s", r.Code, r.Stdout, r.Stderr)
		}
		return r
	}
	fake.ResetRequests()
	runCached("1h")
	if n := requestsTo("/orgs/acme/repos"); n != 3 {
		t.Fatalf("first run made %d requests, want 3", n)
	}
	fake.ResetRequests()
	runCached("1h")
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("a repeated query within the TTL made %d requests, want 0", n)
	}
	time.Sleep(20 * time.Millisecond)
	fake.ResetRequests()
	runCached("10ms")
	reqs := fake.Requests()
	if len(reqs) != 3 {
		t.Fatalf("after the TTL: %d requests, want 3 revalidations", len(reqs))
	}
	for _, r := range reqs {
		if r.Status != http.StatusNotModified {
			t.Fatalf("revalidation of page %d answered %d, want 304", r.Page, r.Status)
		}
	}
	// --no-cache asks the server whatever the cache holds.
	fake.ResetRequests()
	r := testutil.Run(t, execEnv(t, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+dir), "", "exec", "--no-cache", "-o", "csv", q)
	if r.Code != 0 || requestsTo("/orgs/acme/repos") != 3 {
		t.Fatalf("--no-cache: exit %d, %d requests", r.Code, requestsTo("/orgs/acme/repos"))
	}
	// Another token never sees this token's entries.
	fake.ResetRequests()
	r = testutil.Run(t, execEnv(t, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+dir, "ENGINE_CACHE_TTL=1h", "GITHUB_TOKEN=another-token-value"), "", "exec", "-o", "csv", q)
	if r.Code != 0 || requestsTo("/orgs/acme/repos") != 3 {
		t.Fatalf("other credentials were served from this token's cache (exit %d, %d requests)", r.Code, requestsTo("/orgs/acme/repos"))
	}
}
