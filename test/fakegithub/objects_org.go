package fakegithub

import (
	"fmt"
	"strings"
	"time"
)

func (o *orgSpec) publicRepos() int { return (o.repos + 2) / 3 }

func (o *orgSpec) displayName() string { return strings.ToUpper(o.login[:1]) + o.login[1:] + " Inc." }

// orgJSON is GitHub's organization-full.
func (o *orgSpec) orgJSON() obj {
	api := apiBase + "/orgs/" + o.login
	priv := o.repos - o.publicRepos()
	return obj{
		"login": o.login, "id": o.id, "node_id": nodeID("Organization", o.id),
		"url": api, "repos_url": api + "/repos", "events_url": api + "/events", "hooks_url": api + "/hooks",
		"issues_url": api + "/issues", "members_url": api + "/members{/member}",
		"public_members_url": api + "/public_members{/member}",
		"avatar_url":         fmt.Sprintf("https://avatars.githubusercontent.com/u/%d?v=4", o.id),
		"description":        "The " + o.displayName() + " organisation (fake)",
		"name":               o.displayName(), "company": nil, "blog": "https://" + o.login + ".example.com",
		"location": "Internet", "email": nil, "twitter_username": nil, "is_verified": o.login == "acme",
		"has_organization_projects": true, "has_repository_projects": true,
		"public_repos": o.publicRepos(), "public_gists": 0, "followers": o.members, "following": 0,
		"html_url": webBase + "/" + o.login, "type": "Organization",
		"total_private_repos": priv, "owned_private_repos": priv, "private_gists": 0,
		"disk_usage": o.repos * 1000, "collaborators": o.outside, "billing_email": "billing@" + o.login + ".example.com",
		"plan":                                     obj{"name": "enterprise", "space": 976562499, "private_repos": 999999, "filled_seats": o.members, "seats": o.members + 10},
		"default_repository_permission":            "read",
		"default_repository_branch":                "main",
		"members_can_create_repositories":          false,
		"two_factor_requirement_enabled":           false,
		"members_allowed_repository_creation_type": "none",
		"members_can_create_public_repositories":   false,
		"members_can_create_private_repositories":  false,
		"members_can_create_internal_repositories": false,
		"members_can_create_pages":                 true,
		"members_can_fork_private_repositories":    false,
		"web_commit_signoff_required":              false,
		"created_at":                               ts(epoch.AddDate(-2, 0, 0)),
		"updated_at":                               ts(epoch.AddDate(4, 0, 0)),
		"archived_at":                              nil,
	}
}

// userJSON is GitHub's public-user (private adds the private-user fields).
func userJSON(login, typ string, id int64, private bool) obj {
	nodeType := "User"
	if typ == "Organization" {
		nodeType = "Organization"
	}
	m := simpleUserID(login, typ, id, nodeType)
	pub := 0
	if login == AuthUser {
		pub = 2
	}
	for k, v := range (obj{
		"name": login, "company": nil, "blog": "", "location": nil, "email": nil,
		"hireable": nil, "bio": nil, "twitter_username": nil, "public_repos": pub, "public_gists": 0,
		"followers": 0, "following": 0, "created_at": ts(epoch.AddDate(-1, 0, 0)), "updated_at": ts(epoch),
	}) {
		m[k] = v
	}
	if private {
		m["private_gists"] = 0
		m["total_private_repos"] = 3
		m["owned_private_repos"] = 3
		m["disk_usage"] = 500
		m["collaborators"] = 0
		m["two_factor_authentication"] = true
		m["plan"] = obj{"name": "pro", "space": 976562499, "private_repos": 9999, "collaborators": 0}
	}
	return m
}

func teamSlug(name string) string { return strings.ToLower(name) }

func (o *orgSpec) teamJSON(j int) obj {
	name := o.teams[j]
	id := o.id*100 + int64(j+1)
	privacy := "closed"
	if name == "Security" || name == "SRE" {
		privacy = "secret"
	}
	api := fmt.Sprintf("%s/organizations/%d/team/%d", apiBase, o.id, id)
	return obj{
		"id": id, "node_id": nodeID("Team", id), "name": name, "slug": teamSlug(name),
		"description": name + " team", "privacy": privacy, "notification_setting": "notifications_enabled",
		"permission": "pull", "url": api, "html_url": webBase + "/orgs/" + o.login + "/teams/" + teamSlug(name),
		"members_url": api + "/members{/member}", "repositories_url": api + "/repos",
		"type": "organization", "organization_id": o.id, "parent": nil,
	}
}

func (o *orgSpec) hookJSON(h int) obj {
	id := o.id*10 + int64(h)
	api := fmt.Sprintf("%s/orgs/%s/hooks/%d", apiBase, o.login, id)
	events := []string{"push", "pull_request"}
	if h%2 == 0 {
		events = []string{"*"}
	}
	cfg := obj{"url": fmt.Sprintf("https://hooks.example.com/%s/%d", o.login, h), "content_type": "json", "insecure_ssl": "0"}
	if h%2 == 0 {
		cfg["insecure_ssl"] = "1"
	} else {
		cfg["secret"] = "********"
	}
	return obj{
		"id": id, "url": api, "ping_url": api + "/pings", "deliveries_url": api + "/deliveries",
		"name": "web", "events": events, "active": h != 3, "config": cfg,
		"created_at": ts(epoch.AddDate(0, 0, h)), "updated_at": ts(epoch.AddDate(0, 1, h)), "type": "Organization",
	}
}

// Dependabot alert k (1-based) of an org.
var severities = []string{"critical", "high", "medium", "low"}
var ecosystems = [][2]string{{"npm", "lodash"}, {"pip", "django"}, {"go", "golang.org/x/net"}}

func depState(k int) string {
	switch k % 5 {
	case 3:
		return "fixed"
	case 4:
		return "dismissed"
	}
	return "open"
}
func depSeverity(k int) string               { return severities[(k-1)%4] }
func depEcosystem(k int) string              { return ecosystems[(k-1)%3][0] }
func depPackage(k int) string                { return ecosystems[(k-1)%3][1] }
func (o *orgSpec) alertRepo(k, mul int) repo { return o.repo((k * mul) % o.repos) }

func (o *orgSpec) dependabotJSON(k int) obj {
	r := o.alertRepo(k, 7)
	sev, state := depSeverity(k), depState(k)
	pkg := obj{"ecosystem": depEcosystem(k), "name": depPackage(k)}
	ghsa := fmt.Sprintf("GHSA-%04x-%04x-%04x", k*97%65536, k*31%65536, k*13%65536)
	cve := fmt.Sprintf("CVE-2024-%05d", 10000+k)
	vuln := obj{"package": pkg, "severity": sev, "vulnerable_version_range": "< 2.0.0", "first_patched_version": obj{"identifier": "2.0.0"}}
	created := epoch.AddDate(0, 0, k)
	score := []float64{9.8, 7.5, 5.3, 2.1}[(k-1)%4]
	m := obj{
		"number": k, "state": state,
		"dependency": obj{"package": pkg, "manifest_path": []string{"package-lock.json", "requirements.txt", "go.mod"}[(k-1)%3], "scope": "runtime", "relationship": "direct"},
		"security_advisory": obj{
			"ghsa_id": ghsa, "cve_id": cve, "summary": fmt.Sprintf("Vulnerability %d in %s", k, depPackage(k)),
			"description": "A fake advisory.", "vulnerabilities": []obj{vuln}, "severity": sev,
			"cvss":         obj{"vector_string": nil, "score": score},
			"cwes":         []obj{{"cwe_id": "CWE-400", "name": "Uncontrolled Resource Consumption"}},
			"identifiers":  []obj{{"type": "GHSA", "value": ghsa}, {"type": "CVE", "value": cve}},
			"references":   []obj{{"url": "https://github.com/advisories/" + ghsa}},
			"published_at": ts(created.AddDate(0, 0, -1)), "updated_at": ts(created), "withdrawn_at": nil,
		},
		"security_vulnerability": vuln,
		"url":                    fmt.Sprintf("%s/repos/%s/dependabot/alerts/%d", apiBase, r.fullName(), k),
		"html_url":               fmt.Sprintf("%s/%s/security/dependabot/%d", webBase, r.fullName(), k),
		"created_at":             ts(created), "updated_at": ts(created.Add(time.Hour)),
		"dismissed_at": nil, "dismissed_by": nil, "dismissed_reason": nil, "dismissed_comment": nil,
		"fixed_at": nil, "auto_dismissed_at": nil, "repository": r.simpleRepoJSON(),
	}
	switch state {
	case "fixed":
		m["fixed_at"] = ts(created.Add(time.Hour))
	case "dismissed":
		m["dismissed_at"] = ts(created.Add(time.Hour))
		m["dismissed_by"] = simpleUser(memberLogin(o.login, 1), "User")
		m["dismissed_reason"] = "tolerable_risk"
		m["dismissed_comment"] = "Not exploitable here."
	}
	return m
}

// Secret scanning alert k (1-based) of an org.
var secretTypes = [][2]string{{"github_personal_access_token", "GitHub Personal Access Token"}, {"aws_access_key_id", "AWS Access Key ID"}, {"slack_api_token", "Slack API Token"}}
var validities = []string{"active", "inactive", "unknown"}

func secretState(k int) string {
	if k%3 == 0 {
		return "resolved"
	}
	return "open"
}
func secretResolution(k int) any {
	if secretState(k) == "open" {
		return nil
	}
	if k%2 == 0 {
		return "revoked"
	}
	return "false_positive"
}
func secretType(k int) string     { return secretTypes[(k-1)%3][0] }
func secretValidity(k int) string { return validities[(k-1)%3] }

func (o *orgSpec) secretJSON(k int) obj {
	r := o.alertRepo(k, 11)
	created := epoch.AddDate(0, 0, 2*k)
	api := fmt.Sprintf("%s/repos/%s/secret-scanning/alerts/%d", apiBase, r.fullName(), k)
	m := obj{
		"number": k, "created_at": ts(created), "updated_at": ts(created.Add(time.Hour)),
		"url": api, "html_url": fmt.Sprintf("%s/%s/security/secret-scanning/%d", webBase, r.fullName(), k),
		"locations_url": api + "/locations", "state": secretState(k), "resolution": secretResolution(k),
		"resolved_at": nil, "resolved_by": nil, "resolution_comment": nil,
		"secret_type": secretType(k), "secret_type_display_name": secretTypes[(k-1)%3][1],
		"secret":     fmt.Sprintf("fake_secret_%04d_XXXXXXXXXXXXXXXX", k),
		"repository": r.simpleRepoJSON(), "push_protection_bypassed": k%4 == 1,
		"push_protection_bypassed_by": nil, "push_protection_bypassed_at": nil,
		"validity": secretValidity(k), "publicly_leaked": false, "multi_repo": false, "is_base64_encoded": false,
		"has_more_locations": false,
	}
	if secretState(k) == "resolved" {
		m["resolved_at"] = ts(created.Add(2 * time.Hour))
		m["resolved_by"] = simpleUser(memberLogin(o.login, 1), "User")
	}
	return m
}
