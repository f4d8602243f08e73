package profiles_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakeapis"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// Stripe-style cursor pagination (has_more + starting_after =
// the last item's id) is inferred from the document: 6 customers over 3
// pages are exactly those 6 rows, in the API's order (before: 2 rows,
// exit 0).
func TestStripeCursorPages(t *testing.T) {
	tbl := table(t, stripeArg, "customers")
	before := fake.Requests("/stripe/v1/customers")
	r := run(t, env(t), "-o", "json", "--provider", stripeArg, "SELECT id, name FROM "+tbl)
	rows := testutil.JSONRows(t, r)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	if got, want := column(rows, "id"), []string{"cus_6", "cus_5", "cus_4", "cus_3", "cus_2", "cus_1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("ids %v, want %v", got, want)
	}
	if got := column(rows, "name"); got[0] != "Frank" || got[5] != "Alice" {
		t.Fatalf("names %v", got)
	}
	if n := fake.Requests("/stripe/v1/customers") - before; n != 3 {
		t.Fatalf("%d requests, want 3 (pages of %d)", n, fakeapis.PageSize)
	}
	var cursors []string
	for _, q := range fake.Queries() {
		if strings.HasPrefix(q, "/stripe/v1/customers?") {
			if !strings.Contains(q, "limit=100") {
				t.Errorf("request %s does not ask for the documented maximum page size (limit=100)", q)
			}
			if i := strings.Index(q, "starting_after="); i >= 0 {
				cursors = append(cursors, q[i+len("starting_after="):])
			}
		}
	}
	if want := []string{"cus_5", "cus_3"}; !reflect.DeepEqual(cursors[len(cursors)-2:], want) {
		t.Fatalf("starting_after values %v, want the last ids of pages 1 and 2 %v", cursors, want)
	}
}

// LIMIT stops paginating once enough rows are in: 3 rows need 2 pages of
// 2, not 3.
func TestStripeLimitStopsEarly(t *testing.T) {
	tbl := table(t, stripeArg, "customers")
	before := fake.Requests("/stripe/v1/customers")
	r := run(t, env(t), "-o", "json", "--provider", stripeArg, "SELECT id FROM "+tbl+" LIMIT 3")
	wantColumn(t, "", r, "id", "cus_6", "cus_5", "cus_4")
	if n := fake.Requests("/stripe/v1/customers") - before; n != 2 {
		t.Fatalf("%d requests for LIMIT 3, want 2", n)
	}
}

// Slack-style cursor (response_metadata.next_cursor sent back as cursor):
// 5 channels over 3 pages; a WHERE on a documented parameter is pushed
// down and the filtered list pages too.
func TestSlackNextCursor(t *testing.T) {
	tbl := table(t, slackArg, "conversations")
	e := env(t, "SLACK_TOKEN="+fakeapis.GoodSlackToken)
	before := fake.Requests("/slack/conversations.list")
	r := run(t, e, "-o", "json", "--provider", slackArg, "--auth", slackAuth, "SELECT id, name FROM "+tbl)
	wantColumn(t, "", r, "name", "general", "random", "engineering", "old-project", "support")
	if n := fake.Requests("/slack/conversations.list") - before; n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
	r = run(t, e, "-o", "json", "--provider", slackArg, "--auth", slackAuth, "SELECT id FROM "+tbl+" WHERE exclude_archived = true")
	wantColumn(t, "exclude_archived: ", r, "id", "C001", "C002", "C003", "C005")
}

// Jira-style offset pagination (startAt/maxResults with total and
// isLast): 5 projects over 3 pages.
func TestJiraStartAt(t *testing.T) {
	tbl := table(t, jiraArg, "projects")
	before := fake.Requests("/jira/rest/api/3/project/search")
	r := run(t, env(t), "-o", "json", "--provider", jiraArg, "SELECT * FROM "+tbl)
	rows := testutil.JSONRows(t, r)
	if got, want := column(rows, "key"), []string{"ENG", "OPS", "SD", "WEB", "MOB"}; r.Code != 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("exit %d keys %v, want %v\n%s", r.Code, got, want, r.Stderr)
	}
	if n := fake.Requests("/jira/rest/api/3/project/search") - before; n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
	var starts []string
	for _, q := range fake.Queries() {
		if strings.HasPrefix(q, "/jira/rest/api/3/project/search?") {
			if i := strings.Index(q, "startAt="); i >= 0 {
				starts = append(starts, strings.SplitN(q[i+len("startAt="):], "&", 2)[0])
			}
		}
	}
	if want := []string{"2", "4"}; len(starts) < 2 || !reflect.DeepEqual(starts[len(starts)-2:], want) {
		t.Fatalf("startAt values %v, want ... 2, 4", starts)
	}
	// LIMIT: one page of 2 is enough for 2 rows.
	before = fake.Requests("/jira/rest/api/3/project/search")
	r = run(t, env(t), "-o", "json", "--provider", jiraArg, "SELECT name FROM "+tbl+" LIMIT 2")
	wantColumn(t, "LIMIT 2: ", r, "name", "Engineering", "Operations")
	if n := fake.Requests("/jira/rest/api/3/project/search") - before; n != 1 {
		t.Fatalf("LIMIT 2: %d requests, want 1", n)
	}
}

// The rule that cannot break: a list whose answer says there is more
// (has_more: true) but whose paging the engine cannot infer (the document
// leaves out starting_after) and no profile declares is an error (kind
// incomplete, exit 2) naming the operation and the profile key; never the
// first page as if it were the whole. Declaring it in a profile fixes it.
func TestUnknownPaginationSaysMore(t *testing.T) {
	tbl := table(t, stripeArg, "charges")
	r := run(t, env(t), "--provider", stripeArg, "SELECT id FROM "+tbl)
	if r.Code != 2 {
		t.Fatalf("exit %d, want 2\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	testutil.Contains(t, "stderr", r.Stderr, `"has_more" is true`, `"GetCharges"`, `"pagination"`, "profile=FILE", "error (incomplete)")
	if strings.Contains(r.Stdout, "ch_3") {
		t.Errorf("rows of the first page were printed:\n%s", r.Stdout)
	}
	r = run(t, env(t), "-o", "json", "--provider", stripeArg, "SELECT id FROM "+tbl)
	if eb := testutil.JSONError(t, r); r.Code != 2 || eb.Kind != "incomplete" || eb.Provider != "stripe" || eb.Retryable {
		t.Fatalf("exit %d error %+v", r.Code, eb)
	}

	profile := testutil.TempFile(t, "stripe-profile.json", `{"pagination": {"operations": {"GetCharges":
		{"style": "cursor", "param": "starting_after", "has_more": "has_more", "last_item": "id", "size": "limit", "size_max": 100}}}}`)
	r = run(t, env(t), "-o", "json", "--provider", stripeArg+",profile="+profile, "SELECT id FROM "+tbl)
	wantColumn(t, "with the profile: ", r, "id", "ch_3", "ch_2", "ch_1")
}

// A profile is checked strictly: an unknown field or an incomplete paging
// is refused with a message naming it.
func TestProfileIsStrict(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ body, want string }{
		"unknown field":  {`{"paging": {}}`, `unknown field "paging"`},
		"cursor no next": {`{"pagination": {"operations": {"GetCharges": {"style": "cursor", "param": "starting_after"}}}}`, `"has_more" and "last_item"`},
		"unknown op":     {`{"pagination": {"operations": {"NoSuchOp": {"style": "none"}}}}`, "NoSuchOp: no GET operation"},
		"bad style":      {`{"pagination": {"default": {"style": "scroll"}}}`, `unknown style "scroll"`},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
			if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			r := run(t, env(t), "--provider", stripeArg+",profile="+p, "SELECT id FROM stripe.charges.charges")
			if r.Code != 1 || !strings.Contains(r.Stderr, c.want) || strings.Contains(r.Stderr, "bug in engine") || strings.Contains(r.Stderr, "provider stripe: provider stripe:") {
				t.Fatalf("exit %d, want an error saying %q:\n%s", r.Code, c.want, r.Stderr)
			}
		})
	}
}

// Slack answers failures with HTTP 200 and {"ok": false,
// "error": CODE}. With Slack's profile rule that is an error of kind
// provider (exit 2), never a row: an auth code says what to do and is not
// retryable, "ratelimited" is retryable (before: one row, exit 0).
func TestSlackErrorIn200(t *testing.T) {
	tbl := table(t, slackArg, "conversations")
	for _, c := range []struct {
		token     string
		code      string
		retryable bool
		advice    string
	}{
		{"xoxb-revoked-or-wrong", "invalid_auth", false, `--auth '{"slack":`},
		{fakeapis.RateLimitedSlackToken, "ratelimited", true, "rate limit"},
	} {
		t.Run(c.code, func(t *testing.T) {
			e := env(t, "SLACK_TOKEN="+c.token)
			r := run(t, e, "--provider", slackArg, "--auth", slackAuth, "SELECT id, name FROM "+tbl)
			if r.Code != 2 || !strings.Contains(r.Stderr, c.code) || !strings.Contains(r.Stderr, c.advice) {
				t.Fatalf("exit %d, want 2 with %q and %q\nstdout: %s\nstderr: %s", r.Code, c.code, c.advice, r.Stdout, r.Stderr)
			}
			if strings.Contains(r.Stdout+r.Stderr, c.token) {
				t.Fatal("the token appears in the output")
			}
			r = run(t, e, "-o", "json", "--provider", slackArg, "--auth", slackAuth, "SELECT id, name FROM "+tbl)
			eb := testutil.JSONError(t, r)
			if r.Code != 2 || eb.Kind != "provider" || eb.Provider != "slack" || eb.Retryable != c.retryable || eb.HTTPStatus != 200 {
				t.Fatalf("exit %d error %+v, want kind provider, provider slack, retryable %v, http_status 200", r.Code, eb, c.retryable)
			}
		})
	}
}

// A --provider document never gets a token from the environment through
// its profile: without --auth no Authorization is sent (Slack says
// not_authed), even with SLACK_TOKEN and GITHUB_TOKEN set.
func TestProfileReadsNoTokenVariables(t *testing.T) {
	tbl := table(t, slackArg, "conversations")
	e := env(t, "SLACK_TOKEN="+fakeapis.GoodSlackToken, "GITHUB_TOKEN="+fakeapis.GoodSlackToken)
	r := run(t, e, "--provider", slackArg, "SELECT id FROM "+tbl)
	testutil.WantRun(t, "exec", r, 2, "", "not_authed")
}

// The error advice names the provider's own way to give credentials,
// never GitHub's token variable.
func TestAdviceIsTheProvidersOwn(t *testing.T) {
	tbl := table(t, stripeArg, "customers")
	r := run(t, env(t), "--provider", stripeArg, "SELECT id FROM "+tbl+" WHERE customer = 'cus_404'")
	testutil.WantRun(t, "exec", r, 2, "", "No such customer: 'cus_404'")
	if strings.Contains(r.Stderr, "GITHUB_TOKEN") || !strings.Contains(r.Stderr, `--auth '{"stripe":`) {
		t.Fatalf("advice is not Stripe's own:\n%s", r.Stderr)
	}
}

// The MCP surface reports an error in a 200 as isError with the provider
// and whether a retry may help.
func TestSlackErrorIn200MCP(t *testing.T) {
	tbl := table(t, slackArg, "conversations")
	for _, c := range []struct {
		token     string
		retryable bool
	}{{"xoxb-wrong", false}, {fakeapis.RateLimitedSlackToken, true}} {
		cl, _, stderr := mcptest.Stdio(t, env(t, append([]string{"SLACK_TOKEN=" + c.token}, testutil.FastRetry...)...), "mcp", "--provider", slackArg, "--auth", slackAuth)
		res := cl.Query(t, "SELECT id, name FROM "+tbl)
		if !res.IsError || res.Error == nil || res.Error.Kind != "provider" || res.Error.Provider != "slack" || res.Error.Retryable != c.retryable {
			t.Fatalf("token %s: result %+v error %+v, want isError, kind provider, provider slack, retryable %v\nstderr: %s", c.token, res, res.Error, c.retryable, stderr)
		}
		if len(res.Rows) != 0 {
			t.Fatalf("rows returned with the error: %v", res.Rows)
		}
	}
}
