package fakegithub

import (
	"net/http"
	"strconv"
)

func (s *Server) handleRepo(w http.ResponseWriter, r *http.Request, rp repo) {
	writeJSON(s, w, http.StatusOK, rp.fullRepoJSON())
}

// stateMatch applies state=open (default)|closed|all.
func stateMatch(r *http.Request, open bool) bool {
	switch r.URL.Query().Get("state") {
	case "all":
		return true
	case "closed":
		return !open
	}
	return open
}

// numbers returns item numbers matching keep, newest (highest) first unless
// direction=asc.
func numbers(r *http.Request, n int, keep func(n int) bool) []int {
	return alertList(r, n, keep)
}

func (s *Server) handleIssues(w http.ResponseWriter, r *http.Request, rp repo) {
	ns := numbers(r, rp.totalItems(), func(n int) bool { return stateMatch(r, rp.kindOf(n).open()) })
	s.writeList(w, r, len(ns), "", func(i int) any { return rp.issueJSON(ns[i]) })
}

func (s *Server) handleIssue(w http.ResponseWriter, r *http.Request, rp repo) {
	n, err := strconv.Atoi(r.PathValue("number"))
	if err != nil || n < 1 || n > rp.totalItems() {
		notFound(s, w, r)
		return
	}
	writeJSON(s, w, http.StatusOK, rp.issueJSON(n))
}

func (s *Server) handlePulls(w http.ResponseWriter, r *http.Request, rp repo) {
	ns := numbers(r, rp.totalItems(), func(n int) bool {
		k := rp.kindOf(n)
		return k.isPull() && stateMatch(r, k.open())
	})
	s.writeList(w, r, len(ns), "", func(i int) any { return rp.pullJSON(ns[i]) })
}

func (s *Server) handleRuns(w http.ResponseWriter, r *http.Request, rp repo) {
	q := r.URL.Query()
	var js []int
	for j := rp.runs(); j >= 1; j-- { // newest first
		st, concl := rp.runStatus(j)
		c, _ := concl.(string)
		if (q.Get("status") == "" || q.Get("status") == st || q.Get("status") == c) &&
			inList(q.Get("event"), runEvents[j%3]) && inList(q.Get("branch"), rp.defaultBranch()) {
			js = append(js, j)
		}
	}
	s.writeList(w, r, len(js), "workflow_runs", func(i int) any { return rp.runJSON(js[i]) })
}

func (s *Server) handleBranches(w http.ResponseWriter, r *http.Request, rp repo) {
	prot := r.URL.Query().Get("protected")
	out := []obj{}
	for _, b := range rp.branchNames() {
		p := rp.branchProtected(b)
		if (prot == "true" && !p) || (prot == "false" && p) {
			continue
		}
		out = append(out, rp.shortBranchJSON(b))
	}
	writeSlice(s, w, r, out)
}

func (s *Server) handleBranch(w http.ResponseWriter, r *http.Request, rp repo) {
	b := r.PathValue("branch")
	if !rp.hasBranch(b) {
		writeError(s, w, r, http.StatusNotFound, "Branch not found")
		return
	}
	writeJSON(s, w, http.StatusOK, rp.branchJSON(b))
}

func (s *Server) handleProtection(w http.ResponseWriter, r *http.Request, rp repo) {
	b := r.PathValue("branch")
	switch {
	case !rp.hasBranch(b):
		writeError(s, w, r, http.StatusNotFound, "Branch not found")
	case !rp.branchProtected(b):
		writeError(s, w, r, http.StatusNotFound, "Branch not protected")
	default:
		writeJSON(s, w, http.StatusOK, rp.protectionJSON(b))
	}
}

// collaboratorJSON is GitHub's collaborator.
func collaboratorJSON(login, role string) obj {
	u := simpleUser(login, "User")
	admin := role == "admin"
	push := role != "read"
	u["permissions"] = obj{"admin": admin, "maintain": admin, "push": push, "triage": push, "pull": true}
	u["role_name"] = role
	return u
}

// GET /repos/{owner}/{repo}/collaborators: the org's admins (admin), for
// private repos also <org>-contractor-1 (write, outside collaborator).
func (s *Server) handleCollaborators(w http.ResponseWriter, r *http.Request, rp repo) {
	aff := r.URL.Query().Get("affiliation")
	out := []obj{}
	if rp.org == nil {
		if aff != "outside" {
			out = append(out, collaboratorJSON(AuthUser, "admin"))
		}
		writeSlice(s, w, r, out)
		return
	}
	if aff != "outside" {
		for j := 1; j <= rp.org.admins; j++ {
			out = append(out, collaboratorJSON(memberLogin(rp.org.login, j), "admin"))
		}
	}
	if rp.private() && rp.org.outside > 0 {
		out = append(out, collaboratorJSON(outsideLogin(rp.org.login, 1), "write"))
	}
	writeSlice(s, w, r, out)
}
