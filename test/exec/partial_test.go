package exec_test

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// Issue 32: GitHub cuts a recursive tree listing short and says so with
// "truncated": true. Before, the partial list was the answer (exit 0), so
// a "no binary artifacts" control passed on a tree whose binary was past
// the cut. Now it is kind incomplete everywhere: exec exits 2 naming
// recursive and the way to walk the tree without it, check reports the
// control as error (exit 2), MCP answers isError; the way the message
// names (the tree without recursive, then the subtree by its sha) is
// complete and finds the binary.
func TestGitTreeTruncatedIsIncomplete(t *testing.T) {
	const where = "owner = 'acme' AND repo = 'repo-001' AND tree_sha = '" + fakegithub.BigTreeSHA + "'"
	sql := "SELECT path FROM github.git.trees WHERE " + where + " AND `recursive` = '1'"
	r := run(t, "-o", "json", sql)
	eb := testutil.JSONError(t, r)
	if r.Code != 2 || eb.Kind != "incomplete" || eb.Retryable || eb.HTTPStatus != 200 {
		t.Fatalf("exit %d error %+v, want exit 2, kind incomplete, not retryable, http_status 200\nstdout: %s", r.Code, eb, r.Stdout)
	}
	testutil.Contains(t, "message", eb.Message, `"truncated": true`, "without recursive", "tree_sha = <that row's sha>")
	if strings.Contains(r.Stdout, "README.md") {
		t.Fatalf("rows of the cut listing were printed:\n%s", r.Stdout)
	}

	rt := run(t, sql)
	if rt.Code != 2 || !strings.Contains(rt.Stderr, "error (incomplete)") || !strings.Contains(rt.Stderr, "not retryable") {
		t.Fatalf("text: exit %d\n%s", rt.Code, rt.Stderr)
	}

	// The non-recursive way is complete: the top level, then the subtree.
	r = run(t, "-o", "json", "SELECT path, type, sha FROM github.git.trees WHERE "+where)
	rows := testutil.JSONRows(t, r)
	if got := column(rows, "path"); r.Code != 0 || !reflect.DeepEqual(got, []string{"README.md", "main.go", "vendor"}) {
		t.Fatalf("top level: exit %d paths %v\n%s", r.Code, got, r.Stderr)
	}
	r = run(t, "-o", "json", "SELECT path FROM github.git.trees WHERE owner = 'acme' AND repo = 'repo-001' AND tree_sha = '"+fakegithub.SubTreeSHA+"'")
	if got := column(testutil.JSONRows(t, r), "path"); r.Code != 0 || !reflect.DeepEqual(got, []string{"a.go", "app.bin"}) {
		t.Fatalf("subtree: exit %d paths %v\n%s", r.Code, got, r.Stderr)
	}

	// check: the control is an error, never a pass; MCP: isError, kind
	// incomplete, no rows.
	controls := testutil.TempFile(t, "c.yaml", `controls:
  - id: no-binaries
    title: No binary artifacts in the tree
    sql: "`+sql+` AND path LIKE '%.bin'"
`)
	incompleteInCheckAndMCP(t, controls, sql)
}

// incompleteInCheckAndMCP fails the test unless check of the controls
// file exits 2 with a control in error of kind incomplete, and sql over
// MCP is an error result of kind incomplete without rows: an incomplete
// answer is never a pass nor a partial result on those surfaces either.
func incompleteInCheckAndMCP(t *testing.T, controls, sql string) {
	t.Helper()
	r := testutil.Run(t, execEnv(t), "", "check", controls, "-o", "json")
	if r.Code != 2 || !strings.Contains(r.Stdout, `"status": "error"`) || !strings.Contains(r.Stdout, `"kind": "incomplete"`) {
		t.Fatalf("check: exit %d, want 2 with the control in error (kind incomplete)\nstdout: %.2000s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	cl, _, stderr := mcptest.Stdio(t, execEnv(t), "mcp")
	res := cl.Query(t, sql)
	if !res.IsError || res.Error == nil || res.Error.Kind != "incomplete" || len(res.Rows) != 0 {
		t.Fatalf("MCP: result %+v error %+v, want isError with kind incomplete and no rows\nstderr: %s", res, res.Error, stderr)
	}
}

func column(rows []map[string]any, name string) []string {
	var out []string
	for _, r := range rows {
		s, _ := r[name].(string)
		out = append(out, s)
	}
	return out
}

// Issue 32, red-team findings on search splitting: an OR between Unicode
// white space (U+00A0, U+3000) is still GitHub's operator, so a search
// over the cap that uses it is not split (an added range would bind to
// one side): kind incomplete naming the operator, no rows (before: split,
// exit 0). A split never asks for a range before GitHub's epoch
// (2007-10-01; before: a first range created:*..2007-09-30T23:59:59).
func TestSearchSplitSeparatorsAndEpoch(t *testing.T) {
	s := ownFake(t)
	for _, q := range []string{"org:sprawl repo\u00a0OR\u00a0repo", "org:sprawl repo\u3000OR\u3000repo"} {
		r, eb := execOn(t, s, "SELECT count(*) AS n FROM github.search.repos WHERE q = '"+q+"'")
		if r.Code != 2 || r.Stdout != "" || eb.Error.Kind != "incomplete" || !strings.Contains(eb.Error.Message, "OR operator") {
			t.Fatalf("%q: exit %d error %+v, want 2, kind incomplete naming the OR operator\n%s", q, r.Code, eb.Error, r.Stdout)
		}
	}
	before := len(s.Requests())
	r, _ := execOn(t, s, "SELECT count(*) AS n FROM github.search.repos WHERE q = 'org:sprawl'")
	if rows := testutil.JSONRows(t, r); r.Code != 0 || len(rows) != 1 || rows[0]["n"] != float64(2500) {
		t.Fatalf("split: exit %d rows %v\n%s", r.Code, rows, r.Stderr)
	}
	// Where the matches begin is read from the first page's created_at, so
	// the split starts there: at most 30 requests for 2,500 matches (25
	// pages of 100 at least), one window of GitHub's search limit (before:
	// 39, bisecting from 2007).
	if n := len(s.Requests()) - before; n > 30 {
		t.Errorf("the split of 2500 matches took %d requests, want at most 30", n)
	} else {
		t.Logf("the split of 2500 matches took %d requests", n)
	}
	for _, req := range s.Requests()[before:] {
		q, _ := url.ParseQuery(req.RawQuery)
		if strings.Contains(q.Get("q"), "created:*..") {
			t.Fatalf("a range before GitHub's epoch was asked for: %q", q.Get("q"))
		}
	}
}
