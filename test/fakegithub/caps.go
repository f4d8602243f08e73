package fakegithub

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Where GitHub stops an answer at a count without a marker (issue 32), as
// GitHub's REST documentation says:
//
//	GET /repos/{o}/{r}/compare/{basehead}   at most 300 files
//	GET /repos/{o}/{r}/commits/{ref}        at most 3,000 files over its pages (300 a page)
//	GET /repos/{o}/{r}/pulls/{n}/files      at most 3,000 files
//	GET /repos/{o}/{r}/contents/{dir}       at most 1,000 entries
//	GET /repos/{o}/{r}/events               the last 300 events of 90 days
//
// In every repository: basehead CapBasehead compares 300 files (the
// cap), any other 2; ref CapRef is a commit of 3,000 files over 10 pages,
// any other of 2; pull request CapPull has 3,000 files, any other 3; the
// directory CapDir of acme/repo-001 has 1,000 entries; the events of
// acme/repo-001 are 300 (of tiny/alpha: 4).
const (
	CapBasehead = "main...huge"
	CapRef      = "c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4c4"
	// PagedRef is a commit of 650 files: three pages of its files
	// under the cap, one row.
	PagedRef = "a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6"
	CapPull  = 3000
	CapDir   = "generated"
)

func init() {
	files := map[string]string{}
	for k := range 1000 {
		files[fmt.Sprintf("%s/f%04d.txt", CapDir, k)] = strconv.Itoa(k) + "\n"
	}
	repoFiles["acme/repo-001"] = files
}

func diffEntry(k int) obj {
	name := fmt.Sprintf("src/file%04d.go", k)
	sha := blobSHA(name)
	return obj{"sha": sha, "filename": name, "status": "modified", "additions": 1, "deletions": 1, "changes": 2,
		"blob_url": webBase + "/blob/" + sha + "/" + name, "raw_url": webBase + "/raw/" + sha + "/" + name,
		"contents_url": apiBase + "/contents/" + name, "patch": "@@ -1 +1 @@\n-a\n+b"}
}

func diffEntries(n int) []obj {
	out := make([]obj, n)
	for k := range out {
		out[k] = diffEntry(k)
	}
	return out
}

func (s *Server) handleCompare(w http.ResponseWriter, r *http.Request, rp repo) {
	bh := r.PathValue("basehead")
	n := 2
	if bh == CapBasehead {
		n = 300
	}
	base := apiBase + "/repos/" + rp.fullName()
	writeJSON(s, w, http.StatusOK, obj{
		"url": base + "/compare/" + bh, "html_url": webBase + "/" + rp.fullName() + "/compare/" + bh,
		"permalink_url": base + "/compare/" + bh, "diff_url": webBase + "/" + rp.fullName() + "/compare/" + bh + ".diff",
		"patch_url": webBase + "/" + rp.fullName() + "/compare/" + bh + ".patch",
		"status":    "ahead", "ahead_by": 1, "behind_by": 0, "total_commits": 1,
		"commits": []obj{{"sha": CapRef, "commit": obj{"message": "change"}}},
		"files":   diffEntries(n),
	})
}

// handleCommit serves one commit; its files are paged like GitHub's (a
// page of per_page files, 300 by default, each page the whole commit with
// its slice of files, Link to the next).
func (s *Server) handleCommit(w http.ResponseWriter, r *http.Request, rp repo) {
	ref := r.PathValue("ref")
	total := 2
	switch ref {
	case CapRef:
		total = 3000
	case PagedRef:
		total = 650
	}
	per := 300
	if p, err := strconv.Atoi(r.URL.Query().Get("per_page")); err == nil && p > 0 && p < 300 {
		per = p
	}
	page := pageParam(r)
	last := max((total+per-1)/per, 1)
	start := min((page-1)*per, total)
	end := min(start+per, total)
	files := make([]obj, 0, end-start)
	for k := start; k < end; k++ {
		files = append(files, diffEntry(k))
	}
	if l := linkHeader(r, page, last); l != "" {
		w.Header().Set("Link", l)
	}
	writeJSON(s, w, http.StatusOK, obj{"sha": ref, "url": apiBase + "/repos/" + rp.fullName() + "/commits/" + ref,
		"commit": obj{"message": "change"}, "parents": []obj{{"sha": strings.Repeat("b", 40)}}, "stats": obj{"total": 2 * total, "additions": total, "deletions": total}, "files": files})
}

func (s *Server) handlePullFiles(w http.ResponseWriter, r *http.Request, rp repo) {
	n := 3
	if r.PathValue("number") == strconv.Itoa(CapPull) {
		n = 3000
	}
	s.writeList(w, r, n, "", func(k int) any { return diffEntry(k) })
}

func (s *Server) handleRepoEvents(w http.ResponseWriter, r *http.Request, rp repo) {
	n := 4
	if rp.fullName() == "acme/repo-001" {
		n = 300
	}
	s.writeList(w, r, n, "", func(k int) any {
		id := strconv.Itoa(40_000_000_000 + n - k)
		return obj{"id": id, "type": "PushEvent", "public": true, "created_at": day(200-k/10, k%10),
			"actor": simpleUser(memberLogin("acme", 1), "User"), "repo": obj{"id": rp.id, "name": rp.fullName(), "url": apiBase + "/repos/" + rp.fullName()},
			"payload": obj{"ref": "refs/heads/main"}}
	})
}
