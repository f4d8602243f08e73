package fakegithub

import (
	"net/http"
	"strings"
)

func (s *Server) routes() {
	h := func(pattern string, f func(http.ResponseWriter, *http.Request)) {
		s.mux.HandleFunc("GET "+pattern, f)
	}
	h("/rate_limit", s.handleRateLimit)
	h("/zen", s.handleZen)
	h("/versions", s.handleVersions)
	h("/repositories", s.handlePublicRepos)
	h("/user", s.handleAuthUser)
	h("/user/repos", s.handleAuthUserRepos)
	h("/users/{username}", s.handleUser)
	h("/users/{username}/repos", s.handleUserRepos)
	s.mux.HandleFunc("POST /app/installations/{id}/access_tokens", s.handleAccessTokens)
	h("/app/installations", s.handleListInstallations)

	h("/orgs/{org}", s.withOrg(s.handleOrg))
	h("/orgs/{org}/repos", s.withOrg(s.handleOrgRepos))
	h("/orgs/{org}/members", s.withOrg(s.handleMembers))
	h("/orgs/{org}/members/{username}", s.withOrg(s.handleMembership))
	h("/orgs/{org}/public_members/{username}", s.withOrg(s.handlePublicMembership))
	h("/orgs/{org}/outside_collaborators", s.withOrg(s.handleOutside))
	h("/orgs/{org}/teams", s.withOrg(s.handleTeams))
	h("/orgs/{org}/hooks", s.withOrg(s.handleHooks))
	h("/orgs/{org}/dependabot/alerts", s.withOrg(s.handleDependabot))
	h("/orgs/{org}/secret-scanning/alerts", s.withOrg(s.handleSecretScanning))

	h("/repos/{owner}/{repo}", s.withRepo(s.handleRepo))
	h("/repos/{owner}/{repo}/issues", s.withRepo(s.handleIssues))
	h("/repos/{owner}/{repo}/issues/{number}", s.withRepo(s.handleIssue))
	h("/repos/{owner}/{repo}/issues/{number}/comments", s.withRepo(s.handleIssueComments))
	h("/repos/{owner}/{repo}/pulls", s.withRepo(s.handlePulls))
	h("/repos/{owner}/{repo}/actions/runs", s.withRepo(s.handleRuns))
	h("/repos/{owner}/{repo}/branches", s.withRepo(s.handleBranches))
	h("/repos/{owner}/{repo}/branches/{branch}", s.withRepo(s.handleBranch))
	h("/repos/{owner}/{repo}/branches/{branch}/protection", s.withRepo(s.handleProtection))
	h("/repos/{owner}/{repo}/collaborators", s.withRepo(s.handleCollaborators))
	h("/repos/{owner}/{repo}/git/trees/{tree_sha}", s.withRepo(s.handleGitTree)) // trees.go
	h("/search/repositories", s.handleSearchRepos)
	h("/search/code", s.handleSearchCode)
	h("/repos/{owner}/{repo}/contributors", s.withRepo(s.handleContributors))
	h("/repos/{owner}/{repo}/contents/{path...}", s.withRepo(s.handleContents))
	h("/repos/{owner}/{repo}/git/blobs/{sha}", s.withRepo(s.handleBlob))
	h("/repos/{owner}/{repo}/compare/{basehead}", s.withRepo(s.handleCompare))     // caps.go
	h("/repos/{owner}/{repo}/commits/{ref}", s.withRepo(s.handleCommit))           // caps.go
	h("/repos/{owner}/{repo}/pulls/{number}/files", s.withRepo(s.handlePullFiles)) // caps.go
	h("/repos/{owner}/{repo}/events", s.withRepo(s.handleRepoEvents))              // caps.go
	h("/orgs/{org}/invitations", s.withOrg(s.handleInvitations))
	h("/orgs/{org}/failed_invitations", s.withOrg(s.handleFailedInvitations))

	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { notFound(s, w, r) })
	s.cmux = s.complianceRoutes()
}

func (s *Server) withOrg(f func(http.ResponseWriter, *http.Request, *orgSpec)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		o, ok := s.org(r.PathValue("org"))
		if !ok {
			notFound(s, w, r)
			return
		}
		f(w, r, o)
	}
}

func (s *Server) withRepo(f func(http.ResponseWriter, *http.Request, repo)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rp, ok := s.resolveRepo(r.PathValue("owner"), r.PathValue("repo"))
		if !ok {
			notFound(s, w, r)
			return
		}
		rp.protOverride = s.protectionOverride(rp.fullName())
		f(w, r, rp)
	}
}

func (s *Server) resolveRepo(owner, name string) (repo, bool) {
	if owner == AuthUser {
		for i, n := range userRepoNames {
			if n == name {
				return userRepo(i), true
			}
		}
		return repo{}, false
	}
	o, ok := s.org(owner)
	if !ok {
		return repo{}, false
	}
	i, ok := o.repoIndex(name)
	if !ok {
		return repo{}, false
	}
	return o.repo(i), true
}

// inList reports whether v is in the comma-separated filter (empty = any).
func inList(filter, v string) bool {
	if filter == "" {
		return true
	}
	for _, f := range strings.Split(filter, ",") {
		if strings.TrimSpace(f) == v {
			return true
		}
	}
	return false
}

// ascending reports the effective direction: "asc"/"desc" when given,
// else asc only for sort=full_name (GitHub's default for repo lists).
func ascending(r *http.Request, defaultSort string) bool {
	switch r.URL.Query().Get("direction") {
	case "asc":
		return true
	case "desc":
		return false
	}
	sortKey := r.URL.Query().Get("sort")
	if sortKey == "" {
		sortKey = defaultSort
	}
	return sortKey == "full_name"
}
