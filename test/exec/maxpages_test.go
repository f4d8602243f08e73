package exec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestMaxPagesIsAPlanError: a call that needs more pages than --max-pages
// is stopped like one over --max-requests (docs/architecture.md,
// "Errors"): kind plan, exit 1, not retryable, no HTTP status or provider
// in the error object (the provider did not fail), a message that names
// the setting and the way out, and the CLI's advice naming the flag. Both
// when the page count is known from rel="last" (refused after the first
// page) and when the server keeps sending rel="next" (stopped at the
// limit).
func TestMaxPagesIsAPlanError(t *testing.T) {
	s := fakegithub.ForTest(t)
	s.Inject(fakegithub.Fault{Path: "^/orgs/tiny/repos$", Kind: fakegithub.KindLinkEndless})
	for _, c := range []struct {
		name, sql string
		requests  int
		figure    string
	}{
		{"rel=last known", "SELECT count(*) FROM github.repos.repos WHERE org = 'acme'", 1, "3 pages, more than 2"},
		{"endless rel=next", "SELECT name FROM github.repos.repos WHERE org = 'tiny'", 2, "more than 2 pages"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s.ResetRequests()
			r := testutil.Run(t, execEnvOn(t, s), "", "exec", "-o", "json", "--max-pages", "2", c.sql)
			var body struct{ Error engine.ErrorBody }
			if r.Code != 1 || json.Unmarshal([]byte(r.Stderr), &body) != nil {
				t.Fatalf("exit %d, want 1 (as for --max-requests): %.500s", r.Code, r.Stderr)
			}
			e := body.Error
			if e.Kind != engine.KindPlan || e.Retryable || e.HTTPStatus != 0 || e.Provider != "" {
				t.Fatalf("want kind plan, not retryable, no HTTP status or provider: %+v", e)
			}
			for _, want := range []string{"max-pages", c.figure, "no rows are returned", "Narrow the query", "raise the page limit"} {
				if !strings.Contains(e.Message, want) {
					t.Errorf("message lacks %q: %s", want, e.Message)
				}
			}
			if strings.Contains(e.Message, "--") || strings.Contains(e.Message, "network") {
				t.Errorf("the error object names a flag or blames the network: %s", e.Message)
			}
			if n := len(s.Requests()); n != c.requests {
				t.Errorf("%d requests, want %d", n, c.requests)
			}
			if r.Stdout != "" {
				t.Errorf("stdout: %.200s", r.Stdout)
			}

			r = testutil.Run(t, execEnvOn(t, s), "", "exec", "--max-pages", "2", c.sql)
			if r.Code != 1 || !strings.HasPrefix(r.Stderr, "error (plan): ") || !strings.Contains(r.Stderr, "the limit is --max-pages") ||
				strings.Contains(r.Stderr, "network error") || strings.Contains(r.Stderr, "answered") {
				t.Fatalf("exit %d, want a plan error with the flag's advice:\n%s", r.Code, r.Stderr)
			}
		})
	}
}
