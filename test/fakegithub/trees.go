package fakegithub

import "net/http"

// BigTreeSHA is the tree whose recursive listing GitHub cuts short in the
// fake: GET .../git/trees/BigTreeSHA?recursive=1 answers "truncated":
// true with a partial list of entries. Without recursive it answers its
// top-level entries, complete (two blobs and the subtree SubTreeSHA),
// and every other tree sha answers two blobs, complete. (GitHub cuts a
// listing at 100,000 entries or 7 MB; issue 32.)
const (
	BigTreeSHA = "b16b16b16b16b16b16b16b16b16b16b16b16b16b"
	SubTreeSHA = "5ab5ab5ab5ab5ab5ab5ab5ab5ab5ab5ab5ab5ab5"
)

func (s *Server) handleGitTree(w http.ResponseWriter, r *http.Request, rp repo) {
	sha := r.PathValue("tree_sha")
	base := apiBase + "/repos/" + rp.fullName() + "/git/"
	blob := func(path, sha string, size int) obj {
		return obj{"path": path, "mode": "100644", "type": "blob", "sha": sha, "size": size, "url": base + "blobs/" + sha}
	}
	sub := obj{"path": "vendor", "mode": "040000", "type": "tree", "sha": SubTreeSHA, "url": base + "trees/" + SubTreeSHA}
	entries := []obj{blob("README.md", "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1", 120), blob("main.go", "a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2", 2048)}
	truncated := false
	switch {
	case sha == BigTreeSHA && r.URL.Query().Get("recursive") != "":
		// Cut short before vendor/app.bin, the binary a control looks for.
		entries = append(entries, sub, blob("vendor/a.go", "a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3", 10))
		truncated = true
	case sha == BigTreeSHA:
		entries = append(entries, sub)
	case sha == SubTreeSHA:
		entries = []obj{blob("a.go", "a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3", 10), blob("app.bin", "a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4a4", 9_000_000)}
	}
	writeJSON(s, w, http.StatusOK, obj{"sha": sha, "url": base + "trees/" + sha, "tree": entries, "truncated": truncated})
}
