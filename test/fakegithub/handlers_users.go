package fakegithub

import (
	"net/http"
	"sort"
)

func (s *Server) handleRateLimit(w http.ResponseWriter, r *http.Request) {
	used := s.rateUsed()
	reset := s.rateReset()
	res := func(limit, used int64) obj {
		return obj{"limit": limit, "used": used, "remaining": limit - used, "reset": reset}
	}
	core := res(rateLimit, used)
	resources := obj{
		"core": core, "search": res(30, 0), "graphql": res(5000, 0), "integration_manifest": res(5000, 0),
		"source_import": res(100, 0), "code_scanning_upload": res(1000, 0),
		"actions_runner_registration": res(10000, 0), "scim": res(15000, 0),
		"dependency_snapshots": res(100, 0), "code_search": res(10, 0),
	}
	s.rateLimitResources(resources)
	writeJSON(s, w, http.StatusOK, obj{"resources": resources, "rate": resources["core"]})
}

func (s *Server) handleAuthUser(w http.ResponseWriter, r *http.Request) {
	writeJSON(s, w, http.StatusOK, userJSON(AuthUser, "User", authUserID, true))
}

func (s *Server) handleUser(w http.ResponseWriter, r *http.Request) {
	login := r.PathValue("username")
	if o, ok := s.org(login); ok {
		u := userJSON(o.login, "Organization", o.id, false)
		u["public_repos"] = o.publicRepos()
		writeJSON(s, w, http.StatusOK, u)
		return
	}
	if !s.lookupUser(login) {
		notFound(s, w, r)
		return
	}
	writeJSON(s, w, http.StatusOK, userJSON(login, "User", userID(login), false))
}

// userRepos lists AuthUser's repositories sorted as requested.
func userRepos(r *http.Request, keep func(repo) bool) []obj {
	var list []repo
	for i := range userRepoNames {
		if rp := userRepo(i); keep(rp) {
			list = append(list, rp)
		}
	}
	asc := ascending(r, "full_name")
	byName := r.URL.Query().Get("sort") == "" || r.URL.Query().Get("sort") == "full_name"
	sort.SliceStable(list, func(a, b int) bool {
		less := list[a].idx < list[b].idx
		if byName {
			less = list[a].name < list[b].name
		}
		if asc {
			return less
		}
		return !less
	})
	out := make([]obj, len(list))
	for i, rp := range list {
		out[i] = rp.repoJSON()
	}
	return out
}

// GET /user/repos: AuthUser's own repositories (visibility=all|public|private).
func (s *Server) handleAuthUserRepos(w http.ResponseWriter, r *http.Request) {
	vis := r.URL.Query().Get("visibility")
	writeSlice(s, w, r, userRepos(r, func(rp repo) bool {
		return vis == "" || vis == "all" || vis == rp.visibility()
	}))
}

// GET /users/{username}/repos: public repositories of a user or an org.
func (s *Server) handleUserRepos(w http.ResponseWriter, r *http.Request) {
	login := r.PathValue("username")
	if o, ok := s.org(login); ok {
		s.orgRepos(w, r, o, "public")
		return
	}
	if !s.lookupUser(login) {
		notFound(s, w, r)
		return
	}
	if login != AuthUser {
		writeSlice(s, w, r, []obj{})
		return
	}
	writeSlice(s, w, r, userRepos(r, func(rp repo) bool { return !rp.private() }))
}
