package fakegithub

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Issue comments: issue (or pull request) n of a repository has n%4
// comments, as its "comments" count says, listed by ascending id as
// GitHub lists them.

// commentsOf is the number of comments of item n.
func commentsOf(n int) int { return n % 4 }

// commentID is a stable id for comment j (1-based) of item n; below 2^53,
// as GitHub's ids are, for every repository id the fake makes.
func (r repo) commentID(n, j int) int64 {
	return 1_000_000_000_000_000 + (r.id*100+int64(n))*10 + int64(j)
}

// commentCreated: the comments follow the item's creation 20 minutes apart
// (before a closed item's closing, an hour after its creation).
func (r repo) commentCreated(n, j int) time.Time {
	return r.itemCreated(n).Add(time.Duration(j) * 20 * time.Minute)
}

// commentUpdated: the second comment of an item was edited 5 minutes later.
func (r repo) commentUpdated(n, j int) time.Time {
	t := r.commentCreated(n, j)
	if j == 2 {
		t = t.Add(5 * time.Minute)
	}
	return t
}

// commentAuthor: the item's author answers first, then other members.
func (r repo) commentAuthor(n, j int) string {
	if r.org == nil || r.org.members == 0 {
		return AuthUser
	}
	return memberLogin(r.org.login, (n+r.idx+j-1)%r.org.members+1)
}

// commentJSON is GitHub's issue-comment.
func (r repo) commentJSON(n, j int) obj {
	id := r.commentID(n, j)
	issue := fmt.Sprintf("%s/repos/%s/issues/%d", apiBase, r.fullName(), n)
	html := fmt.Sprintf("%s/%s/issues/%d", webBase, r.fullName(), n)
	if r.kindOf(n).isPull() {
		html = fmt.Sprintf("%s/%s/pull/%d", webBase, r.fullName(), n)
	}
	url := fmt.Sprintf("%s/repos/%s/issues/comments/%d", apiBase, r.fullName(), id)
	assoc := "MEMBER"
	if r.org == nil {
		assoc = "OWNER"
	}
	return obj{
		"id": id, "node_id": nodeID("IssueComment", id), "url": url,
		"html_url":   fmt.Sprintf("%s#issuecomment-%d", html, id),
		"body":       fmt.Sprintf("Comment %d on %s #%d.", j, r.fullName(), n),
		"user":       simpleUser(r.commentAuthor(n, j), "User"),
		"created_at": ts(r.commentCreated(n, j)), "updated_at": ts(r.commentUpdated(n, j)),
		"issue_url": issue, "author_association": assoc,
		"performed_via_github_app": nil,
		"reactions": obj{
			"url": url + "/reactions", "total_count": j - 1, "+1": j - 1, "-1": 0, "laugh": 0,
			"confused": 0, "heart": 0, "hooray": 0, "eyes": 0, "rocket": 0,
		},
	}
}

// GET /repos/{owner}/{repo}/issues/{number}/comments: the comments of an
// issue or pull request, ascending by id, paginated like every list;
// since (a timestamp) keeps those updated at or after it. An unknown
// number is 404, a since that is not a timestamp 422.
func (s *Server) handleIssueComments(w http.ResponseWriter, r *http.Request, rp repo) {
	n, err := strconv.Atoi(r.PathValue("number"))
	if err != nil || n < 1 || n > rp.totalItems() {
		notFound(s, w, r)
		return
	}
	var since time.Time
	if v := r.URL.Query().Get("since"); v != "" {
		if since, err = time.Parse(time.RFC3339, v); err != nil {
			writeError(s, w, r, http.StatusUnprocessableEntity, "Validation Failed")
			return
		}
	}
	var js []int
	for j := 1; j <= commentsOf(n); j++ {
		if !rp.commentUpdated(n, j).Before(since) {
			js = append(js, j)
		}
	}
	s.writeList(w, r, len(js), "", func(k int) any { return rp.commentJSON(n, js[k]) })
}
