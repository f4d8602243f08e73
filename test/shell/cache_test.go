package shell

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestFooterCountsRevalidations: the same statement twice in one session
// with the response cache on: the second is revalidated page by page
// (304s, no rate limit) and its footer says so.
func TestFooterCountsRevalidations(t *testing.T) {
	_, env := fake(t, "ENGINE_NO_CACHE=", "ENGINE_CACHE_DIR="+t.TempDir())
	q := "SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme';\n"
	r := testutil.Run(t, env, q+q, "shell")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	// Each footer is followed by the method each table was read with (and
	// the rate-limit budget line, which is test/ratelimit's).
	var footers []string
	for _, l := range strings.Split(strings.TrimSpace(r.Stderr), "\n") {
		if l != "read github.repos.repos: GET /orgs/{org}/repos" && !strings.HasPrefix(l, "rate limit ") {
			footers = append(footers, l)
		}
	}
	if strings.Count(r.Stderr, "read github.repos.repos: GET /orgs/{org}/repos\n") != 2 || len(footers) != 2 || !strings.HasPrefix(footers[0], "1 row (3 HTTP requests, 3 pages, ") || strings.Contains(footers[0], "revalidated") ||
		!strings.HasPrefix(footers[1], "1 row (3 HTTP requests, 3 pages, 3 revalidated, ") {
		t.Fatalf("footers:\n%s", r.Stderr)
	}
}
