package check

import (
	"strings"
	"testing"
)

func TestIsTokenScope(t *testing.T) {
	for need, want := range map[string]bool{
		"repo": true, "read:org": true, "admin:org_hook": true, "security_events": true, "user:email": true,
		"administration:read": false, "organization_administration:read": false, "members:read": false,
	} {
		if IsTokenScope(need) != want {
			t.Errorf("IsTokenScope(%q) = %v", need, !want)
		}
	}
}

func TestNeedsNotices(t *testing.T) {
	cs := []*Control{
		{ID: "a", Needs: []string{"read:org", "organization_administration:read"}},
		{ID: "b", Needs: []string{"admin:org_hook", "organization_hooks:read"}},
		{ID: "c", Needs: []string{"security_events", "read:repo_hook"}},
		{ID: "d"},
	}
	got := NeedsNotices(cs, []string{"repo", "admin:org", "admin:repo_hook"})
	if len(got) != 1 || !strings.Contains(got[0], "control b needs the token scope admin:org_hook,") {
		t.Fatalf("%q", got)
	}
	got = NeedsNotices(cs, nil)
	if len(got) != 3 || !strings.Contains(got[2], "security_events, read:repo_hook") || !strings.Contains(got[2], "has no scope") {
		t.Fatalf("%q", got)
	}
}
