package fakegithub

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
)

// zenSayings are what GET /zen answers, one per request in turn (GitHub
// picks one at random).
var zenSayings = []string{
	"Responsive is better than fast.",
	"It's not fully shipped until it's fast.",
	"Anything added dilutes everything else.",
	"Practicality beats purity.",
	"Approachable is better than simple.",
	"Mind your words, they are important.",
	"Speak like a human.",
	"Half measures are as bad as nothing at all.",
	"Encourage flow.",
	"Non-blocking is better than blocking.",
	"Favor focus over features.",
	"Avoid administrative distraction.",
	"Design for failure.",
	"Keep it logically awesome.",
}

// ZenSayings returns the sayings GET /zen answers with.
func ZenSayings() []string { return slices.Clone(zenSayings) }

// GET /zen: one saying as text/plain, as GitHub sends it.
func (s *Server) handleZen(w http.ResponseWriter, r *http.Request) {
	body := zenSayings[int((s.zenSeq.Add(1)-1)%int64(len(zenSayings)))]
	s.setHeaders(w)
	w.Header().Set("Content-Type", "text/plain;charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(body)) //nolint:errcheck
}

// APIVersions are the REST API versions GET /versions lists.
var APIVersions = []string{"2022-11-28"}

// GET /versions: the supported API versions (dates), an array of strings.
func (s *Server) handleVersions(w http.ResponseWriter, r *http.Request) {
	writeJSON(s, w, http.StatusOK, APIVersions)
}

// PublicReposPage is how many repositories one page of GET /repositories
// holds (GitHub's page size there; per_page does not change it).
const PublicReposPage = 100

// GET /repositories: every public repository (the built-in and WithRepos
// orgs' and AuthUser's; not the lazily made scale-N orgs') as
// minimal-repository, ascending by id. As on GitHub, pagination is by
// since alone (a repository id: only greater ids), and Link carries only
// rel="next", pointing past the last id of the page; the last page has
// no Link. A since that is not an integer is 422.
func (s *Server) handlePublicRepos(w http.ResponseWriter, r *http.Request) {
	since := int64(-1)
	if v := r.URL.Query().Get("since"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			writeError(s, w, r, http.StatusUnprocessableEntity, "Validation Failed")
			return
		}
		since = n
	}
	// The next PublicReposPage+1 public repositories of each owner after
	// since, merged: one more than a page tells whether there is a next.
	var found []repo
	take := func(n int, at func(i int) repo) {
		got := 0
		for i := 0; i < n && got <= PublicReposPage; i++ {
			if rp := at(i); !rp.private() && rp.id > since {
				found = append(found, rp)
				got++
			}
		}
	}
	take(len(userRepoNames), userRepo)
	for _, o := range s.orgs {
		start := 0
		if since >= o.repoBase {
			start = int(min(since-o.repoBase, int64(o.repos)))
		}
		take(o.repos-start, func(i int) repo { return o.repo(start + i) })
	}
	sort.Slice(found, func(a, b int) bool { return found[a].id < found[b].id })
	more := len(found) > PublicReposPage
	if more {
		found = found[:PublicReposPage]
	}
	out := make([]obj, len(found))
	for i, rp := range found {
		m := rp.simpleRepoJSON()
		m["git_url"] = "git://github.com/" + rp.fullName() + ".git"
		m["ssh_url"] = "git@github.com:" + rp.fullName() + ".git"
		out[i] = m
	}
	if more {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		w.Header().Set("Link", fmt.Sprintf(`<%s://%s/repositories?since=%d>; rel="next"`, scheme, r.Host, found[len(found)-1].id))
	}
	writeJSON(s, w, http.StatusOK, out)
}
