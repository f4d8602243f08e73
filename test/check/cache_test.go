package check

import (
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestCheckAlwaysRevalidates: a compliance job that fixes a finding and
// re-checks within the cache TTL gets the current answer. check never
// serves a cached response without asking, whatever --cache-ttl,
// ENGINE_CACHE_TTL or the config file say; unchanged answers come back
// 304 and the JSON and JUnit reports count them.
func TestCheckAlwaysRevalidates(t *testing.T) {
	gh := fakegithub.ForTest(t)
	cfg := testutil.TempFile(t, "config.yaml", "cache-ttl: 10m\n")
	controls := testutil.TempFile(t, "controls.yaml", `controls:
  - id: alpha-protected
    title: alpha's default branch is protected
    sql: |
      SELECT r.name FROM github.repos.repos r
      LEFT JOIN github.branches.branch_protection bp
        ON bp.owner = 'tiny' AND bp.repo = r.name AND bp.branch = r.default_branch
      WHERE r.org = 'tiny' AND r.name = 'alpha' AND bp.url IS NULL
`)
	env := testutil.FakeEnv(t, gh.URL(), "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+t.TempDir(),
		"ENGINE_CACHE_TTL=5m", "ENGINE_CONFIG="+cfg)
	type stats struct {
		HTTPRequests int `json:"http_requests"`
		Fetched      int `json:"fetched"`
		Revalidated  int `json:"revalidated"`
		CacheHits    int `json:"cache_hits"`
	}
	runJSON := func(wantCode int, args ...string) stats {
		t.Helper()
		r := runCheck(t, env, append([]string{"-o", "json", controls}, args...)...)
		if r.Code != wantCode {
			t.Fatalf("exit %d, want %d\n%s\n%s", r.Code, wantCode, r.Stdout, r.Stderr)
		}
		var rep struct {
			Stats stats `json:"stats"`
		}
		testutil.StdoutJSON(t, r, &rep)
		return rep.Stats
	}
	// 2 requests: the repos, and the protection of alpha (200); r.name =
	// 'alpha' narrows the source rows of the fan-out, so beta and gamma are
	// not asked about (docs/reliability.md, "Tables that mean one thing").
	if st := runJSON(0); st.Fetched != 2 || st.Revalidated != 0 || st.HTTPRequests != 2 {
		t.Fatalf("first run stats %+v; want 2 requests, 2 pages fetched", st)
	}
	// Unchanged: both cached responses revalidated, none served unasked.
	gh.ResetRequests()
	st := runJSON(0, "--cache-ttl", "1h")
	if st.Revalidated != 2 || st.CacheHits != 0 || st.HTTPRequests != 2 {
		t.Fatalf("repeat stats %+v; want 2 revalidated, 0 from cache; requests %+v", st, gh.Requests())
	}
	for _, r := range gh.Requests() {
		if r.Status != 404 && (r.IfNoneMatch == "" || r.Status != 304) {
			t.Fatalf("request %s: If-None-Match %q, status %d; want a conditional request answered 304", r.Path, r.IfNoneMatch, r.Status)
		}
	}
	// Protection removed: the next run (well within every TTL) fails.
	gh.SetBranchProtection("tiny", "alpha", false)
	runJSON(1)
	// JUnit carries the same counts as suite properties.
	gh.SetBranchProtection("tiny", "alpha", true)
	r := runCheck(t, env, "-o", "junit", controls)
	props := testutil.JUnitProperties(t, r.Stdout)
	// Protection restored as it was: the stored answer is current again (304).
	if r.Code != 0 || props["revalidated"] != "2" || props["fetched"] != "0" || props["cache_hits"] != "0" || props["http_requests"] != "2" {
		t.Fatalf("junit exit %d, properties %v", r.Code, props)
	}
}
