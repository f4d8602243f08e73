package fakegithub

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sort"
	"time"
)

// sha is a stable fake commit sha.
func sha(parts ...any) string {
	h := sha1.Sum([]byte(fmt.Sprint(parts...)))
	return hex.EncodeToString(h[:])
}

// itemKind classifies issue number n of a repository.
type itemKind int

const (
	openIssue itemKind = iota
	closedIssue
	openPull
	closedPull
)

func (r repo) totalItems() int {
	return r.openIssues() + r.closedIssues() + r.openPulls() + r.closedPulls()
}

func (r repo) kindOf(n int) itemKind {
	switch {
	case n <= r.openIssues():
		return openIssue
	case n <= r.openIssues()+r.closedIssues():
		return closedIssue
	case n <= r.openIssues()+r.closedIssues()+r.openPulls():
		return openPull
	}
	return closedPull
}

func (k itemKind) isPull() bool { return k == openPull || k == closedPull }
func (k itemKind) open() bool   { return k == openIssue || k == openPull }

func (r repo) itemAuthor(n int) string {
	if r.org == nil || r.org.members == 0 {
		return AuthUser
	}
	return memberLogin(r.org.login, (n+r.idx)%r.org.members+1)
}

func (r repo) itemCreated(n int) time.Time { return r.created().AddDate(0, 0, n) }

// merged reports whether closed pull n was merged (even numbers).
func merged(n int) bool { return n%2 == 0 }

var labelNames = []string{"bug", "enhancement"}

func (r repo) labels(n int) []obj {
	out := []obj{}
	if n%3 == 2 {
		return out
	}
	name := labelNames[n%3]
	id := int64(700_000_000) + int64(n%3)
	out = append(out, obj{
		"id": id, "node_id": nodeID("Label", id), "url": apiBase + "/repos/" + r.fullName() + "/labels/" + name,
		"name": name, "description": nil, "color": []string{"d73a4a", "a2eeef"}[n%3], "default": true,
	})
	return out
}

// issueJSON is GitHub's issue; pull requests carry a pull_request key.
func (r repo) issueJSON(n int) obj {
	k := r.kindOf(n)
	api := fmt.Sprintf("%s/repos/%s/issues/%d", apiBase, r.fullName(), n)
	html := fmt.Sprintf("%s/%s/issues/%d", webBase, r.fullName(), n)
	created := r.itemCreated(n)
	id := r.id*100 + int64(n)
	m := obj{
		"id": id, "node_id": nodeID("Issue", id), "url": api,
		"repository_url": apiBase + "/repos/" + r.fullName(),
		"labels_url":     api + "/labels{/name}", "comments_url": api + "/comments",
		"events_url": api + "/events", "timeline_url": api + "/timeline",
		"number": n, "title": r.itemTitle(n), "body": fmt.Sprintf("Body of %s #%d.", r.fullName(), n),
		"user": simpleUser(r.itemAuthor(n), "User"), "labels": r.labels(n),
		"assignee": nil, "assignees": []obj{}, "milestone": nil,
		"locked": false, "active_lock_reason": nil, "comments": n % 4,
		"created_at": ts(created), "updated_at": ts(created.Add(2 * time.Hour)),
		"closed_at": nil, "state": "open", "state_reason": nil,
		"author_association": "MEMBER",
	}
	if !k.open() {
		m["state"] = "closed"
		m["state_reason"] = "completed"
		m["closed_at"] = ts(created.Add(time.Hour))
	}
	if k.isPull() {
		html = fmt.Sprintf("%s/%s/pull/%d", webBase, r.fullName(), n)
		var mergedAt any
		if k == closedPull && merged(n) {
			mergedAt = ts(created.Add(time.Hour))
		}
		m["draft"] = k == openPull && n%5 == 0
		m["pull_request"] = obj{
			"url":       fmt.Sprintf("%s/repos/%s/pulls/%d", apiBase, r.fullName(), n),
			"html_url":  html,
			"diff_url":  html + ".diff",
			"patch_url": html + ".patch",
			"merged_at": mergedAt,
		}
	}
	m["html_url"] = html
	return m
}

func (r repo) itemTitle(n int) string {
	if r.kindOf(n).isPull() {
		return fmt.Sprintf("Change %d in %s", n, r.name)
	}
	return fmt.Sprintf("Issue %d in %s", n, r.name)
}

func (r repo) branchRef(ref, commit string) obj {
	return obj{
		"label": r.owner + ":" + ref, "ref": ref, "sha": commit,
		"user": r.ownerJSON(), "repo": r.repoJSON(),
	}
}

// pullJSON is GitHub's pull-request-simple.
func (r repo) pullJSON(n int) obj {
	k := r.kindOf(n)
	api := fmt.Sprintf("%s/repos/%s/pulls/%d", apiBase, r.fullName(), n)
	html := fmt.Sprintf("%s/%s/pull/%d", webBase, r.fullName(), n)
	issue := fmt.Sprintf("%s/repos/%s/issues/%d", apiBase, r.fullName(), n)
	created := r.itemCreated(n)
	id := 2_000_000_000_000 + r.id*100 + int64(n)
	head := sha(r.fullName(), "pull", n)
	m := obj{
		"url": api, "id": id, "node_id": nodeID("PullRequest", id), "html_url": html,
		"diff_url": html + ".diff", "patch_url": html + ".patch", "issue_url": issue,
		"commits_url": api + "/commits", "review_comments_url": api + "/comments",
		"review_comment_url": apiBase + "/repos/" + r.fullName() + "/pulls/comments{/number}",
		"comments_url":       issue + "/comments",
		"statuses_url":       apiBase + "/repos/" + r.fullName() + "/statuses/" + head,
		"number":             n, "state": "open", "locked": false, "title": r.itemTitle(n),
		"user": simpleUser(r.itemAuthor(n), "User"), "body": fmt.Sprintf("Body of %s #%d.", r.fullName(), n),
		"labels": r.labels(n), "milestone": nil, "active_lock_reason": nil,
		"created_at": ts(created), "updated_at": ts(created.Add(2 * time.Hour)),
		"closed_at": nil, "merged_at": nil, "merge_commit_sha": sha(r.fullName(), "merge", n),
		"assignee": nil, "assignees": []obj{}, "requested_reviewers": []obj{}, "requested_teams": []obj{},
		"head": r.branchRef(fmt.Sprintf("feature-%d", n), head),
		"base": r.branchRef(r.defaultBranch(), sha(r.fullName(), r.defaultBranch())),
		"_links": obj{
			"self": obj{"href": api}, "html": obj{"href": html}, "issue": obj{"href": issue},
			"comments": obj{"href": issue + "/comments"}, "review_comments": obj{"href": api + "/comments"},
			"review_comment": obj{"href": apiBase + "/repos/" + r.fullName() + "/pulls/comments{/number}"},
			"commits":        obj{"href": api + "/commits"},
			"statuses":       obj{"href": apiBase + "/repos/" + r.fullName() + "/statuses/" + head},
		},
		"author_association": "MEMBER", "auto_merge": nil, "draft": k == openPull && n%5 == 0,
	}
	if k == closedPull {
		m["state"] = "closed"
		m["closed_at"] = ts(created.Add(time.Hour))
		if merged(n) {
			m["merged_at"] = ts(created.Add(time.Hour))
		}
	}
	return m
}

var runEvents = []string{"push", "pull_request", "schedule"}
var runConclusions = []string{"success", "success", "failure", "cancelled"}

func (r repo) runInProgress(j int) bool { return j == r.runs() && r.idx%12 == 5 }

func (r repo) runStatus(j int) (status string, conclusion any) {
	if r.runInProgress(j) {
		return "in_progress", nil
	}
	return "completed", runConclusions[(r.idx+j)%4]
}

// runJSON is GitHub's workflow-run for run number j.
func (r repo) runJSON(j int) obj {
	id := 30_000_000_000 + r.id*10 + int64(j)
	api := fmt.Sprintf("%s/repos/%s/actions/runs/%d", apiBase, r.fullName(), id)
	wfID := 40_000_000 + r.id%10_000_000
	head := sha(r.fullName(), "run", j)
	created := r.created().AddDate(0, 0, j)
	status, conclusion := r.runStatus(j)
	actor := simpleUser(r.itemAuthor(j), "User")
	suite := 50_000_000_000 + r.id*10 + int64(j)
	return obj{
		"id": id, "name": "CI", "node_id": nodeID("WorkflowRun", id),
		"check_suite_id": suite, "check_suite_node_id": nodeID("CheckSuite", suite),
		"head_branch": r.defaultBranch(), "head_sha": head, "path": ".github/workflows/ci.yml",
		"display_title": fmt.Sprintf("CI run %d", j), "run_number": j, "run_attempt": 1,
		"event": runEvents[j%3], "status": status, "conclusion": conclusion, "workflow_id": wfID,
		"url": api, "html_url": fmt.Sprintf("%s/%s/actions/runs/%d", webBase, r.fullName(), id),
		"pull_requests": []obj{}, "created_at": ts(created), "updated_at": ts(created.Add(5 * time.Minute)),
		"run_started_at": ts(created), "actor": actor, "triggering_actor": actor,
		"jobs_url": api + "/jobs", "logs_url": api + "/logs", "artifacts_url": api + "/artifacts",
		"check_suite_url": fmt.Sprintf("%s/repos/%s/check-suites/%d", apiBase, r.fullName(), suite),
		"cancel_url":      api + "/cancel", "rerun_url": api + "/rerun", "previous_attempt_url": nil,
		"workflow_url": fmt.Sprintf("%s/repos/%s/actions/workflows/%d", apiBase, r.fullName(), wfID),
		"head_commit": obj{
			"id": head, "tree_id": sha(head, "tree"), "message": fmt.Sprintf("Commit for run %d", j),
			"timestamp": ts(created),
			"author":    obj{"name": r.itemAuthor(j), "email": r.itemAuthor(j) + "@users.noreply.github.com"},
			"committer": obj{"name": "GitHub", "email": "noreply@github.com"},
		},
		"repository": r.simpleRepoJSON(), "head_repository": r.simpleRepoJSON(), "head_repository_id": r.id,
	}
}

// branchNames are sorted like GitHub lists them.
func (r repo) branchNames() []string {
	names := []string{r.defaultBranch()}
	for k := 1; k <= r.extraBranches(); k++ {
		names = append(names, fmt.Sprintf("dev-%d", k))
	}
	sort.Strings(names)
	return names
}

func (r repo) hasBranch(b string) bool {
	for _, n := range r.branchNames() {
		if n == b {
			return true
		}
	}
	return false
}

func (r repo) branchProtected(b string) bool { return b == r.defaultBranch() && r.protected() }

func (r repo) shortBranchJSON(b string) obj {
	s := sha(r.fullName(), b)
	return obj{
		"name":           b,
		"commit":         obj{"sha": s, "url": apiBase + "/repos/" + r.fullName() + "/commits/" + s},
		"protected":      r.branchProtected(b),
		"protection_url": apiBase + "/repos/" + r.fullName() + "/branches/" + b + "/protection",
	}
}

// branchJSON is GitHub's branch-with-protection.
func (r repo) branchJSON(b string) obj {
	s := sha(r.fullName(), b)
	author := simpleUser(r.itemAuthor(1), "User")
	m := r.shortBranchJSON(b)
	m["commit"] = obj{
		"sha": s, "node_id": nodeID("Commit", int64(len(s))),
		"url":      apiBase + "/repos/" + r.fullName() + "/commits/" + s,
		"html_url": webBase + "/" + r.fullName() + "/commit/" + s,
		"commit": obj{
			"message":       "Latest commit on " + b,
			"author":        obj{"name": author["login"], "email": "dev@example.com", "date": ts(r.created())},
			"committer":     obj{"name": "GitHub", "email": "noreply@github.com", "date": ts(r.created())},
			"tree":          obj{"sha": sha(s, "tree"), "url": apiBase + "/repos/" + r.fullName() + "/git/trees/" + sha(s, "tree")},
			"url":           apiBase + "/repos/" + r.fullName() + "/git/commits/" + s,
			"comment_count": 0,
		},
		"author": author, "committer": author, "parents": []obj{},
	}
	m["_links"] = obj{
		"self": apiBase + "/repos/" + r.fullName() + "/branches/" + b,
		"html": webBase + "/" + r.fullName() + "/tree/" + b,
	}
	checks := []string{}
	if r.branchProtected(b) {
		checks = []string{"ci/build"}
	}
	level := "off"
	if r.branchProtected(b) {
		level = "non_admins"
	}
	m["protection"] = obj{
		"enabled":                r.branchProtected(b),
		"required_status_checks": obj{"enforcement_level": level, "contexts": checks, "checks": []obj{}},
	}
	return m
}

// protectionJSON is GitHub's branch-protection of a protected branch.
func (r repo) protectionJSON(b string) obj {
	u := apiBase + "/repos/" + r.fullName() + "/branches/" + b + "/protection"
	return obj{
		"url": u,
		"required_status_checks": obj{
			"url": u + "/required_status_checks", "strict": r.idx%8 == 0,
			"contexts": []string{"ci/build"}, "contexts_url": u + "/required_status_checks/contexts",
			"checks": []obj{{"context": "ci/build", "app_id": nil}},
		},
		"enforce_admins": obj{"url": u + "/enforce_admins", "enabled": r.idx%8 == 0},
		"required_pull_request_reviews": obj{
			"url":                             u + "/required_pull_request_reviews",
			"dismiss_stale_reviews":           true,
			"require_code_owner_reviews":      r.idx%8 == 0,
			"required_approving_review_count": 1 + r.idx%2,
			"require_last_push_approval":      false,
		},
		"required_signatures":              obj{"url": u + "/required_signatures", "enabled": false},
		"required_linear_history":          obj{"enabled": r.idx%8 == 0},
		"allow_force_pushes":               obj{"enabled": false},
		"allow_deletions":                  obj{"enabled": false},
		"block_creations":                  obj{"enabled": false},
		"required_conversation_resolution": obj{"enabled": true},
		"lock_branch":                      obj{"enabled": false},
		"allow_fork_syncing":               obj{"enabled": false},
	}
}
