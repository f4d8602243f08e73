package fakegithub

import (
	"fmt"
	"strings"
)

// obj is a JSON object; encoding/json sorts its keys.
type obj = map[string]any

func simpleUser(login, typ string) obj {
	id := userID(login)
	nodeType := "User"
	if typ == "Organization" {
		nodeType = "Organization"
	}
	return simpleUserID(login, typ, id, nodeType)
}

func orgUser(o *orgSpec) obj { return simpleUserID(o.login, "Organization", o.id, "Organization") }

func simpleUserID(login, typ string, id int64, nodeType string) obj {
	u := apiBase + "/users/" + login
	return obj{
		"login":               login,
		"id":                  id,
		"node_id":             nodeID(nodeType, id),
		"avatar_url":          fmt.Sprintf("https://avatars.githubusercontent.com/u/%d?v=4", id),
		"gravatar_id":         "",
		"url":                 u,
		"html_url":            webBase + "/" + login,
		"followers_url":       u + "/followers",
		"following_url":       u + "/following{/other_user}",
		"gists_url":           u + "/gists{/gist_id}",
		"starred_url":         u + "/starred{/owner}{/repo}",
		"subscriptions_url":   u + "/subscriptions",
		"organizations_url":   u + "/orgs",
		"repos_url":           u + "/repos",
		"events_url":          u + "/events{/privacy}",
		"received_events_url": u + "/received_events",
		"type":                typ,
		"user_view_type":      "public",
		"site_admin":          false,
	}
}

func (r repo) ownerJSON() any {
	if r.org != nil {
		return r.org.ownerRaw()
	}
	return simpleUserID(r.owner, r.ownerType, r.ownerID, "User")
}

var repoURLSuffixes = [][2]string{
	{"archive_url", "/{archive_format}{/ref}"}, {"assignees_url", "/assignees{/user}"},
	{"blobs_url", "/git/blobs{/sha}"}, {"branches_url", "/branches{/branch}"},
	{"collaborators_url", "/collaborators{/collaborator}"}, {"comments_url", "/comments{/number}"},
	{"commits_url", "/commits{/sha}"}, {"compare_url", "/compare/{base}...{head}"},
	{"contents_url", "/contents/{+path}"}, {"contributors_url", "/contributors"},
	{"deployments_url", "/deployments"}, {"downloads_url", "/downloads"}, {"events_url", "/events"},
	{"forks_url", "/forks"}, {"git_commits_url", "/git/commits{/sha}"}, {"git_refs_url", "/git/refs{/sha}"},
	{"git_tags_url", "/git/tags{/sha}"}, {"issue_comment_url", "/issues/comments{/number}"},
	{"issue_events_url", "/issues/events{/number}"}, {"issues_url", "/issues{/number}"},
	{"keys_url", "/keys{/key_id}"}, {"labels_url", "/labels{/name}"}, {"languages_url", "/languages"},
	{"merges_url", "/merges"}, {"milestones_url", "/milestones{/number}"},
	{"notifications_url", "/notifications{?since,all,participating}"}, {"pulls_url", "/pulls{/number}"},
	{"releases_url", "/releases{/id}"}, {"stargazers_url", "/stargazers"}, {"statuses_url", "/statuses/{sha}"},
	{"subscribers_url", "/subscribers"}, {"subscription_url", "/subscription"}, {"tags_url", "/tags"},
	{"teams_url", "/teams"}, {"trees_url", "/git/trees{/sha}"}, {"hooks_url", "/hooks"},
}

// simpleRepoJSON is GitHub's simple-repository (used inside alerts).
func (r repo) simpleRepoJSON() obj {
	api := apiBase + "/repos/" + r.fullName()
	m := make(obj, 96)
	for k, v := range (obj{
		"id":          r.id,
		"node_id":     nodeID("Repository", r.id),
		"name":        r.name,
		"full_name":   r.fullName(),
		"owner":       r.ownerJSON(),
		"private":     r.private(),
		"html_url":    webBase + "/" + r.fullName(),
		"description": nullStr(r.description()),
		"fork":        r.fork(),
		"url":         api,
	}) {
		m[k] = v
	}
	for _, kv := range repoURLSuffixes {
		m[kv[0]] = api + kv[1]
	}
	return m
}

func (r repo) description() string {
	if r.idx%6 == 5 {
		return ""
	}
	return fmt.Sprintf("%s service %d", strings.ToUpper(r.owner[:1])+r.owner[1:], r.idx)
}

func nullStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (r repo) licenseJSON() any {
	l := r.license()
	if l == nil {
		return nil
	}
	return obj{
		"key": l.key, "name": l.name, "spdx_id": l.spdx,
		"url":     apiBase + "/licenses/" + l.key,
		"node_id": nodeID("License", int64(len(l.key))),
	}
}

func (r repo) stars() int { return (r.idx * 37) % 500 }
func (r repo) forks() int { return (r.idx * 13) % 40 }

// repoJSON is GitHub's minimal-repository / repository list item.
func (r repo) repoJSON() obj {
	m := r.simpleRepoJSON()
	full := r.fullName()
	var homepage any
	if r.idx%8 == 0 {
		homepage = fmt.Sprintf("https://%s.example.com/%s", r.owner, r.name)
	}
	open := r.openIssues() + r.openPulls()
	admin := r.idx%9 == 0
	push := !r.archived()
	m["git_url"] = "git://github.com/" + full + ".git"
	m["ssh_url"] = "git@github.com:" + full + ".git"
	m["clone_url"] = webBase + "/" + full + ".git"
	m["svn_url"] = webBase + "/" + full
	m["mirror_url"] = nil
	m["homepage"] = homepage
	m["language"] = nullStr(r.language())
	m["forks_count"] = r.forks()
	m["forks"] = r.forks()
	m["stargazers_count"] = r.stars()
	m["watchers_count"] = r.stars()
	m["watchers"] = r.stars()
	m["size"] = r.idx*100 + 17
	m["default_branch"] = r.defaultBranch()
	m["open_issues_count"] = open
	m["open_issues"] = open
	m["is_template"] = r.idx%50 == 1
	m["topics"] = r.topics()
	m["has_issues"] = true
	m["has_projects"] = r.idx%2 == 0
	m["has_wiki"] = r.idx%2 == 0
	m["has_pages"] = r.idx%16 == 0
	m["has_downloads"] = true
	m["has_discussions"] = r.idx%13 == 0
	m["archived"] = r.archived()
	m["disabled"] = false
	m["visibility"] = r.visibility()
	m["created_at"] = ts(r.created())
	m["updated_at"] = ts(r.created().AddDate(0, 0, 30))
	m["pushed_at"] = ts(r.created().AddDate(0, 0, 29))
	m["permissions"] = obj{"admin": admin, "maintain": admin, "push": push, "triage": push, "pull": true}
	m["allow_forking"] = !r.private()
	m["web_commit_signoff_required"] = false
	m["license"] = r.licenseJSON()
	return m
}

// fullRepoJSON is GitHub's full-repository (GET /repos/{owner}/{repo}).
func (r repo) fullRepoJSON() obj {
	m := r.repoJSON()
	m["subscribers_count"] = r.stars()/10 + 1
	m["network_count"] = r.forks()
	m["allow_rebase_merge"] = true
	m["allow_squash_merge"] = true
	m["allow_merge_commit"] = r.idx%2 == 0
	m["allow_auto_merge"] = false
	m["allow_update_branch"] = false
	m["delete_branch_on_merge"] = r.idx%3 == 0
	m["use_squash_pr_title_as_default"] = false
	m["temp_clone_token"] = nil
	if r.org != nil {
		m["organization"] = orgUser(r.org)
	}
	if r.fork() {
		m["parent"] = upstream(r).repoJSON()
		m["source"] = upstream(r).repoJSON()
	}
	return m
}

// upstream is the repository a fork was forked from (AuthUser's hello-world).
func upstream(repo) repo { return userRepo(0) }
