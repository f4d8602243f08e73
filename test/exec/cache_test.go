package exec_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
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

// cacheEnv points the engine at gh with the response cache on, in dir.
func cacheEnv(t *testing.T, gh *fakegithub.Server, dir string, extra ...string) []string {
	return execEnvOn(t, gh, append([]string{"ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR=" + dir}, extra...)...)
}

// protectionQuery lists alpha's default-branch protection: one row while
// it is protected, none once it is not (GitHub's 404 "Branch not
// protected" is "no rows").
const protectionQuery = `SELECT json_extract(enforce_admins, '$.enabled') AS admins FROM github.branches.branch_protection WHERE owner = 'tiny' AND repo = 'alpha' AND branch = 'master'`

// execStats runs exec --stats -o json and returns the rows and the stats
// object it printed on stderr.
func execStats(t *testing.T, env []string, q string, args ...string) ([]map[string]any, map[string]int) {
	t.Helper()
	r := testutil.Run(t, env, "", append(append([]string{"exec", "--stats", "-o", "json"}, args...), q)...)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	var st struct {
		Stats map[string]json.RawMessage `json:"stats"`
	}
	line := r.Stderr[strings.LastIndex(strings.TrimSpace(r.Stderr), "\n")+1:]
	if err := json.Unmarshal([]byte(line), &st); err != nil || st.Stats == nil {
		t.Fatalf("no stats object on stderr (%v):\n%s", err, r.Stderr)
	}
	counts := map[string]int{} // the counters; "rate_limit" and "methods" are lists
	for k, v := range st.Stats {
		var n int
		if json.Unmarshal(v, &n) == nil {
			counts[k] = n
		}
	}
	return testutil.JSONRows(t, r), counts
}

// TestCacheCurrentByDefault: with default flags a repeated query is
// revalidated, so data changed on the server within a minute is seen at
// once; unchanged pages come back 304 and the stats say so.
func TestCacheCurrentByDefault(t *testing.T) {
	gh := fakegithub.ForTest(t)
	env := cacheEnv(t, gh, t.TempDir())
	rows, _ := execStats(t, env, protectionQuery)
	if len(rows) != 1 {
		t.Fatalf("alpha is protected: want 1 row, got %v", rows)
	}
	// Unchanged: revalidated (If-None-Match), answered 304, same rows.
	gh.ResetRequests()
	rows, st := execStats(t, env, protectionQuery)
	reqs := gh.Requests()
	if len(rows) != 1 || len(reqs) != 1 || reqs[0].IfNoneMatch == "" || reqs[0].Status != http.StatusNotModified {
		t.Fatalf("repeat: rows %v, requests %+v; want 1 conditional request answered 304", rows, reqs)
	}
	if st["revalidated"] != 1 || st["fetched"] != 0 || st["cache_hits"] != 0 || st["http_requests"] != 1 {
		t.Fatalf("stats of a revalidated run: %v", st)
	}
	// Changed within the minute: the conditional request gets the new answer.
	gh.SetBranchProtection("tiny", "alpha", false)
	gh.ResetRequests()
	rows, st = execStats(t, env, protectionQuery)
	reqs = gh.Requests()
	if len(rows) != 0 {
		t.Fatalf("branch protection was removed, yet the engine answered %v (stale cache)", rows)
	}
	if len(reqs) != 1 || reqs[0].IfNoneMatch == "" {
		t.Fatalf("want one conditional request, got %+v", reqs)
	}
	if st["revalidated"] != 0 {
		t.Fatalf("a changed answer counted as revalidated: %v", st)
	}
}

// TestCacheTTLIsOptIn: --cache-ttl serves repeats without asking (and so
// may be stale: the documented trade-off).
func TestCacheTTLIsOptIn(t *testing.T) {
	gh := fakegithub.ForTest(t)
	env := cacheEnv(t, gh, t.TempDir())
	execStats(t, env, protectionQuery, "--cache-ttl", "5m")
	gh.SetBranchProtection("tiny", "alpha", false)
	gh.ResetRequests()
	rows, st := execStats(t, env, protectionQuery, "--cache-ttl", "5m")
	if n := len(gh.Requests()); n != 0 || len(rows) != 1 {
		t.Fatalf("--cache-ttl 5m: %d requests, rows %v; want 0 requests and the cached row", n, rows)
	}
	if st["cache_hits"] != 1 || st["http_requests"] != 0 {
		t.Fatalf("stats of a cached run: %v", st)
	}
}

// TestCacheNoCacheResponses: GitHub's search answers are
// "Cache-Control: no-cache" without a validator, so they are never served
// from the cache, whatever --cache-ttl says.
func TestCacheNoCacheResponses(t *testing.T) {
	gh := fakegithub.ForTest(t)
	env := cacheEnv(t, gh, t.TempDir())
	q := `SELECT count(*) AS n FROM github.search.repos WHERE q = 'org:acme topic:infra'`
	for i := 0; i < 2; i++ {
		gh.ResetRequests()
		rows, st := execStats(t, env, q, "--cache-ttl", "5m")
		if len(rows) != 1 || rows[0]["n"] != float64(36) {
			t.Fatalf("run %d: rows %v, want n=36", i, rows)
		}
		reqs := gh.Requests()
		if len(reqs) != 1 || reqs[0].Path != "/search/repositories" || reqs[0].IfNoneMatch != "" {
			t.Fatalf("run %d: requests %+v; a no-cache answer must be fetched again, unconditionally", i, reqs)
		}
		if st["fetched"] != 1 || st["cache_hits"] != 0 {
			t.Fatalf("run %d: stats %v", i, st)
		}
	}
}

// TestCacheDirUnusable: a cache directory that cannot be used (a file, a
// group-writable directory, a directory of someone else's files) disables
// the cache with one warning; every command still works.
func TestCacheDirUnusable(t *testing.T) {
	gh := fakegithub.ForTest(t)
	file := testutil.TempFile(t, "not-a-dir", "user data\n")
	shared := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o777)
	foreign := t.TempDir()
	os.Mkdir(filepath.Join(foreign, "engine-http-v1"), 0o700)
	os.WriteFile(filepath.Join(foreign, "engine-http-v1", "notes.txt"), []byte("mine"), 0o600)
	for _, dir := range []string{file, shared, foreign} {
		env := cacheEnv(t, gh, dir)
		r := testutil.Run(t, env, "", "exec", "-o", "csv", "SHOW PROVIDERS")
		testutil.WantRun(t, dir+": SHOW PROVIDERS", r, 0, "github", "")
		r = testutil.Run(t, env, "", "exec", "-o", "csv", `SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme'`)
		if r.Code != 0 || r.Stdout != "n\n250\n" {
			t.Fatalf("%s: query failed: exit %d %s %s", dir, r.Code, r.Stdout, r.Stderr)
		}
		if n := strings.Count(r.Stderr, "warning: response cache disabled"); n != 1 {
			t.Fatalf("%s: want exactly one warning, got %d:\n%s", dir, n, r.Stderr)
		}
		// The library's message names no flag; the CLI says which flags
		// choose the directory or turn the cache off.
		if !strings.Contains(r.Stderr, "--cache-dir") || !strings.Contains(r.Stderr, "--no-cache") {
			t.Fatalf("%s: the warning does not name --cache-dir and --no-cache:\n%s", dir, r.Stderr)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "user data\n" {
		t.Fatalf("the file given as cache dir was changed: %q", b)
	}
	if entries, _ := os.ReadDir(shared); len(entries) != 0 {
		t.Fatalf("the cache wrote into a group/world-writable directory: %v", entries)
	}
	if entries, _ := os.ReadDir(filepath.Join(foreign, "engine-http-v1")); len(entries) != 1 {
		t.Fatalf("the cache wrote into a directory it does not own: %v", entries)
	}
}
