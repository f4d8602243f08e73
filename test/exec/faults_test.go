package exec_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestFaultMatrix injects every fault of the fake server on page 1 and on
// page 3 of a 3-page table and checks that exec never succeeds with fewer
// rows: exit 2, the right status and retryability.
func TestFaultMatrix(t *testing.T) {
	const q = `SELECT count(*) AS c FROM github.repos.repos WHERE org = 'acme'`
	faults := []struct {
		name      string
		fault     fakegithub.Fault
		status    int
		retryable bool
		retryWait bool // retry_after_seconds must be set
	}{
		{"400", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 400}, 400, false, false},
		{"401", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 401}, 401, false, false},
		{"403 plain", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 403}, 403, false, false},
		{"403 rate limit", fakegithub.Fault{Kind: fakegithub.KindRateLimit}, 403, true, true},
		{"403 secondary rate limit", fakegithub.Fault{Kind: fakegithub.KindSecondaryRateLimit}, 403, true, true},
		{"404", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 404}, 404, false, false},
		{"422", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 422}, 422, false, false},
		{"429", fakegithub.Fault{Kind: fakegithub.KindTooManyRequests}, 429, true, true},
		{"500", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 500}, 500, true, false},
		{"502", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 502}, 502, true, false},
		{"503", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 503}, 503, true, false},
		{"connection reset", fakegithub.Fault{Kind: fakegithub.KindReset}, 0, true, false},
		{"slow response", fakegithub.Fault{Kind: fakegithub.KindSlow, Delay: 5 * time.Second}, 0, true, false},
		{"malformed json", fakegithub.Fault{Kind: fakegithub.KindMalformed}, 200, false, false},
		{"truncated json", fakegithub.Fault{Kind: fakegithub.KindTruncated}, 0, true, false},
		{"link loop", fakegithub.Fault{Kind: fakegithub.KindLinkLoop}, 0, false, false},
	}
	for _, page := range []int{1, 3} {
		for _, f := range faults {
			if f.name == "link loop" && page == 3 {
				continue // page 3 is the last: it has no next link to loop
			}
			t.Run(fmt.Sprintf("%s/page%d", f.name, page), func(t *testing.T) {
				fake.ClearFaults()
				defer fake.ClearFaults()
				fault := f.fault
				fault.Path = "^/orgs/acme/repos$"
				fault.Page = page
				fake.Inject(fault)
				env := execEnv(t, "ENGINE_REQUEST_TIMEOUT=700ms")
				r := testutil.Run(t, env, "", "exec", "-o", "json", q)
				if r.Code != 2 {
					t.Fatalf("exit %d, want 2\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
				}
				if strings.TrimSpace(r.Stdout) != "" {
					t.Fatalf("a failed query printed rows: %s", r.Stdout)
				}
				var body errorBody
				if err := json.Unmarshal([]byte(strings.TrimSpace(r.Stderr)), &body); err != nil {
					t.Fatalf("stderr is not the JSON error object: %v\n%s", err, r.Stderr)
				}
				e := body.Error
				if e.Kind != "provider" || e.Provider != "github" || e.HTTPStatus != f.status || e.Retryable != f.retryable {
					t.Fatalf("error %+v, want status %d retryable %v", e, f.status, f.retryable)
				}
				if f.retryWait && e.RetryAfterSeconds <= 0 {
					t.Fatalf("no retry_after_seconds: %+v", e)
				}
				if strings.Contains(r.Stderr, token) {
					t.Fatal("token leaked")
				}
			})
		}
	}
	// The advice names the cause and its setting: the provider's Link
	// header (before: "network error", "fix the query's WHERE values"),
	// the request timeout (before: unnamed).
	for _, c := range []struct {
		fault fakegithub.Fault
		want  string
	}{
		{fakegithub.Fault{Kind: fakegithub.KindLinkLoop}, "the provider's Link header points where its next page cannot be"},
		{fakegithub.Fault{Kind: fakegithub.KindSlow, Delay: 5 * time.Second}, "--request-timeout (30 s by default) gives each attempt longer"},
	} {
		fake.ClearFaults()
		c.fault.Path, c.fault.Page = "^/orgs/acme/repos$", 1
		fake.Inject(c.fault)
		r := testutil.Run(t, execEnv(t, "ENGINE_REQUEST_TIMEOUT=700ms"), "", "exec", q)
		if r.Code != 2 || !strings.Contains(r.Stderr, c.want) || strings.Contains(r.Stderr, "WHERE values") {
			t.Errorf("%s: exit %d, want advice %q\n%s", c.fault.Kind, r.Code, c.want, r.Stderr)
		}
	}
	// The process is healthy for the next query once faults are gone.
	fake.ClearFaults()
	r := run(t, "-o", "csv", q)
	if r.Code != 0 || r.Stdout != "c\n250\n" {
		t.Fatalf("after faults: %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
}

func TestRetryableFaultRecovers(t *testing.T) {
	fake.ClearFaults()
	defer fake.ClearFaults()
	fake.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Page: 2, Times: 1, Kind: fakegithub.KindTooManyRequests, RetryAfter: 1})
	r := run(t, "-o", "csv", `SELECT count(*) AS c FROM github.repos.repos WHERE org = 'acme'`)
	if r.Code != 0 || r.Stdout != "c\n250\n" {
		t.Fatalf("a 429 with Retry-After 1 within the budget should be retried: %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
}

func TestHumanErrorAdvice(t *testing.T) {
	fake.ClearFaults()
	defer fake.ClearFaults()
	fake.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindRateLimit})
	r := run(t, `SELECT name FROM github.repos.repos WHERE org = 'acme'`)
	if r.Code != 2 || !strings.Contains(r.Stderr, "403") || !strings.Contains(r.Stderr, "retryable: rate limit: retry after") || !strings.Contains(r.Stderr, "rate limit") {
		t.Fatalf("exit %d stderr %s", r.Code, r.Stderr)
	}
}

func requestsTo(path string) int {
	n := 0
	for _, r := range fake.Requests() {
		if r.Path == path {
			n++
		}
	}
	return n
}

func TestBareLimitStopsPaginating(t *testing.T) {
	fake.ResetRequests()
	r := run(t, "-o", "csv", `SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 5`)
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if r.Code != 0 || len(lines) != 6 {
		t.Fatalf("exit %d rows %d: %s", r.Code, len(lines)-1, r.Stderr)
	}
	if n := requestsTo("/orgs/acme/repos"); n != 1 {
		t.Fatalf("LIMIT 5 made %d requests, want 1", n)
	}
	// ORDER BY needs every row: all 3 pages.
	fake.ResetRequests()
	run(t, `SELECT name FROM github.repos.repos WHERE org = 'acme' ORDER BY name LIMIT 5`)
	if n := requestsTo("/orgs/acme/repos"); n != 3 {
		t.Fatalf("ORDER BY ... LIMIT made %d requests, want 3", n)
	}
}

func TestTokenIsSentAndPerPageIs100(t *testing.T) {
	fake.ResetRequests()
	run(t, `SELECT count(*) FROM github.repos.repos WHERE org = 'tiny'`)
	reqs := fake.Requests()
	if len(reqs) != 1 || !reqs[0].HasAuth || reqs[0].PerPage != 100 {
		t.Fatalf("requests: %+v", reqs)
	}
	if reqs[0].AuthHeader != "Bearer "+token {
		t.Fatal("the bearer token from GITHUB_TOKEN was not sent")
	}
	fake.ResetRequests()
	r := testutil.Run(t, execEnv(t), "", "exec", "--auth", `{"github":{"type":"null_auth"}}`, `SELECT count(*) FROM github.repos.repos WHERE org = 'tiny'`)
	if r.Code != 0 || fake.Requests()[0].HasAuth {
		t.Fatalf("null_auth still sent a token (exit %d)", r.Code)
	}
	r = testutil.Run(t, execEnv(t, "MYTOK=abc123secretvalue"), "", "exec", "--auth", `{"github":{"type":"bearer","credentialsenvvar":"MYTOK"}}`, `SELECT count(*) FROM github.repos.repos WHERE org = 'tiny'`)
	if r.Code != 0 || fake.Requests()[1].AuthHeader != "Bearer abc123secretvalue" {
		t.Fatalf("credentialsenvvar not used (exit %d)", r.Code)
	}
	r = testutil.Run(t, execEnv(t), "", "exec", "--auth", `{"github":{"type":"bearer","credentialsenvvar":"UNSET_VAR"}}`, `SELECT 1 FROM github.repos.repos WHERE org = 'tiny'`)
	if r.Code == 0 || !strings.Contains(r.Stderr, "UNSET_VAR") {
		t.Fatalf("empty credentials variable: %d %s", r.Code, r.Stderr)
	}
}

func TestMaxPagesIsAnErrorNotACut(t *testing.T) {
	fake.ClearFaults()
	r := testutil.Run(t, execEnv(t), "", "exec", "--max-pages", "2", "-o", "json", `SELECT count(*) FROM github.repos.repos WHERE org = 'acme'`)
	if r.Code != 1 || strings.TrimSpace(r.Stdout) != "" || !strings.Contains(r.Stderr, "max-pages") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	// A bare LIMIT that fits in the allowed pages is fine.
	r = testutil.Run(t, execEnv(t), "", "exec", "--max-pages", "1", "-o", "csv", `SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 3`)
	if r.Code != 0 {
		t.Fatalf("LIMIT within max-pages: exit %d %s", r.Code, r.Stderr)
	}
}
