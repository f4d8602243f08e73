package fakegithub

import (
	"fmt"
	"net/http"
)

// contributors of a repository: org repositories have 1 + idx%3 of the
// org's members (member j with 100/j + idx contributions, most first);
// the authenticated user's repositories have AuthUser alone.
func (r repo) contributorsJSON() []obj {
	var out []obj
	add := func(login string, n int) {
		u := simpleUser(login, "User")
		u["contributions"] = n
		out = append(out, u)
	}
	if r.org == nil {
		add(AuthUser, 10+r.idx)
		return out
	}
	for j := 1; j <= 1+r.idx%3 && j <= max(r.org.members, 1); j++ {
		add(memberLogin(r.org.login, j), 100/j+r.idx)
	}
	return out
}

func (s *Server) handleContributors(w http.ResponseWriter, r *http.Request, rp repo) {
	writeSlice(s, w, r, rp.contributorsJSON())
}

// invitations of an org: one pending invitation per 10 members
// (invitee-N, role direct_member, N odd: admin) and, when there is one, a
// failed invitation (failed-invitee-1, "Invitation expired").
func (o *orgSpec) invitations(failed bool) []obj {
	n := o.members / 10
	if failed {
		n = min(n, 1)
	}
	var out []obj
	for k := 1; k <= n; k++ {
		login := fmt.Sprintf("invitee-%d", k)
		role := "direct_member"
		if k%2 == 1 {
			role = "admin"
		}
		id := int64(7_000_000 + k)
		inv := obj{
			"id": id, "login": login, "node_id": nodeID("OrganizationInvitation", id),
			"email": nil, "role": role, "created_at": day(100+k, 0),
			"failed_at": nil, "failed_reason": nil,
			"inviter":              simpleUser(memberLogin(o.login, 1), "User"),
			"team_count":           k % 3,
			"invitation_teams_url": fmt.Sprintf("%s/organizations/%d/invitations/%d/teams", apiBase, o.id, id),
			"invitation_source":    "member",
		}
		if failed {
			inv["id"], inv["login"] = id+100, "failed-"+login
			inv["failed_at"], inv["failed_reason"] = day(110+k, 0), "Invitation expired"
		}
		out = append(out, inv)
	}
	return out
}

func (s *Server) handleInvitations(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	writeSlice(s, w, r, o.invitations(false))
}

func (s *Server) handleFailedInvitations(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	writeSlice(s, w, r, o.invitations(true))
}

// handleSearchCode is GET /search/code?q=org:NAME [WORDS] (see
// searchQuery; topic: and created: qualifiers are not code search's and
// are ignored):
// every repository of the org whose name contains every word has one
// match, its README.md, as a code-search-result-item {"name", "path",
// "sha", "repository", "score", ...}, served like repository search.
func (s *Server) handleSearchCode(w http.ResponseWriter, r *http.Request) {
	sq, ok := s.searchQuery(w, r)
	if !ok {
		return
	}
	o := sq.org
	idx := o.searchRepos(searchSpec{org: o, words: sq.words})
	s.writeSearch(w, r, len(idx), func(k int) any {
		rp := o.repo(idx[k])
		h := sha("readme", rp.fullName())
		return obj{
			"name": "README.md", "path": "README.md", "sha": h,
			"url":        apiBase + "/repos/" + rp.fullName() + "/contents/README.md?ref=" + h,
			"git_url":    apiBase + "/repos/" + rp.fullName() + "/git/blobs/" + h,
			"html_url":   webBase + "/" + rp.fullName() + "/blob/" + h + "/README.md",
			"repository": rp.simpleRepoJSON(), "score": 1.0,
		}
	})
}
