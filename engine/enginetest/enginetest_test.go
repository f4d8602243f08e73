package enginetest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/exec"
	"github.com/enginehq/engine/engine/sqlfront"
)

// pages is a small organisation: acme has three repositories over two
// pages (one archived, one without a name), beta has one; each named
// repository has pulls.
var pages = map[string][]Page{
	"/orgs/acme/repos": {
		{JSON: `[{"name":"a","archived":false,"stargazers_count":5},{"name":"b","archived":true,"stargazers_count":1}]`},
		{JSON: `[{"name":"c","archived":false,"stargazers_count":9},{"name":null,"archived":false}]`},
	},
	"/orgs/beta/repos": {
		{JSON: `[{"name":"z","archived":false,"stargazers_count":2}]`},
	},
	"/repos/acme/a/pulls":  {{JSON: `[{"number":1,"title":"a1"},{"number":2,"title":"a2"}]`}},
	"/repos/acme/b/pulls":  {{JSON: `[{"number":3,"title":"b1"}]`}},
	"/repos/acme/c/pulls":  {{JSON: `[{"number":4,"title":"c1"}]`}},
	"/repos/acme/a/issues": {{JSON: `[{"number":10,"title":"ia"}]`}},
	"/repos/acme/b/issues": {{JSON: `[{"number":11,"title":"ib"}]`}},
	"/repos/acme/c/issues": {{JSON: `[{"number":12,"title":"ic"}]`}},
}

func TestScans(t *testing.T) {
	Run(t, pages, []Case{
		{
			Name: "every page, in order",
			SQL:  "SELECT name, stargazers_count FROM github.repos.repos WHERE org = 'acme'",
			Want: []string{"a\t5", "b\t1", "c\t9", "\t"},
			Sent: []string{"/orgs/acme/repos", "/orgs/acme/repos page 2"},
		},
		{
			Name: "IN list fans out, rows in call order",
			SQL:  "SELECT name FROM github.repos.repos WHERE org IN ('beta', 'acme', 'beta') AND name IS NOT NULL",
			Want: []string{"z", "a", "b", "c"},
			Sent: []string{"/orgs/acme/repos", "/orgs/acme/repos page 2", "/orgs/beta/repos"},
		},
	})
}

func TestBindingsFromOtherTables(t *testing.T) {
	Run(t, pages, []Case{
		{
			Name:    "join binds each distinct name, NULL skipped",
			SQL:     "SELECT r.name, p.title FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme' ORDER BY p.number",
			Want:    []string{"a\ta1", "a\ta2", "b\tb1", "c\tc1"},
			Sent:    []string{"/orgs/acme/repos", "/orgs/acme/repos page 2", "/repos/acme/a/pulls", "/repos/acme/b/pulls", "/repos/acme/c/pulls"},
			Explain: "repo from r.name",
		},
		{
			Name: "source filter narrows the fan-out",
			SQL:  "SELECT r.name, p.title FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme' AND r.archived = 0 ORDER BY p.number",
			Want: []string{"a\ta1", "a\ta2", "c\tc1"},
			// b is archived: its pulls are never asked for.
			Sent:    []string{"/orgs/acme/repos", "/orgs/acme/repos page 2", "/repos/acme/a/pulls", "/repos/acme/c/pulls"},
			Explain: "N(r where r.archived = 0)",
		},
		{
			Name: "bindings from two joined tables are the joined pairs, not their product",
			SQL: "SELECT r.name, p.number, c.body FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name " +
				"JOIN github.issues.comments c ON c.owner = 'acme' AND c.repo = r.name AND c.issue_number = p.number WHERE r.org = 'acme' ORDER BY p.number",
			Pages: map[string][]Page{
				"/repos/acme/a/issues/1/comments": {{JSON: `[{"id":1,"body":"a1 first"},{"id":2,"body":"a1 second"}]`}},
				"/repos/acme/a/issues/2/comments": {{JSON: `[]`}},
				"/repos/acme/b/issues/3/comments": {{JSON: `[{"id":3,"body":"b3"}]`}},
				"/repos/acme/c/issues/4/comments": {{JSON: `[{"id":4,"body":"c4"}]`}},
			},
			Want: []string{"a\t1\ta1 first", "a\t1\ta1 second", "b\t3\tb3", "c\t4\tc4"},
			// (a, 3) or (c, 1) is no pull request of that repository: a
			// request for it would be answered 404.
			Sent: []string{"/orgs/acme/repos", "/orgs/acme/repos page 2", "/repos/acme/a/issues/1/comments", "/repos/acme/a/issues/2/comments",
				"/repos/acme/a/pulls", "/repos/acme/b/issues/3/comments", "/repos/acme/b/pulls", "/repos/acme/c/issues/4/comments", "/repos/acme/c/pulls"},
		},
		{
			Name: "IN subquery binds",
			SQL:  "SELECT title FROM github.issues.issues WHERE owner = 'acme' AND repo IN (SELECT name FROM github.repos.repos WHERE org = 'acme' AND stargazers_count > 2) ORDER BY title",
			Want: []string{"ia", "ic"},
			Sent: []string{"/orgs/acme/repos", "/orgs/acme/repos page 2", "/repos/acme/a/issues", "/repos/acme/c/issues"},
		},
		{
			Name:        "a fan-out past the request limit is refused before it is sent",
			SQL:         "SELECT p.title FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme'",
			MaxRequests: 3,
			Err:         "the query needs at least 4 requests (3 for github.pulls.pulls AS p",
			Sent:        []string{"/orgs/acme/repos", "/orgs/acme/repos page 2"},
		},
		{
			Name:        "literal estimate past the limit: nothing sent",
			SQL:         "SELECT name FROM github.repos.repos WHERE org IN ('a', 'b', 'c')",
			MaxRequests: 2,
			Err:         "the query needs about 3 requests, more than the limit of 2",
			NoneSent:    true,
		},
	})
}

func TestLimitPushdown(t *testing.T) {
	Run(t, pages, []Case{
		{
			Name:    "a plain scan stops after its rows",
			SQL:     "SELECT name FROM github.repos.repos WHERE org = 'acme' LIMIT 2",
			Want:    []string{"a", "b"},
			Sent:    []string{"/orgs/acme/repos"},
			Explain: "stops after 2 rows",
		},
		{
			Name: "an aggregate SQLite compiles reads every page",
			SQL:  "SELECT json_group_array(name) FROM github.repos.repos WHERE org = 'acme' LIMIT 1",
			Want: []string{`["a","b","c",null]`},
			Sent: []string{"/orgs/acme/repos", "/orgs/acme/repos page 2"},
		},
		{
			Name: "a filter the API cannot apply reads every page",
			SQL:  "SELECT name FROM github.repos.repos WHERE org = 'acme' AND archived = 0 LIMIT 2",
			Want: []string{"a", "c"},
			Sent: []string{"/orgs/acme/repos", "/orgs/acme/repos page 2"},
		},
		{
			Name: "a fan-out keeps each call's first rows",
			SQL:  "SELECT name FROM github.repos.repos WHERE org IN ('acme', 'beta') LIMIT 3",
			// acme's first page has 2 rows: its second page is needed.
			Want:    []string{"a", "b", "c"},
			Sent:    []string{"/orgs/acme/repos", "/orgs/acme/repos page 2", "/orgs/beta/repos"},
			Explain: "stops after 3 rows",
		},
	})
}

func TestFaults(t *testing.T) {
	failing := map[string][]Page{"/orgs/acme/repos": {pages["/orgs/acme/repos"][0], Fault(502, "bad gateway")}}
	Run(t, pages, []Case{
		{
			Name:  "an error on page 2 fails the statement, no partial rows",
			SQL:   "SELECT name FROM github.repos.repos WHERE org = 'acme'",
			Pages: failing,
			Err:   "bad gateway",
			Sent:  []string{"/orgs/acme/repos", "/orgs/acme/repos page 2"},
		},
		{
			Name:  "one failing call of a fan-out fails it",
			SQL:   "SELECT name FROM github.repos.repos WHERE org IN ('beta', 'acme')",
			Pages: failing,
			Err:   "bad gateway",
		},
		{
			Name:  "a failing source fails the dependent scan before it is sent",
			SQL:   "SELECT p.title FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme'",
			Pages: failing,
			Err:   "bad gateway",
			Sent:  []string{"/orgs/acme/repos", "/orgs/acme/repos page 2"},
		},
		{
			Name:  "a failing dependent call fails the join",
			SQL:   "SELECT r.name, p.title FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme'",
			Pages: map[string][]Page{"/repos/acme/b/pulls": {Fault(500, "server error")}},
			Err:   "server error",
		},
		{
			Name: "a request the fake does not serve is an error",
			SQL:  "SELECT name FROM github.repos.repos WHERE org = 'nobody'",
			Err:  "fake: no pages for GET /orgs/nobody/repos",
		},
	})
}

// TestPrepared: a prepared statement says its kind and plan before it
// runs, sends nothing until Run, and runs again the same plan.
func TestPrepared(t *testing.T) {
	fake := NewFake(pages)
	eng, err := engine.New(engine.Options{Getenv: func(string) string { return "" }, Fetch: func(string) (exec.Fetcher, error) { return fake, nil }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ps, err := eng.Prepare(ctx, "SELECT name FROM github.repos.repos WHERE org = 'beta' LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	if ps.Kind() != sqlfront.KindSelect || !strings.Contains(ps.Explain(), "stops after 1 rows") {
		t.Fatalf("kind %s, plan %q", ps.Kind(), ps.Explain())
	}
	if sent := fake.Sent(); len(sent) != 0 {
		t.Fatalf("prepare sent %q", sent)
	}
	for range 2 {
		res, err := ps.Run(ctx, engine.QueryOptions{})
		if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != "z" {
			t.Fatalf("run: %v %v", res, err)
		}
	}
	if sent := fake.Sent(); len(sent) != 2 {
		t.Fatalf("two runs sent %q", sent)
	}
	show, err := eng.Prepare(ctx, "SHOW SERVICES IN github")
	if err != nil || show.Kind() == sqlfront.KindSelect || show.Explain() != "" {
		t.Fatalf("SHOW prepared as %v (%q): %v", show.Kind(), show.Explain(), err)
	}
	_, err = eng.Prepare(ctx, "SELECT * FROM github.nope.nothing")
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Kind != engine.KindPlan {
		t.Fatalf("unknown table: %v, want a plan *engine.Error", err)
	}
}
