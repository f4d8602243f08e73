package exec_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// Three tables, each bound from the one before: tiny's repositories, the
// open pull requests of each, and the conversation comments of each pull
// request (GET /repos/{o}/{r}/issues/{n}/comments; test/fakegithub/doc.go:
// item n has n%4 comments, comment j by member (n+i+j-1)%2+1 of tiny).
//
// The comments' keys are bound either from the pull request alone or from
// two tables, the repository and the pull request (c.repo = r.name AND
// c.issue_number = p.number): then the engine asks for the pairs of r and
// p that join, never a pull request's number in another repository (which
// GitHub answers 404).
func TestPullsToCommentsJoin(t *testing.T) {
	for name, on := range map[string]string{
		"bound from one table":  "c.owner = p.owner AND c.repo = p.repo AND c.issue_number = p.number",
		"bound from two tables": "c.owner = 'tiny' AND c.repo = r.name AND c.issue_number = p.number",
	} {
		t.Run(name, func(t *testing.T) {
			fake.ResetRequests()
			q := `SELECT r.name, p.number, json_extract(c.user, '$.login') AS author, c.body
` + reposToPulls + `JOIN github.issues.comments c ON ` + on + `
WHERE r.org = 'tiny' ORDER BY c.id`
			r := run(t, "-o", "csv", q)
			want := csvLines("name,number,author,body",
				"beta,3,tiny-dev-01,Comment 1 on tiny/beta #3.",
				"beta,3,tiny-dev-02,Comment 2 on tiny/beta #3.",
				"beta,3,tiny-dev-01,Comment 3 on tiny/beta #3.",
				"gamma,5,tiny-dev-02,Comment 1 on tiny/gamma #5.",
				"gamma,6,tiny-dev-01,Comment 1 on tiny/gamma #6.",
				"gamma,6,tiny-dev-02,Comment 2 on tiny/gamma #6.")
			if r.Code != 0 || r.Stdout != want {
				t.Fatalf("exit %d\n%s%s\nwant\n%s", r.Code, r.Stdout, r.Stderr, want)
			}
			// One request per pull request's comments, none for the
			// repositories without open pulls (alpha) or for a pull of
			// another repository.
			var got []string
			for _, req := range fake.Requests() {
				if strings.HasSuffix(req.Path, "/comments") {
					got = append(got, req.Path)
				}
			}
			slices.Sort(got)
			if w := []string{"/repos/tiny/beta/issues/3/comments", "/repos/tiny/gamma/issues/5/comments", "/repos/tiny/gamma/issues/6/comments"}; !slices.Equal(got, w) {
				t.Errorf("comment requests %v, want %v", got, w)
			}
		})
	}
}

// The fake's meta endpoints and GET /repositories read through the engine:
// /zen is text (one row, its value), /versions an array of strings, and
// /repositories (the method whose rows have network_count) pages by its
// since-only Link to the end.
func TestMetaAndPublicRepositories(t *testing.T) {
	r := run(t, "-o", "csv", "SELECT value FROM github.meta.get_zen")
	zen := strings.TrimSuffix(strings.TrimPrefix(r.Stdout, "value\n"), "\n")
	if r.Code != 0 || !slices.Contains(fakegithub.ZenSayings(), zen) {
		t.Errorf("get_zen: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = run(t, "-o", "csv", "SELECT value FROM github.meta.all_versions")
	if r.Code != 0 || r.Stdout != csvLines("value", fakegithub.APIVersions...) {
		t.Errorf("all_versions: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}

	fake.ResetRequests()
	r = run(t, "-o", "json", "SELECT full_name, network_count FROM github.repos.repos WHERE since = 500000240 ORDER BY id")
	rows := testutil.JSONRows(t, r)
	// acme/repo-243, -246, -249, tiny/alpha, then sprawl's 834 public.
	if r.Code != 0 || len(rows) != 3+1+834 || rows[0]["full_name"] != "acme/repo-243" || rows[3]["full_name"] != "tiny/alpha" || rows[len(rows)-1]["full_name"] != "sprawl/repo-2499" {
		t.Fatalf("exit %d, %d rows\n%.300s%s", r.Code, len(rows), r.Stdout, r.Stderr)
	}
	var pages []string
	for _, req := range fake.Requests() {
		if req.Path == "/repositories" {
			pages = append(pages, req.RawQuery)
		}
	}
	if len(pages) != 9 || !strings.Contains(pages[0], "since=500000240") {
		t.Errorf("%d pages of /repositories: %v", len(pages), pages)
	}
	for _, p := range pages[1:] {
		if !strings.HasPrefix(p, "since=") {
			t.Errorf("a next page %q is not the Link's since", p)
		}
	}
}
