package fakegithub

import (
	"net/http"
)

func (s *Server) handleOrg(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	writeJSON(s, w, http.StatusOK, o.orgJSON())
}

// repoTypeMatch applies the type filter of GET /orgs/{org}/repos.
func repoTypeMatch(typ string, rp repo) bool {
	switch typ {
	case "public":
		return !rp.private()
	case "private":
		return rp.private()
	case "forks":
		return rp.fork()
	case "sources":
		return !rp.fork()
	}
	return true // all, member, ""
}

func (s *Server) handleOrgRepos(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	s.orgRepos(w, r, o, r.URL.Query().Get("type"))
}

// orgRepos lists an org's repositories lazily: without a filter no index
// list is built, so scale-N orgs cost O(page).
func (s *Server) orgRepos(w http.ResponseWriter, r *http.Request, o *orgSpec, typ string) {
	asc := ascending(r, "created")
	var idx []int
	total := o.repos
	if typ != "" && typ != "all" && typ != "member" {
		for i := 0; i < o.repos; i++ {
			if repoTypeMatch(typ, o.repo(i)) {
				idx = append(idx, i)
			}
		}
		total = len(idx)
	}
	s.writeList(w, r, total, "", func(k int) any {
		if !asc {
			k = total - 1 - k
		}
		if idx != nil {
			k = idx[k]
		}
		return o.repo(k).repoJSON()
	})
}

func (s *Server) handleMembers(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	filter, role := r.URL.Query().Get("filter"), r.URL.Query().Get("role")
	out := []obj{}
	for j := 1; j <= o.members; j++ {
		if filter == "2fa_disabled" && !member2FADisabled(j) {
			continue
		}
		if (role == "admin" && j > o.admins) || (role == "member" && j <= o.admins) {
			continue
		}
		out = append(out, simpleUser(memberLogin(o.login, j), "User"))
	}
	writeSlice(s, w, r, out)
}

func (s *Server) handleOutside(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	filter := r.URL.Query().Get("filter")
	out := []obj{}
	for j := 1; j <= o.outside; j++ {
		if filter == "2fa_disabled" && !outside2FADisabled(j) {
			continue
		}
		out = append(out, simpleUser(outsideLogin(o.login, j), "User"))
	}
	writeSlice(s, w, r, out)
}

func (s *Server) handleTeams(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	s.writeList(w, r, len(o.teams), "", func(k int) any { return o.teamJSON(k) })
}

func (s *Server) handleHooks(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	s.writeList(w, r, o.hooks, "", func(k int) any { return o.hookJSON(k + 1) })
}

func (o *orgSpec) dependabotCount() int {
	if o.repos == 0 {
		return 0
	}
	return o.dependabot
}

func (o *orgSpec) secretCount() int {
	if o.repos == 0 {
		return 0
	}
	return o.secrets
}

// alertList filters alert numbers 1..n and orders them newest first
// (direction=asc for oldest first).
func alertList(r *http.Request, n int, keep func(k int) bool) []int {
	var ks []int
	for k := 1; k <= n; k++ {
		if keep(k) {
			ks = append(ks, k)
		}
	}
	if r.URL.Query().Get("direction") != "asc" {
		for a, b := 0, len(ks)-1; a < b; a, b = a+1, b-1 {
			ks[a], ks[b] = ks[b], ks[a]
		}
	}
	return ks
}

func (s *Server) handleDependabot(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	q := r.URL.Query()
	ks := alertList(r, o.dependabotCount(), func(k int) bool {
		return inList(q.Get("state"), depState(k)) && inList(q.Get("severity"), depSeverity(k)) &&
			inList(q.Get("ecosystem"), depEcosystem(k)) && inList(q.Get("package"), depPackage(k))
	})
	s.writeList(w, r, len(ks), "", func(i int) any { return o.dependabotJSON(ks[i]) })
}

func (s *Server) handleSecretScanning(w http.ResponseWriter, r *http.Request, o *orgSpec) {
	q := r.URL.Query()
	ks := alertList(r, o.secretCount(), func(k int) bool {
		res, _ := secretResolution(k).(string)
		return inList(q.Get("state"), secretState(k)) && inList(q.Get("secret_type"), secretType(k)) &&
			(q.Get("resolution") == "" || inList(q.Get("resolution"), res)) &&
			inList(q.Get("validity"), secretValidity(k))
	})
	s.writeList(w, r, len(ks), "", func(i int) any { return o.secretJSON(ks[i]) })
}
