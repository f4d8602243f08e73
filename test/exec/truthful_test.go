package exec_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// Provider answers are reported truthfully (docs/reliability.md,
// "Truthful answers"). Each test uses its
// own fake server so that faults do not leak into other tests.

func ownFake(t *testing.T, opts ...fakegithub.Option) *fakegithub.Server {
	t.Helper()
	s := fakegithub.ForTest(t, opts...)
	return s
}

func execOn(t *testing.T, s *fakegithub.Server, args ...string) (testutil.Result, errorBody) {
	t.Helper()
	env := execEnvOn(t, s)
	r := testutil.Run(t, env, "", append([]string{"exec", "-o", "json"}, args...)...)
	if strings.Contains(r.Stdout+r.Stderr, token) {
		t.Fatalf("token leaked: %s%s", r.Stdout, r.Stderr)
	}
	var eb errorBody
	if r.Code != 0 {
		if err := json.Unmarshal([]byte(r.Stderr), &eb); err != nil {
			t.Fatalf("exit %d, stderr is not the JSON error: %v\n%s", r.Code, err, r.Stderr)
		}
	}
	return r, eb
}

const searchSQL = `SELECT full_name FROM github.search.repos WHERE q = 'org:tiny' ORDER BY full_name`

// GitHub's search says "incomplete_results": true when it timed out: the
// rows are partial, so exec fails with kind "incomplete", retryable.
func TestSearchIncompleteIsError(t *testing.T) {
	s := ownFake(t)
	r, _ := execOn(t, s, searchSQL)
	if r.Code != 0 || len(testutil.JSONRows(t, r)) != 3 {
		t.Fatalf("complete search: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	s.Inject(fakegithub.Fault{Path: "^/search/repositories$", Kind: fakegithub.KindIncompleteResults})
	r, eb := execOn(t, s, searchSQL)
	if r.Code != 2 || r.Stdout != "" {
		t.Fatalf("incomplete search: exit %d, want 2 and no rows\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if e := eb.Error; e.Kind != "incomplete" || !e.Retryable || e.Provider != "github" || !strings.Contains(e.Message, "incomplete_results") {
		t.Fatalf("error = %+v", e)
	}
	// The plain-text error says what to do.
	env := testutil.FakeEnv(t, s.URL())
	rt := testutil.Run(t, env, "", "exec", searchSQL)
	if rt.Code != 2 || !strings.Contains(rt.Stderr, "error (incomplete)") || !strings.Contains(rt.Stderr, "retryable") {
		t.Fatalf("text error: exit %d\n%s", rt.Code, rt.Stderr)
	}
}

// A Link rel="next" on the same host but another path (another org's
// list) is not followed: its rows would be labelled with the queried org.
func TestNextLinkLeavingPathIsError(t *testing.T) {
	s := ownFake(t)
	s.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Page: 1, Kind: fakegithub.KindLinkElsewhere, Location: "/orgs/tiny/repos"})
	r, eb := execOn(t, s, `SELECT count(*) AS n FROM github.repos.repos WHERE org = 'acme'`)
	if r.Code != 2 || eb.Error.Retryable || !strings.Contains(eb.Error.Message, "leaves the request's path") {
		t.Fatalf("exit %d error %+v\n%s", r.Code, eb.Error, r.Stdout)
	}
	for _, req := range s.Requests() {
		if req.Path == "/orgs/tiny/repos" {
			t.Fatalf("the off-path next link was followed")
		}
	}
}

// A redirect to another host is not followed: that host's rows are not
// this table's rows (and it never sees the request or the token).
func TestRedirectToOtherHostIsError(t *testing.T) {
	s, other := ownFake(t), ownFake(t)
	s.Inject(fakegithub.Fault{Path: "^/orgs/acme/repos$", Kind: fakegithub.KindRedirect, Status: 302, Location: other.URL() + "/orgs/tiny/repos"})
	r, eb := execOn(t, s, `SELECT name FROM github.repos.repos WHERE org = 'acme'`)
	if r.Code != 2 || eb.Error.HTTPStatus != 302 || eb.Error.Retryable || !strings.Contains(eb.Error.Message, "another host") {
		t.Fatalf("exit %d error %+v\n%s", r.Code, eb.Error, r.Stdout)
	}
	if n := len(other.Requests()); n != 0 {
		t.Fatalf("the other host got %d requests", n)
	}
}

// Downloads (tarball, zipball, artifacts, logs, migration archives) are
// not tables: refused at plan time, before any request.
func TestDownloadMethodsAreNotTables(t *testing.T) {
	s := ownFake(t)
	r, _ := execOn(t, s, `SHOW METHODS IN github.repos.contents`)
	if r.Code != 0 || !strings.Contains(r.Stdout, "get_content") || strings.Contains(r.Stdout, "tarball") || strings.Contains(r.Stdout, "zipball") {
		t.Fatalf("SHOW METHODS: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r, eb := execOn(t, s, `SELECT * FROM github.repos.contents.download_tarball_archive WHERE owner = 'acme' AND repo = 'repo-001' AND ref = 'main'`)
	if r.Code != 1 || eb.Error.Kind != "plan" || !strings.Contains(eb.Error.Message, "download_tarball_archive") {
		t.Fatalf("exit %d error %+v", r.Code, eb.Error)
	}
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests sent for a refused statement", n)
	}
}

// GitHub's secondary rate limits: a 403 with Retry-After, or saying "abuse
// detection" or "secondary rate limit", is retryable; without Retry-After
// the wait is at least 60 s. With a 3 s retry budget they surface at once.
func TestSecondaryRateLimitsRetryable(t *testing.T) {
	const q = `SELECT name FROM github.repos.repos WHERE org = 'tiny'`
	abuse := "You have triggered an abuse detection mechanism. Please wait a few minutes before you try again."
	for _, c := range []struct {
		name  string
		fault fakegithub.Fault
		after int
	}{
		{"abuse detection with Retry-After", fakegithub.Fault{Kind: fakegithub.KindSecondaryRateLimit, Message: abuse, RetryAfter: 60}, 60},
		{"abuse detection without Retry-After", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 403, Message: abuse}, 60},
		{"secondary rate limit without Retry-After", fakegithub.Fault{Kind: fakegithub.KindStatus, Status: 403, Message: "You have exceeded a secondary rate limit."}, 60},
		{"403 with Retry-After", fakegithub.Fault{Kind: fakegithub.KindSecondaryRateLimit, Message: "Forbidden", RetryAfter: 120}, 120},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := ownFake(t)
			c.fault.Path = "^/orgs/tiny/repos$"
			s.Inject(c.fault)
			r, eb := execOn(t, s, q)
			e := eb.Error
			if r.Code != 2 || e.HTTPStatus != 403 || !e.Retryable || e.RetryAfterSeconds != c.after {
				t.Fatalf("exit %d error %+v, want retryable with retry_after_seconds %d", r.Code, e, c.after)
			}
		})
	}
}

// x-ratelimit-reset far in the future, or in milliseconds, never gives a
// negative (or absurd) retry_after_seconds.
func TestRetryAfterClamped(t *testing.T) {
	now := time.Now().Unix()
	for _, c := range []struct {
		name     string
		reset    string
		min, max int
	}{
		{"far future", "99999999999999999", 86400, 86400},
		{"max int64", "9223372036854775807", 86400, 86400},
		{"milliseconds", fmt.Sprint((now + 120) * 1000), 100, 130},
		{"past", fmt.Sprint(now - 3600), 1, 1},
		{"seconds", fmt.Sprint(now + 600), 580, 610},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := ownFake(t)
			s.Inject(fakegithub.Fault{Path: "^/orgs/tiny/repos$", Kind: fakegithub.KindRateLimit, Reset: c.reset})
			env := testutil.FakeEnv(t, s.URL())
			r := testutil.Run(t, env, "", "exec", "-o", "json", `SELECT name FROM github.repos.repos WHERE org = 'tiny'`)
			var eb errorBody
			if err := json.Unmarshal([]byte(r.Stderr), &eb); err != nil || r.Code != 2 {
				t.Fatalf("exit %d: %v\n%s", r.Code, err, r.Stderr)
			}
			if got := eb.Error.RetryAfterSeconds; got < c.min || got > c.max || !eb.Error.Retryable {
				t.Fatalf("retry_after_seconds = %d, want %d..%d (%+v)", got, c.min, c.max, eb.Error)
			}
		})
	}
}

// A document added with --provider gets credentials only from --auth for
// that provider, even when it carries GitHub's x-github extension.
func TestProviderFileGetsNoGitHubToken(t *testing.T) {
	srv := fakeapis.NewFixed(t, map[string]string{"/things": `[{"id": 1, "name": "one"}]`})
	doc := fmt.Sprintf(`{"openapi": "3.0.3", "info": {"title": "evil", "version": "1"},
  "servers": [{"url": %q}],
  "paths": {"/things": {"get": {"operationId": "things/list",
    "x-github": {"category": "things", "subcategory": "things"},
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
      {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}}}}}}}`, srv.URL)
	file := testutil.TempFile(t, "evil.json", doc)
	last := func() string {
		got, ok := srv.LastAuth()
		if !ok {
			t.Fatal("no request reached the provider")
		}
		return got
	}
	q := `SELECT name FROM evil.things.things`
	env := testutil.Env(t, "GITHUB_TOKEN="+token, "GH_TOKEN="+token, "MY_TOKEN=evil-provider-token")
	r := testutil.Run(t, env, "", "exec", "-o", "csv", "--provider", "evil="+file, q)
	testutil.WantRun(t, "exec", r, 0, "one", "")
	if got := last(); got != "" {
		t.Fatalf("--provider evil got Authorization %q (GitHub's token must not be sent)", got)
	}
	r = testutil.Run(t, env, "", "exec", "-o", "csv", "--provider", "evil="+file,
		"--auth", `{"evil":{"type":"bearer","credentialsenvvar":"MY_TOKEN"}}`, q)
	if r.Code != 0 {
		t.Fatalf("with --auth: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if got := last(); got != "Bearer evil-provider-token" {
		t.Fatalf("with --auth: Authorization %q", got)
	}
}
