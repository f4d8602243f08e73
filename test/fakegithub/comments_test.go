package fakegithub

import (
	"fmt"
	"net/http"
	"testing"
)

// Issue n has n%4 comments, as its "comments" field says; they list by
// ascending id with GitHub's issue-comment fields, page like every list,
// and since keeps those updated at or after it.
func TestIssueComments(t *testing.T) {
	s := ForTest(t)
	base := s.URL() + "/repos/tiny/gamma/issues"
	var issues []map[string]any
	getJSON(t, base+"?state=all", &issues)
	if len(issues) != 6 {
		t.Fatalf("gamma has %d items, want 6", len(issues))
	}
	total := 0
	for _, is := range issues {
		n := int(is["number"].(float64))
		cs, pages := fetchAll(t, fmt.Sprintf("%s/%d/comments", base, n))
		if len(cs) != int(is["comments"].(float64)) || len(cs) != n%4 || pages != 1 {
			t.Errorf("#%d: %d comments in %d pages; the issue says %v", n, len(cs), pages, is["comments"])
		}
		for j, c := range cs {
			if j > 0 && c["id"].(float64) <= cs[j-1]["id"].(float64) {
				t.Errorf("#%d: ids not ascending: %v", n, cs)
			}
			if c["issue_url"] != is["url"] || c["created_at"].(string) < is["created_at"].(string) {
				t.Errorf("#%d: comment %v does not belong to the issue %v", n, c, is["url"])
			}
			for _, k := range []string{"id", "node_id", "html_url", "issue_url", "user", "url", "created_at", "updated_at", "body", "author_association", "reactions"} {
				if _, ok := c[k]; !ok {
					t.Errorf("#%d: comment lacks %s: %v", n, k, c)
				}
			}
		}
		total += len(cs)
	}
	if total != 9 {
		t.Errorf("gamma: %d comments, want 9", total)
	}

	// Issue 3 of beta (an open pull request) has 3: one per page at
	// per_page=1, with GitHub's Link header.
	cs, pages := fetchAll(t, s.URL()+"/repos/tiny/beta/issues/3/comments?per_page=1")
	if len(cs) != 3 || pages != 3 || cs[0]["html_url"] != fmt.Sprintf("https://github.com/tiny/beta/pull/3#issuecomment-%.0f", cs[0]["id"]) {
		t.Fatalf("per_page=1: %d comments in %d pages: %v", len(cs), pages, cs)
	}
	// since: the second comment was edited, 5 minutes after it was made.
	var got []map[string]any
	getJSON(t, s.URL()+"/repos/tiny/beta/issues/3/comments?since="+cs[1]["updated_at"].(string), &got)
	if len(got) != 2 || got[0]["id"] != cs[1]["id"] || cs[1]["updated_at"] == cs[1]["created_at"] {
		t.Errorf("since %v: %v", cs[1]["updated_at"], got)
	}
	for path, want := range map[string]int{
		"/repos/tiny/beta/issues/5/comments":              http.StatusNotFound, // beta has 4 items
		"/repos/tiny/beta/issues/0/comments":              http.StatusNotFound,
		"/repos/tiny/nope/issues/1/comments":              http.StatusNotFound,
		"/repos/tiny/beta/issues/3/comments?since=monday": http.StatusUnprocessableEntity,
	} {
		if resp, b := get(t, s.URL()+path); resp.StatusCode != want {
			t.Errorf("%s: %d %s, want %d", path, resp.StatusCode, b, want)
		}
	}
}

// acme's items carry the 1930 comments doc.go counts.
func TestAcmeCommentCount(t *testing.T) {
	s := ForTest(t)
	total := 0
	for i := range AcmeRepos {
		var items []map[string]any
		getJSON(t, fmt.Sprintf("%s/repos/acme/%s/issues?state=all&per_page=100", s.URL(), s.RepoName("acme", i)), &items)
		for _, it := range items {
			total += int(it["comments"].(float64))
		}
	}
	if total != 1930 {
		t.Errorf("acme: %d comments, doc.go says 1930", total)
	}
}
