package exec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestMaxRequestsBoundsRequestsSent: --max-requests bounds the requests a
// statement actually sends, pages and retries included, not only its
// estimate. A server that keeps sending rel="next" gets 5 requests under
// --max-requests 5 (before the fix: 1,000, the max-pages of the call),
// and a page that keeps failing with 502 is retried only within the
// limit. The error is the estimate's refusal's kind (plan, exit 1) and
// names the setting.
func TestMaxRequestsBoundsRequestsSent(t *testing.T) {
	s := fakegithub.ForTest(t)
	s.Inject(fakegithub.Fault{Path: "^/orgs/tiny/repos$", Kind: fakegithub.KindLinkEndless})
	s.Inject(fakegithub.Fault{Path: "^/orgs/scale-10/repos$", Kind: fakegithub.KindStatus, Status: 502})
	cases := []struct {
		name, sql string
		limit     string
		want      int
	}{
		{"endless next links", "SELECT name FROM github.repos.repos WHERE org = 'tiny'", "5", 5},
		{"retries of a failing page", "SELECT name FROM github.repos.repos WHERE org = 'scale-10'", "3", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.ResetRequests()
			env := execEnvOn(t, s, "ENGINE_RETRY_MAX=5")
			r := testutil.Run(t, env, "", "exec", "-o", "json", "--max-requests", c.limit, c.sql)
			var body struct{ Error engine.ErrorBody }
			if r.Code != 1 || json.Unmarshal([]byte(r.Stderr), &body) != nil {
				t.Fatalf("exit %d, want 1: %.500s", r.Code, r.Stderr)
			}
			if body.Error.Kind != engine.KindPlan || !strings.Contains(body.Error.Message, "max-requests") ||
				!strings.Contains(body.Error.Message, "sent "+c.limit+" requests") {
				t.Fatalf("%+v", body.Error)
			}
			if n := len(s.Requests()); n != c.want {
				t.Fatalf("%d requests sent under --max-requests %s, want %d", n, c.limit, c.want)
			}
			if r.Stdout != "" {
				t.Fatalf("stdout: %.200s", r.Stdout)
			}
		})
	}
	// Within the limit the statement answers (the estimate is 1 request;
	// tiny's one page, then nothing more).
	s.ClearFaults()
	s.ResetRequests()
	r := testutil.Run(t, execEnvOn(t, s), "", "exec", "-o", "json", "--max-requests", "1", "SELECT name FROM github.repos.repos WHERE org = 'tiny'")
	if r.Code != 0 || len(s.Requests()) != 1 {
		t.Fatalf("exit %d, %d requests: %.300s", r.Code, len(s.Requests()), r.Stderr)
	}
}

// TestValueLimitWhileLoading: an API value longer than --max-value-bytes
// is an error of kind sql that names the table and the setting (SQLite's
// length limit applies while the answer is loaded, not only to what the
// query computes); the same statement without the long column, or with
// the limit raised, answers. Before the fix the limit was SQLite's 1e9.
func TestValueLimitWhileLoading(t *testing.T) {
	s := fakegithub.ForTest(t)
	body, _ := json.Marshal([]map[string]any{{"id": 1, "name": "big", "full_name": "b/big", "description": strings.Repeat("x", 3000)}})
	s.Inject(fakegithub.Fault{Path: "^/orgs/big/repos$", Kind: fakegithub.KindBody, Body: string(body)})
	const sql = "SELECT name, length(description) AS n FROM github.repos.repos WHERE org = 'big'"
	r := testutil.Run(t, execEnvOn(t, s, "ENGINE_MAX_VALUE_BYTES=1000"), "", "exec", "-o", "json", sql)
	var out struct{ Error engine.ErrorBody }
	if r.Code != 1 || json.Unmarshal([]byte(r.Stderr), &out) != nil || out.Error.Kind != engine.KindSQL ||
		!strings.Contains(out.Error.Message, "github.repos.repos") || !strings.Contains(out.Error.Message, "max-value-bytes") {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	r = testutil.Run(t, execEnvOn(t, s, "ENGINE_MAX_VALUE_BYTES=1000"), "", "exec", sql)
	testutil.WantRun(t, "text error does not name the flag", r, 1, "", "--max-value-bytes")
	r = testutil.Run(t, execEnvOn(t, s), "", "exec", "-o", "json", "--max-value-bytes", "4000", sql)
	testutil.WantRun(t, "exec", r, 0, `"n": 3000`, "")
}

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
			for _, want := range []string{"max-pages", c.figure, "no rows are returned", "Narrow the query"} {
				if !strings.Contains(e.Message, want) {
					t.Errorf("message lacks %q: %s", want, e.Message)
				}
			}
			// The leaf says what happened and how to narrow; raising the
			// limit is the way out of the command line, which adds it
			// with its flag (an MCP agent cannot take it).
			if strings.Contains(e.Message, "raise") {
				t.Errorf("the error object says to raise a limit: %s", e.Message)
			}
			if strings.Contains(e.Message, "--") || strings.Contains(e.Message, "network") {
				t.Errorf("the error object names a flag or blames the network: %s", e.Message)
			}
			if n := len(s.Requests()); n != c.requests {
				t.Errorf("%d requests, want %d", n, c.requests)
			}
			if text := testutil.Run(t, execEnvOn(t, s), "", "exec", "--max-pages", "2", c.sql); !strings.Contains(text.Stderr, "the limit is --max-pages; raise it") {
				t.Errorf("exec's text error does not name the flag: %s", text.Stderr)
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
