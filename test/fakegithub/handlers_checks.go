package fakegithub

import (
	"context"
	"net/http"
	"strconv"
	"strings"
)

// NonMemberToken is a token whose user belongs to no organization of the
// fake: GitHub answers such a caller's membership check with a 302 to the
// public-membership check (see handleMembership). Any other token, or
// none, is an org member's.
const NonMemberToken = "ghp_fake_NONMEMBER_0000000000000000"

// callerIsMember reports whether the request's caller is a member of the
// org it asks about.
func callerIsMember(r *http.Request) bool {
	return !strings.HasSuffix(r.Header.Get("Authorization"), " "+NonMemberToken)
}

// publicMember reports whether member j made their membership public
// (odd j).
func publicMember(j int) bool { return j%2 == 1 }

// memberIndex returns the member number of login in org, or 0.
func (o *orgSpec) memberIndex(login string) int {
	for j := 1; j <= o.members; j++ {
		if memberLogin(o.login, j) == login {
			return j
		}
	}
	return 0
}

// handleMembership is GET /orgs/{org}/members/{username} as GitHub
// documents it: 204 when the requester is an org member and the user is a
// member, 404 "Not Found" when the requester is a member and the user is
// not, and 302 to /orgs/{org}/public_members/{username} when the requester
// is not an org member.
func (s *Server) handleMembership(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	user := r.PathValue("username")
	if !callerIsMember(r) {
		s.setHeaders(w)
		w.Header().Set("Location", baseURL(r)+"/orgs/"+o.login+"/public_members/"+user)
		w.WriteHeader(http.StatusFound)
		return
	}
	if o.memberIndex(user) == 0 {
		notFound(s, w, r)
		return
	}
	s.setHeaders(w)
	w.WriteHeader(http.StatusNoContent)
}

// handlePublicMembership is GET /orgs/{org}/public_members/{username}: 204
// for a public member, 404 "Not Found" otherwise.
func (s *Server) handlePublicMembership(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	j := o.memberIndex(r.PathValue("username"))
	if j == 0 || !publicMember(j) {
		notFound(s, w, r)
		return
	}
	s.setHeaders(w)
	w.WriteHeader(http.StatusNoContent)
}

// handleSearchRepos is GET /search/repositories?q=org:NAME [topic:T]
// [WORDS] (see searchQuery): the org's repositories whose name contains
// every word and that carry every topic, in index order.
func (s *Server) handleSearchRepos(w http.ResponseWriter, r *http.Request) {
	o, topics, words, ok := s.searchQuery(w, r)
	if !ok {
		return
	}
	idx := o.searchRepos(topics, words)
	s.writeSearch(w, r, len(idx), func(k int) any { return o.repo(idx[k]).repoJSON() })
}

// searchQuery reads a search's q: org:NAME, topic:T qualifiers and words.
// It answers 422 itself (ok false) as GitHub does: with GitHub's errors
// array when q is missing, and "Validation Failed" for an org that cannot
// be searched (unknown here).
func (s *Server) searchQuery(w http.ResponseWriter, r *http.Request) (o *orgSpec, topics, words []string, ok bool) {
	q := r.URL.Query().Get("q")
	if strings.TrimSpace(q) == "" {
		body := errorBody(http.StatusUnprocessableEntity, "Validation Failed")
		body["errors"] = []obj{{"resource": "Search", "field": "q", "code": "missing"}}
		writeJSON(s, w, http.StatusUnprocessableEntity, body)
		return nil, nil, nil, false
	}
	var org string
	for _, f := range strings.Fields(q) {
		switch {
		case strings.HasPrefix(f, "org:"):
			org = strings.TrimPrefix(f, "org:")
		case strings.HasPrefix(f, "topic:"):
			topics = append(topics, strings.TrimPrefix(f, "topic:"))
		default:
			words = append(words, f)
		}
	}
	if o, ok = s.org(org); !ok {
		writeError(s, w, r, http.StatusUnprocessableEntity, "Validation Failed")
		return nil, nil, nil, false
	}
	return o, topics, words, true
}

// searchRepos lists the indexes of the org's repositories whose name
// contains every word and that carry every topic.
func (o *orgSpec) searchRepos(topics, words []string) []int {
	var idx []int
	for i := 0; i < o.repos; i++ {
		if searchMatch(o.repo(i), topics, words) {
			idx = append(idx, i)
		}
	}
	return idx
}

// writeSearch answers a search as GitHub does: {"total_count",
// "incomplete_results", "items"} with Cache-Control: no-cache and no ETag;
// incomplete_results is true under the KindIncompleteResults fault.
func (s *Server) writeSearch(w http.ResponseWriter, r *http.Request, n int, item func(k int) any) {
	w.Header().Set("Cache-Control", cacheControlNoCache)
	incomplete := strconv.FormatBool(isIncomplete(r))
	s.writeListPrefix(w, r, n, "items", `"incomplete_results":`+incomplete+`,`, item)
}

const incompleteKey ctxKey = 2

func withIncomplete(ctx context.Context) context.Context {
	return context.WithValue(ctx, incompleteKey, true)
}

func isIncomplete(r *http.Request) bool {
	v, _ := r.Context().Value(incompleteKey).(bool)
	return v
}

// baseURL is the server's own scheme://host, from the request.
func baseURL(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}
