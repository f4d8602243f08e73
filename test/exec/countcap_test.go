package exec_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// Issue 32 item 3: where GitHub stops an answer at a count and says
// nothing (registry/profiles/github.json, count_caps), an answer that
// reaches the count is an error of kind incomplete naming the cap and the
// way round, in exec, check and MCP; the same query under the cap is
// complete (exit 0). Before: exit 0 with the 300, 1,000 or 3,000 rows.
func TestCountCapsAreIncomplete(t *testing.T) {
	cases := []struct {
		name, cut, whole string
		want             []string // in the message
		rows             int      // of the whole query
	}{
		{"comparison of 300 files",
			"SELECT status FROM github.commits.comparisons WHERE owner = 'acme' AND repo = 'repo-001' AND basehead = '" + fakegithub.CapBasehead + "'",
			"SELECT status FROM github.commits.comparisons WHERE owner = 'acme' AND repo = 'repo-001' AND basehead = 'main...topic'",
			[]string{`300 entries of "files"`, "300 files of a comparison", "nearer base"}, 1},
		{"commit of 3,000 files over 10 pages",
			"SELECT sha FROM github.commits.commits WHERE owner = 'acme' AND repo = 'repo-001' AND ref = '" + fakegithub.CapRef + "'",
			"SELECT sha FROM github.commits.commits WHERE owner = 'acme' AND repo = 'repo-001' AND ref = 'main'",
			[]string{`3000 entries of "files"`, "3,000 files of a commit", "git show"}, 1},
		{"pull request of 3,000 files",
			"SELECT filename FROM github.pulls.diff_entries WHERE owner = 'acme' AND repo = 'repo-001' AND pull_number = " + strconv.Itoa(fakegithub.CapPull),
			"SELECT filename FROM github.pulls.diff_entries WHERE owner = 'acme' AND repo = 'repo-001' AND pull_number = 7",
			[]string{"3000 rows", "3,000 files of a pull request", "changed_files"}, 3},
		{"directory of 1,000 entries",
			"SELECT name FROM github.repos.contents WHERE owner = 'acme' AND repo = 'repo-001' AND path = '" + fakegithub.CapDir + "'",
			"SELECT name FROM github.repos.contents WHERE owner = 'tiny' AND repo = 'alpha' AND path = '.github/workflows'",
			[]string{"1000 rows", "1,000 entries of a directory", "github.git.trees"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, "-o", "json", c.cut)
			eb := testutil.JSONError(t, r)
			if r.Code != 2 || eb.Kind != "incomplete" || eb.Retryable {
				t.Fatalf("exit %d error %+v, want exit 2, kind incomplete, not retryable\nstderr: %s", r.Code, eb, r.Stderr)
			}
			testutil.Contains(t, "message", eb.Message, c.want...)
			if strings.TrimSpace(r.Stdout) != "" {
				t.Fatalf("rows of the cut answer were printed:\n%.300s", r.Stdout)
			}
			r = run(t, "-o", "json", c.whole)
			if rows := testutil.JSONRows(t, r); r.Code != 0 || len(rows) != c.rows {
				t.Fatalf("under the cap: exit %d, %d rows, want exit 0 and %d\nstderr: %s", r.Code, len(rows), c.rows, r.Stderr)
			}
		})
	}

	t.Run("check and MCP", func(t *testing.T) {
		sql := cases[2].cut
		controls := testutil.TempFile(t, "c.yaml", `controls:
  - id: no-vendored-changes
    title: No pull request touches vendor/
    sql: "`+sql+` AND filename LIKE 'vendor/%'"
`)
		incompleteInCheckAndMCP(t, controls, sql)
	})
}

// Issue 32 item 3: GitHub's events are the last 300 of 90 days, its
// documented window, not a cut answer: 300 events are the rows (exit 0)
// with a notice on stderr saying so; 4 events, no notice.
func TestEventsWindowIsANotice(t *testing.T) {
	r := run(t, "-o", "json", "SELECT id FROM github.activity.events WHERE owner = 'acme' AND repo = 'repo-001'")
	if rows := testutil.JSONRows(t, r); r.Code != 0 || len(rows) != 300 {
		t.Fatalf("exit %d, %d rows, want exit 0 and 300\nstderr: %s", r.Code, len(rows), r.Stderr)
	}
	testutil.Contains(t, "stderr", r.Stderr, "300 events of the past 90 days", "documented window")
	r = run(t, "-o", "json", "SELECT id FROM github.activity.events WHERE owner = 'tiny' AND repo = 'alpha'")
	if rows := testutil.JSONRows(t, r); r.Code != 0 || len(rows) != 4 || strings.Contains(r.Stderr, "90 days") {
		t.Fatalf("exit %d, %d rows, want exit 0 and 4 without the notice\nstderr: %s", r.Code, len(rows), r.Stderr)
	}
}

// Issue 32: a commit's files come in pages of 300, each page the whole
// commit with its slice of files. The commit is one row with every file
// (650 over three pages) and its parents once; before, each page was a
// row of its own (three overlapping rows of one commit, exit 0).
func TestPagedCommitIsOneRow(t *testing.T) {
	sql := "SELECT sha, json_array_length(files) AS files, json_array_length(parents) AS parents, " +
		"(SELECT count(DISTINCT json_extract(f.value, '$.filename')) FROM json_each(files) AS f) AS distinct_files " +
		"FROM github.commits.commits WHERE owner = 'acme' AND repo = 'repo-001' AND ref = '" + fakegithub.PagedRef + "'"
	for _, q := range []string{sql, sql + " LIMIT 1"} {
		r := run(t, "-o", "csv", q)
		want := "sha,files,parents,distinct_files\n" + fakegithub.PagedRef + ",650,1,650\n"
		if r.Code != 0 || r.Stdout != want {
			t.Fatalf("%s\nexit %d\n%s\nwant:\n%s\nstderr: %s", q, r.Code, r.Stdout, want, r.Stderr)
		}
	}
}
