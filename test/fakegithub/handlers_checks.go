package fakegithub

import (
	"context"
	"net/http"
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
