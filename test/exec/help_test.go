package exec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestHelpMatchesReadme: --help shows what README's Configuration table
// says: --provider's optional profile, and the variables --auth's
// default reads, the GitHub App's ones (the github profile's auth.app.env)
// included.
func TestHelpMatchesReadme(t *testing.T) {
	r := testutil.Run(t, testutil.Env(t), "", "--help")
	if r.Code != 0 {
		t.Fatalf("--help: exit %d %s", r.Code, r.Stderr)
	}
	var line = func(flag string) string {
		for _, l := range strings.Split(r.Stdout, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), flag+" ") {
				return l
			}
		}
		t.Fatalf("--help has no %s:\n%s", flag, r.Stdout)
		return ""
	}
	testutil.Contains(t, "--provider help", line("--provider"), "NAME=PATH[,profile=FILE]")
	readme := string(testutil.RepoFile(t, "README.md"))
	testutil.Contains(t, "README", readme, "`--provider NAME=PATH[,profile=FILE]`")

	var app struct {
		Env map[string]string `json:"env"`
	}
	if err := json.Unmarshal(testutil.ProfileSection(t, "github", "auth", "app"), &app); err != nil || len(app.Env) == 0 {
		t.Fatalf("github profile auth.app.env: %v %v", app.Env, err)
	}
	auth := line("--auth")
	testutil.Contains(t, "--auth help", auth, "GITHUB_TOKEN", "GH_TOKEN")
	for _, v := range app.Env {
		testutil.Contains(t, "--auth help", auth, v)
		testutil.Contains(t, "README", readme, "`"+v+"`")
	}
}
