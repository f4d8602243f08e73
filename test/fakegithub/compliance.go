package fakegithub

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The compliance organisations are the ground truth of engine check's
// github pack (cmd/engine/check/packs/github.yaml): every endpoint the pack
// reads answers for them, from the data below.
//
//   - CompliancePassOrg: every control of the pack passes. Repository
//     "app" (public) is protected by classic branch protection alone;
//     "lib" (private) by ruleset rules, with classic protection that only
//     enforces it for admins, so a branch control passes there only when
//     it merges both sources.
//   - ComplianceFailOrg: every control fails. "legacy" (public) has no
//     protection, license or scanning and was last pushed years ago; "weak"
//     (private) has protection with every setting off. The offending
//     members, hooks, keys and alerts are named by the Compliance*
//     constants.
//   - ComplianceDeniedOrg: every endpoint answers 403, so every control
//     errors.
//   - ComplianceMemberOrg: the fail org as a token of a member who is not
//     an owner sees it: GET /orgs/comply-member leaves out the owner-only
//     settings (two_factor_requirement_enabled, default_repository_permission,
//     members_can_*, *_for_new_repositories), and its repositories leave
//     out security_and_analysis (admin only), as GitHub does; the other
//     answers are the fail org's. Every control of the pack, written with
//     coalesce, fails there; one without it reads NULL (engine check's
//     NULL rule makes it an error).
const (
	CompliancePassOrg   = "comply-pass"
	ComplianceFailOrg   = "comply-fail"
	ComplianceDeniedOrg = "comply-denied"
	ComplianceMemberOrg = "comply-member"

	// ComplianceUnprotectedRepo is the fail org's repository without any
	// branch protection; ComplianceWeakRepo the one whose protection has
	// every setting off.
	ComplianceUnprotectedRepo = "legacy"
	ComplianceWeakRepo        = "weak"
	// ComplianceNo2FAMember is the fail org's member without 2FA;
	// ComplianceOutsideAdmin the outside collaborator with admin rights.
	ComplianceNo2FAMember  = "comply-fail-no2fa"
	ComplianceOutsideAdmin = "comply-contractor"
)

func isComplianceOrg(name string) bool {
	return name == CompliancePassOrg || name == ComplianceFailOrg || name == ComplianceDeniedOrg || name == ComplianceMemberOrg
}

// serveCompliance answers requests for the compliance organisations
// (under /orgs/ORG and /repos/ORG/) and reports whether it did.
func (s *Server) serveCompliance(w http.ResponseWriter, r *http.Request) bool {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if len(parts) < 2 || (parts[0] != "orgs" && parts[0] != "repos") || !isComplianceOrg(parts[1]) {
		return false
	}
	if parts[1] == ComplianceDeniedOrg {
		writeError(s, w, r, http.StatusForbidden, "Resource not accessible by integration")
		return true
	}
	s.cmux.ServeHTTP(w, r)
	return true
}

// compliance is one seeded organisation's answers.
type compliance struct {
	pass bool
	// member: the answers a member who is not an owner gets (no owner or
	// admin settings).
	member bool
}

func (s *Server) complianceRoutes() *http.ServeMux {
	m := http.NewServeMux()
	h := func(pattern string, f func(c compliance, r *http.Request) (int, any)) {
		m.HandleFunc("GET "+pattern, func(w http.ResponseWriter, r *http.Request) {
			org := r.PathValue("org")
			if org == "" {
				org = r.PathValue("owner")
			}
			c := compliance{pass: org == CompliancePassOrg, member: org == ComplianceMemberOrg}
			if rp := r.PathValue("repo"); rp != "" && c.repo(rp) == nil {
				notFound(s, w, r)
				return
			}
			status, body := f(c, r)
			if status == http.StatusNotFound {
				writeError(s, w, r, status, body.(string))
				return
			}
			writeJSON(s, w, status, body)
		})
	}
	ok := func(v any) (int, any) { return http.StatusOK, v }
	h("/orgs/{org}", func(c compliance, r *http.Request) (int, any) { return ok(c.org(r.PathValue("org"))) })
	h("/orgs/{org}/repos", func(c compliance, r *http.Request) (int, any) { return ok(c.repos(r.PathValue("org"))) })
	h("/orgs/{org}/actions/permissions", func(c compliance, _ *http.Request) (int, any) {
		return ok(pick(c.pass, map[string]any{"enabled_repositories": "selected", "allowed_actions": "selected", "sha_pinning_required": true},
			map[string]any{"enabled_repositories": "all", "allowed_actions": "all", "sha_pinning_required": false}))
	})
	h("/orgs/{org}/actions/permissions/workflow", func(c compliance, _ *http.Request) (int, any) { return ok(c.workflow()) })
	h("/orgs/{org}/actions/permissions/fork-pr-workflows-private-repos", func(c compliance, _ *http.Request) (int, any) {
		return ok(map[string]any{"run_workflows_from_fork_pull_requests": true, "send_write_tokens_to_workflows": !c.pass,
			"send_secrets_and_variables": false, "require_approval_for_fork_pr_workflows": c.pass})
	})
	h("/orgs/{org}/actions/runner-groups", func(c compliance, _ *http.Request) (int, any) {
		g := pick(c.pass, map[string]any{"id": 2, "name": "trusted", "visibility": "selected", "default": false, "allows_public_repositories": false},
			map[string]any{"id": 1, "name": "Default", "visibility": "all", "default": true, "allows_public_repositories": true})
		return ok(map[string]any{"total_count": 1, "runner_groups": []any{g}})
	})
	h("/orgs/{org}/actions/runners", func(c compliance, _ *http.Request) (int, any) {
		rn := pick(c.pass, runner(11, "ephemeral-1", true), runner(12, "build-box", false))
		return ok(map[string]any{"total_count": 1, "runners": []any{rn}})
	})
	h("/orgs/{org}/actions/secrets", func(c compliance, _ *http.Request) (int, any) {
		updated := pick(c.pass, ts(time.Now().AddDate(0, 0, -10)), "2021-03-01T00:00:00Z")
		sec := map[string]any{"name": "DEPLOY_TOKEN", "created_at": "2021-03-01T00:00:00Z", "updated_at": updated, "visibility": "selected"}
		return ok(map[string]any{"total_count": 1, "secrets": []any{sec}})
	})
	h("/repos/{owner}/{repo}/actions/secrets", func(c compliance, _ *http.Request) (int, any) {
		updated := pick(c.pass, ts(time.Now().AddDate(0, 0, -10)), "2021-03-01T00:00:00Z")
		sec := map[string]any{"name": "NPM_TOKEN", "created_at": "2021-03-01T00:00:00Z", "updated_at": updated}
		return ok(map[string]any{"total_count": 1, "secrets": []any{sec}})
	})
	h("/orgs/{org}/hooks", func(c compliance, _ *http.Request) (int, any) { return ok([]any{c.hook(101)}) })
	h("/repos/{owner}/{repo}/hooks", func(c compliance, _ *http.Request) (int, any) { return ok([]any{c.hook(201)}) })
	h("/orgs/{org}/members", func(c compliance, r *http.Request) (int, any) {
		org := r.PathValue("org")
		var out []any
		switch {
		case r.URL.Query().Get("filter") == "2fa_disabled":
			if !c.pass {
				out = append(out, user(ComplianceNo2FAMember, 900))
			}
		case r.URL.Query().Get("role") == "admin":
			for i := 1; i <= pick(c.pass, 2, 5); i++ {
				out = append(out, user(fmt.Sprintf("%s-owner-%d", org, i), int64(800+i)))
			}
		default:
			for i := 1; i <= 3; i++ {
				out = append(out, user(fmt.Sprintf("%s-dev-%d", org, i), int64(700+i)))
			}
		}
		return ok(nonNil(out))
	})
	h("/orgs/{org}/dependabot/alerts", func(c compliance, r *http.Request) (int, any) {
		a := map[string]any{"number": 1, "state": "open", "created_at": "2024-01-01T00:00:00Z",
			"security_advisory":      map[string]any{"ghsa_id": "GHSA-fake-0001-crit", "severity": "critical"},
			"security_vulnerability": map[string]any{"severity": "critical"},
			"repository":             c.repoRef(ComplianceUnprotectedRepo)}
		return ok(c.alerts(r, a, "critical"))
	})
	h("/orgs/{org}/secret-scanning/alerts", func(c compliance, r *http.Request) (int, any) {
		a := map[string]any{"number": 2, "state": "open", "secret_type": "github_personal_access_token",
			"created_at": "2024-01-01T00:00:00Z", "repository": c.repoRef(ComplianceUnprotectedRepo)}
		return ok(c.alerts(r, a, ""))
	})
	h("/orgs/{org}/code-scanning/alerts", func(c compliance, r *http.Request) (int, any) {
		a := map[string]any{"number": 3, "state": "open", "created_at": "2024-01-01T00:00:00Z",
			"rule":       map[string]any{"id": "go/sql-injection", "severity": "error", "security_severity_level": "critical"},
			"tool":       map[string]any{"name": "CodeQL"},
			"repository": c.repoRef(ComplianceWeakRepo)}
		return ok(c.alerts(r, a, "critical"))
	})

	h("/repos/{owner}/{repo}/private-vulnerability-reporting", func(c compliance, _ *http.Request) (int, any) {
		return ok(map[string]any{"enabled": c.pass})
	})
	h("/repos/{owner}/{repo}/code-scanning/default-setup", func(c compliance, _ *http.Request) (int, any) {
		return ok(map[string]any{"state": pick(c.pass, "configured", "not-configured"), "languages": []string{"go"}, "query_suite": "default"})
	})
	h("/repos/{owner}/{repo}/keys", func(c compliance, _ *http.Request) (int, any) {
		k := map[string]any{"id": 301, "title": pick(c.pass, "mirror-read", "ci-write"), "key": "ssh-ed25519 AAAAC3NzaFAKE", "read_only": c.pass,
			"verified": true, "created_at": "2024-01-01T00:00:00Z", "url": apiBase + "/keys/301"}
		return ok([]any{k})
	})
	h("/repos/{owner}/{repo}/collaborators", func(c compliance, r *http.Request) (int, any) {
		org := r.PathValue("owner")
		var out []any
		outside := collaborator(ComplianceOutsideAdmin, 950, !c.pass)
		if r.URL.Query().Get("affiliation") == "outside" {
			return ok([]any{outside})
		}
		for i := 1; i <= pick(c.pass, 2, 4); i++ {
			out = append(out, collaborator(fmt.Sprintf("%s-owner-%d", org, i), int64(800+i), true))
		}
		out = append(out, collaborator(org+"-dev-1", 701, false), outside)
		return ok(out)
	})
	h("/repos/{owner}/{repo}/actions/permissions/workflow", func(c compliance, _ *http.Request) (int, any) { return ok(c.workflow()) })
	h("/repos/{owner}/{repo}/actions/permissions", func(c compliance, _ *http.Request) (int, any) {
		return ok(map[string]any{"enabled": true, "allowed_actions": pick(c.pass, "selected", "all"), "sha_pinning_required": c.pass})
	})
	h("/repos/{owner}/{repo}/environments", func(c compliance, _ *http.Request) (int, any) {
		env := map[string]any{"id": 401, "name": "production", "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z",
			"protection_rules": []any{}, "deployment_branch_policy": nil}
		if c.pass {
			env["protection_rules"] = []any{map[string]any{"id": 1, "type": "required_reviewers", "prevent_self_review": true}}
			env["deployment_branch_policy"] = map[string]any{"protected_branches": true, "custom_branch_policies": false}
		}
		return ok(map[string]any{"total_count": 1, "environments": []any{env}})
	})
	h("/repos/{owner}/{repo}/actions/runners", func(c compliance, r *http.Request) (int, any) {
		var rs []any
		if !c.pass && r.PathValue("repo") == ComplianceUnprotectedRepo {
			rs = append(rs, runner(21, "public-runner", false))
		}
		return ok(map[string]any{"total_count": len(rs), "runners": nonNil(rs)})
	})
	h("/repos/{owner}/{repo}/branches/{branch}/protection", func(c compliance, r *http.Request) (int, any) {
		p := c.repo(r.PathValue("repo")).protection
		if p == nil || r.PathValue("branch") != "main" {
			return http.StatusNotFound, "Branch not protected"
		}
		return ok(p)
	})
	h("/repos/{owner}/{repo}/rules/branches/{branch}", func(c compliance, r *http.Request) (int, any) {
		rp := c.repo(r.PathValue("repo"))
		if r.PathValue("branch") != "main" {
			return ok([]any{})
		}
		return ok(nonNil(rp.rules))
	})
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { notFound(s, w, r) })
	return m
}

func pick[T any](pass bool, a, b T) T {
	if pass {
		return a
	}
	return b
}

func nonNil(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

func user(login string, id int64) map[string]any {
	return map[string]any{"login": login, "id": id, "node_id": nodeID("User", id), "type": "User", "site_admin": false,
		"url": apiBase + "/users/" + login, "html_url": webBase + "/" + login}
}

func collaborator(login string, id int64, admin bool) map[string]any {
	u := user(login, id)
	u["permissions"] = map[string]any{"admin": admin, "maintain": admin, "push": true, "triage": true, "pull": true}
	u["role_name"] = pick(admin, "admin", "write")
	return u
}

func runner(id int64, name string, ephemeral bool) map[string]any {
	return map[string]any{"id": id, "name": name, "os": "linux", "status": "online", "busy": false, "ephemeral": ephemeral,
		"labels": []any{map[string]any{"id": 1, "name": "self-hosted", "type": "read-only"}}}
}

func (c compliance) workflow() map[string]any {
	return map[string]any{"default_workflow_permissions": pick(c.pass, "read", "write"), "can_approve_pull_request_reviews": !c.pass}
}

func (c compliance) hook(id int64) map[string]any {
	cfg := map[string]any{"url": "https://hooks.example.test/github", "content_type": "json", "insecure_ssl": "0", "secret": "********"}
	if !c.pass {
		cfg = map[string]any{"url": "http://hooks.example.test/github", "content_type": "json", "insecure_ssl": "1"}
	}
	return map[string]any{"id": id, "type": "Organization", "name": "web", "active": true, "events": []string{"push"}, "config": cfg,
		"created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z", "url": fmt.Sprintf("%s/hooks/%d", apiBase, id)}
}

// alerts answers an alert list: the fail org's one open alert when the
// request's state and severity filters admit it, none for the pass org.
func (c compliance) alerts(r *http.Request, a map[string]any, severity string) []any {
	q := r.URL.Query()
	if c.pass || !inList(q.Get("state"), "open") || (severity != "" && !inList(q.Get("severity"), severity)) {
		return []any{}
	}
	return []any{a}
}

func (c compliance) org(login string) map[string]any {
	p := c.pass
	id := hashID(login)
	if c.member {
		// GitHub's organization-full for a token without the owner role:
		// the public fields only.
		return map[string]any{
			"login": login, "id": id, "node_id": nodeID("Organization", id), "url": apiBase + "/orgs/" + login,
			"html_url": webBase + "/" + login, "type": "Organization", "name": login, "created_at": "2020-01-01T00:00:00Z",
			"is_verified": false,
		}
	}
	return map[string]any{
		"login": login, "id": id, "node_id": nodeID("Organization", id), "url": apiBase + "/orgs/" + login,
		"html_url": webBase + "/" + login, "type": "Organization", "name": login, "created_at": "2020-01-01T00:00:00Z",
		"two_factor_requirement_enabled":           p,
		"default_repository_permission":            pick(p, "none", "write"),
		"members_can_create_repositories":          !p,
		"members_can_create_public_repositories":   !p,
		"members_can_delete_repositories":          !p,
		"members_can_delete_issues":                !p,
		"members_can_fork_private_repositories":    !p,
		"members_can_change_repo_visibility":       !p,
		"members_can_create_teams":                 !p,
		"members_can_invite_outside_collaborators": !p,
		"is_verified": p,
		"dependabot_alerts_enabled_for_new_repositories":               p,
		"dependabot_security_updates_enabled_for_new_repositories":     p,
		"dependency_graph_enabled_for_new_repositories":                p,
		"secret_scanning_enabled_for_new_repositories":                 p,
		"secret_scanning_push_protection_enabled_for_new_repositories": p,
		"advanced_security_enabled_for_new_repositories":               p,
	}
}

// complianceRepo is one seeded repository.
type complianceRepo struct {
	name       string
	private    bool
	protection map[string]any // nil: "Branch not protected"
	rules      []any          // ruleset rules for main
	license    bool
	pushed     string
	security   string // security_and_analysis status
}

func (c compliance) repoList() []*complianceRepo {
	recent := ts(time.Now().AddDate(0, 0, -1))
	if c.pass {
		return []*complianceRepo{
			{name: "app", protection: fullProtection(), license: true, pushed: recent, security: "enabled"},
			{name: "lib", private: true, protection: adminsOnlyProtection(), rules: fullRules(), license: true, pushed: recent, security: "enabled"},
		}
	}
	return []*complianceRepo{
		{name: ComplianceUnprotectedRepo, pushed: "2021-06-01T00:00:00Z", security: "disabled"},
		{name: ComplianceWeakRepo, private: true, protection: weakProtection(), rules: nil, license: true, pushed: recent, security: "disabled"},
	}
}

func (c compliance) repo(name string) *complianceRepo {
	for _, r := range c.repoList() {
		if r.name == name {
			return r
		}
	}
	return nil
}

func (c compliance) repoRef(name string) map[string]any {
	return map[string]any{"name": name, "full_name": ComplianceFailOrg + "/" + name}
}

func (c compliance) repos(org string) []any {
	var out []any
	for i, rp := range c.repoList() {
		id := hashID(org) + int64(i) + 1
		var lic any
		if rp.license {
			lic = map[string]any{"key": "mit", "name": "MIT License", "spdx_id": "MIT"}
		}
		st := map[string]any{"status": rp.security}
		r := map[string]any{
			"id": id, "node_id": nodeID("Repository", id), "name": rp.name, "full_name": org + "/" + rp.name,
			"owner":   map[string]any{"login": org, "id": hashID(org), "type": "Organization"},
			"private": rp.private, "visibility": pick(rp.private, "private", "public"), "archived": false, "disabled": false, "fork": false,
			"default_branch": "main", "pushed_at": rp.pushed, "created_at": "2020-01-01T00:00:00Z", "updated_at": rp.pushed,
			"license": lic, "allow_forking": !c.pass, "html_url": webBase + "/" + org + "/" + rp.name, "url": apiBase + "/repos/" + org + "/" + rp.name,
			"security_and_analysis": map[string]any{"secret_scanning": st, "secret_scanning_push_protection": st, "dependabot_security_updates": st},
		}
		if c.member {
			delete(r, "security_and_analysis") // shown to admins only
		}
		out = append(out, r)
	}
	return out
}

func enabled(b bool) map[string]any { return map[string]any{"enabled": b} }

// fullProtection is classic protection with every setting the pack reads on.
func fullProtection() map[string]any {
	return map[string]any{
		"url": apiBase + "/protection",
		"required_pull_request_reviews": map[string]any{"required_approving_review_count": 2, "dismiss_stale_reviews": true,
			"require_code_owner_reviews": true, "require_last_push_approval": true},
		"required_status_checks":           map[string]any{"strict": true, "contexts": []string{"ci"}, "checks": []any{map[string]any{"context": "ci", "app_id": nil}}},
		"enforce_admins":                   map[string]any{"enabled": true, "url": apiBase + "/enforce_admins"},
		"required_signatures":              enabled(true),
		"required_linear_history":          enabled(true),
		"required_conversation_resolution": enabled(true),
		"allow_force_pushes":               enabled(false),
		"allow_deletions":                  enabled(false),
		"restrictions":                     map[string]any{"users": []any{}, "teams": []any{}, "apps": []any{}},
	}
}

// adminsOnlyProtection is classic protection that only enforces the rules
// for admins; the rest comes from rulesets.
func adminsOnlyProtection() map[string]any {
	return map[string]any{
		"url":                apiBase + "/protection",
		"enforce_admins":     map[string]any{"enabled": true, "url": apiBase + "/enforce_admins"},
		"allow_force_pushes": enabled(false),
		"allow_deletions":    enabled(false),
	}
}

// weakProtection is classic protection with every setting off.
func weakProtection() map[string]any {
	return map[string]any{
		"url":                              apiBase + "/protection",
		"required_pull_request_reviews":    map[string]any{"required_approving_review_count": 0, "dismiss_stale_reviews": false, "require_code_owner_reviews": false, "require_last_push_approval": false},
		"required_status_checks":           map[string]any{"strict": false, "contexts": []string{}, "checks": []any{}},
		"enforce_admins":                   map[string]any{"enabled": false, "url": apiBase + "/enforce_admins"},
		"required_signatures":              enabled(false),
		"required_linear_history":          enabled(false),
		"required_conversation_resolution": enabled(false),
		"allow_force_pushes":               enabled(true),
		"allow_deletions":                  enabled(true),
	}
}

// fullRules are ruleset rules (GET /repos/{o}/{r}/rules/branches/{b})
// with every setting the pack reads on.
func fullRules() []any {
	rule := func(typ string, params map[string]any) map[string]any {
		r := map[string]any{"type": typ, "ruleset_source_type": "Organization", "ruleset_source": CompliancePassOrg, "ruleset_id": 42}
		if params != nil {
			r["parameters"] = params
		}
		return r
	}
	return []any{
		rule("pull_request", map[string]any{"required_approving_review_count": 2, "dismiss_stale_reviews_on_push": true,
			"require_code_owner_review": true, "require_last_push_approval": true, "required_review_thread_resolution": true}),
		rule("required_status_checks", map[string]any{"strict_required_status_checks_policy": true,
			"required_status_checks": []any{map[string]any{"context": "ci"}}}),
		rule("required_signatures", nil),
		rule("required_linear_history", nil),
		rule("non_fast_forward", nil),
		rule("deletion", nil),
		rule("update", nil),
	}
}
