package exec_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestSelfJoinSendsEachURLOnce: a statement that reads the same URL twice
// (a self-join of the org's repositories) sends it once and counts the
// second read as shared, in exec's stats line and in -o json's stats
// (issue 33 item 1: one request per URL per statement).
func TestSelfJoinSendsEachURLOnce(t *testing.T) {
	s := fakegithub.ForTest(t)
	sql := "SELECT a.name FROM github.repos.repos a JOIN github.repos.repos b ON b.org = 'tiny' AND b.name = a.name WHERE a.org = 'tiny' ORDER BY a.name"
	r := testutil.Run(t, execEnvOn(t, s), "", "exec", "--stats", sql)
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if n := len(s.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1: %+v", n, s.Requests())
	}
	if !regexp.MustCompile(`stats: 3 rows; 1 HTTP requests?, 2 pages \(1 fetched, 0 revalidated, 0 from cache, 1 shared\)`).MatchString(r.Stderr) {
		t.Fatalf("stats line:\n%s", r.Stderr)
	}
}

// TestCommitStatusTablesReadAsTheirMethods: github.commits.statuses lists
// a ref's statuses and github.commits.combined_status is its combined
// status; the names read the wrong way round before (issue 33 item 5:
// "status" listed statuses, "statuses" was the combined one).
func TestCommitStatusTablesReadAsTheirMethods(t *testing.T) {
	for table, method := range map[string]string{
		"github.commits.statuses":        "list_commit_statuses_for_ref,",
		"github.commits.combined_status": "get_combined_status_for_ref,",
	} {
		r := run(t, "-o", "csv", "SHOW METHODS IN "+table)
		if r.Code != 0 || !strings.Contains(r.Stdout, "\n"+method) || strings.Count(r.Stdout, "\n") != 2 {
			t.Fatalf("%s: exit %d\n%s\n%s", table, r.Code, r.Stdout, r.Stderr)
		}
	}
}
