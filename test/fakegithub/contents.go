package fakegithub

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// Repository contents (GET /repos/{owner}/{repo}/contents/{path}), as
// GitHub serves them: a file is an object whose content is base64
// wrapped at 60 characters with "\n" ("encoding": "base64"); a file over
// 1 MB is served with "encoding": "none" and an empty content (GitHub
// inlines files up to 1 MB); a directory is an array of its entries
// (files and directories, without content); anything else is 404. A
// path whose slashes arrive escaped (%2F) is 404 as well, as GitHub
// answers it for fine-grained tokens (octokit.js#2422): a client must
// send a path's slashes as written.
//
// The seeded files are the supply-chain fixtures of the compliance
// controls in docs/check.md: tiny's three repositories each have one
// workflow directory, and each is a different case.
//
//	tiny/alpha  safe: on push and pull_request, every action pinned to a commit
//	tiny/beta   dangerous: on pull_request_target, checks out the pull
//	            request's head (and its actions are pinned)
//	tiny/gamma  unpinned: actions by tag or branch (actions/checkout@v4)
//	acme/repo-000  .github/workflows/big.yml, over 1 MB (encoding none)
var repoFiles = map[string]map[string]string{
	"tiny/alpha": {
		".github/workflows/ci.yml": WorkflowSafe,
		"README.md":                "# alpha\n",
	},
	"tiny/beta": {
		".github/workflows/pr.yml": WorkflowPRTarget,
		"CODEOWNERS":               "* @tiny/core\n",
	},
	"tiny/gamma": {
		".github/workflows/build.yml": WorkflowUnpinned,
	},
	"acme/repo-000": {
		".github/workflows/big.yml": bigWorkflow(),
	},
}

// The seeded workflows (exported: the tests compare decoded contents).
const (
	WorkflowSafe = `name: CI
on: [push, pull_request]
permissions:
  contents: read
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
      - uses: ./.github/actions/setup
      - run: make test
`
	WorkflowPRTarget = `name: Label and test pull requests
on:
  pull_request_target:
    types: [opened, synchronize]
permissions: write-all
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683
        with:
          ref: ${{ github.event.pull_request.head.sha }}
      - run: make test
`
	WorkflowUnpinned = `name: Build
"on":
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: docker/build-push-action@master
      - uses: actions/setup-go@0aaccfd150d50ccaeb58ebd88d36e91967a5f35b
`
)

// BigWorkflowBytes is the size of acme/repo-000's big.yml: over GitHub's
// 1 MB inline limit.
const BigWorkflowBytes = 1<<20 + 1000

func bigWorkflow() string {
	var b strings.Builder
	b.WriteString("name: Big\non: push\njobs:\n  big:\n    runs-on: ubuntu-latest\n    steps:\n")
	for b.Len() < BigWorkflowBytes-40 {
		b.WriteString("      - run: echo padding\n")
	}
	out := b.String()
	return out + strings.Repeat("#", BigWorkflowBytes-len(out))
}

// maxInlineBytes is the largest file GitHub's contents API inlines.
const maxInlineBytes = 1 << 20

func (s *Server) handleContents(w http.ResponseWriter, r *http.Request, rp repo) {
	p := r.PathValue("path")
	if strings.Contains(strings.ToUpper(r.URL.EscapedPath()), "%2F") {
		notFound(s, w, r)
		return
	}
	files := repoFiles[rp.fullName()]
	if c, ok := files[p]; ok {
		writeJSON(s, w, http.StatusOK, fileJSON(rp, p, c, true))
		return
	}
	entries := map[string]map[string]any{}
	prefix := strings.TrimSuffix(p, "/") + "/"
	if p == "" {
		prefix = ""
	}
	for fp, c := range files {
		rest, ok := strings.CutPrefix(fp, prefix)
		if !ok {
			continue
		}
		if dir, _, isDir := strings.Cut(rest, "/"); isDir {
			entries[dir] = entryJSON(rp, prefix+dir, "dir", 0)
		} else {
			entries[rest] = fileJSON(rp, fp, c, false)
		}
	}
	if len(entries) == 0 {
		notFound(s, w, r)
		return
	}
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	list := make([]map[string]any, len(names))
	for i, n := range names {
		list[i] = entries[n]
	}
	writeJSON(s, w, http.StatusOK, list)
}

func blobSHA(c string) string {
	h := sha1.Sum([]byte("blob " + strconv.Itoa(len(c)) + "\x00" + c))
	return hex.EncodeToString(h[:])
}

func entryJSON(rp repo, p, typ string, size int) map[string]any {
	api := apiBase + "/repos/" + rp.fullName() + "/contents/" + p + "?ref=main"
	html := webBase + "/" + rp.fullName() + "/blob/main/" + p
	name := p[strings.LastIndexByte(p, '/')+1:]
	sha := blobSHA(p)
	return map[string]any{
		"type": typ, "name": name, "path": p, "sha": sha, "size": size,
		"url": api, "html_url": html, "git_url": apiBase + "/repos/" + rp.fullName() + "/git/blobs/" + sha,
		"download_url": nil,
		"_links":       map[string]any{"self": api, "git": apiBase + "/repos/" + rp.fullName() + "/git/blobs/" + sha, "html": html},
	}
}

// fileJSON is a file's object; with content (a GET of the file itself)
// it carries the content, base64 wrapped at 60 characters, or none over
// 1 MB.
func fileJSON(rp repo, p, c string, withContent bool) map[string]any {
	e := entryJSON(rp, p, "file", len(c))
	e["sha"] = blobSHA(c)
	e["download_url"] = "https://raw.githubusercontent.com/" + rp.fullName() + "/main/" + p
	if !withContent {
		return e
	}
	if len(c) > maxInlineBytes {
		e["encoding"], e["content"] = "none", ""
		return e
	}
	e["encoding"], e["content"] = "base64", wrapBase64(c)
	return e
}

// handleBlob serves GET /repos/{owner}/{repo}/git/blobs/{file_sha}: a
// seeded file of the repository by its blob SHA (the sha of its contents
// entry), base64 wrapped as the contents API does, whatever its size
// (GitHub serves blobs up to 100 MB); 404 for any other SHA.
func (s *Server) handleBlob(w http.ResponseWriter, r *http.Request, rp repo) {
	sha := r.PathValue("sha")
	for _, c := range repoFiles[rp.fullName()] {
		if blobSHA(c) == sha {
			writeJSON(s, w, http.StatusOK, map[string]any{
				"sha": sha, "node_id": nodeID("Blob", hashID(sha)), "size": len(c),
				"url":      apiBase + "/repos/" + rp.fullName() + "/git/blobs/" + sha,
				"content":  wrapBase64(c),
				"encoding": "base64",
			})
			return
		}
	}
	notFound(s, w, r)
}

// wrapBase64 is c in base64 with a "\n" after every 60 characters and
// at the end, as GitHub sends file contents.
func wrapBase64(c string) string {
	enc := base64.StdEncoding.EncodeToString([]byte(c))
	var b strings.Builder
	for len(enc) > 60 {
		b.WriteString(enc[:60])
		b.WriteByte('\n')
		enc = enc[60:]
	}
	b.WriteString(enc)
	b.WriteByte('\n')
	return b.String()
}
