package check

import (
	"fmt"
	"slices"
	"strings"
)

// scopeImplies lists, for a classic token scope, the scopes it includes
// (GitHub's "Scopes for OAuth apps": repo includes security_events,
// admin:org includes write:org and read:org, and so on).
var scopeImplies = map[string][]string{
	"repo":                  {"repo:status", "repo_deployment", "public_repo", "repo:invite", "security_events"},
	"admin:org":             {"write:org", "manage_runners:org"},
	"write:org":             {"read:org"},
	"admin:repo_hook":       {"write:repo_hook"},
	"write:repo_hook":       {"read:repo_hook"},
	"admin:public_key":      {"write:public_key"},
	"write:public_key":      {"read:public_key"},
	"admin:gpg_key":         {"write:gpg_key"},
	"write:gpg_key":         {"read:gpg_key"},
	"admin:ssh_signing_key": {"write:ssh_signing_key"},
	"write:ssh_signing_key": {"read:ssh_signing_key"},
	"user":                  {"read:user", "user:email", "user:follow"},
	"write:packages":        {"read:packages"},
	"project":               {"read:project"},
	"admin:enterprise":      {"manage_runners:enterprise", "manage_billing:enterprise", "read:enterprise"},
}

// scopePrefixes are the first parts of classic token scopes that have one
// (read:org, admin:org_hook, user:email); any other NAME:ACCESS need is a
// GitHub App permission (administration:read).
var scopePrefixes = []string{"read", "write", "admin", "delete", "manage_runners", "manage_billing", "repo", "user"}

// IsTokenScope reports whether a control's need names a classic token
// scope (repo, read:org) rather than a GitHub App permission
// (administration:read).
func IsTokenScope(need string) bool {
	prefix, _, ok := strings.Cut(need, ":")
	return !ok || slices.Contains(scopePrefixes, prefix)
}

// expandScopes is granted with every scope the granted ones include.
func expandScopes(granted []string) map[string]bool {
	have := map[string]bool{}
	var add func(s string)
	add = func(s string) {
		if have[s] {
			return
		}
		have[s] = true
		for _, sub := range scopeImplies[s] {
			add(sub)
		}
	}
	for _, s := range granted {
		add(s)
	}
	return have
}

// NeedsNotices compares the controls' token-scope needs with the scopes
// a classic token was granted (its X-OAuth-Scopes) and returns one notice
// per control whose needs it lacks: the 403 those controls will end in,
// explained before it happens. App permissions are not compared (a classic
// token has none: its scopes are what counts).
func NeedsNotices(controls []*Control, granted []string) []string {
	have := expandScopes(granted)
	var out []string
	for _, c := range controls {
		var missing []string
		for _, n := range c.Needs {
			if IsTokenScope(n) && !have[n] {
				missing = append(missing, n)
			}
		}
		if len(missing) == 0 {
			continue
		}
		has := strings.Join(granted, ", ")
		if has == "" {
			has = "no scope"
		}
		out = append(out, fmt.Sprintf("notice: control %s needs the token scope %s, which the token lacks (it has %s): expect the control to end in an error (HTTP 403 or 404)",
			c.ID, strings.Join(missing, ", "), has))
	}
	return out
}

// UnlistedNeedsNotice is the one notice for a credential whose
// permissions cannot be listed (a GitHub App, a fine-grained token, or no
// token: GitHub sends X-OAuth-Scopes for classic tokens only).
const UnlistedNeedsNotice = "notice: the controls' needs were not checked: the credential's permissions cannot be listed (GitHub reports X-OAuth-Scopes for classic tokens only, not for GitHub Apps or fine-grained tokens); a control whose needs it lacks ends in an error"
