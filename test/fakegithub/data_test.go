package fakegithub

import (
	"testing"
)

// TestAcmeDataset pins the numbers documented in doc.go.
func TestAcmeDataset(t *testing.T) {
	s := ForTest(t)
	repos, _ := fetchAll(t, s.URL()+"/orgs/acme/repos?per_page=100")
	is := func(k string, v any) func(map[string]any) bool {
		return func(m map[string]any) bool { return m[k] == v }
	}
	checks := []struct {
		name string
		got  int
		want int
	}{
		{"public", count(repos, is("private", false)), 84},
		{"private", count(repos, is("private", true)), 166},
		{"visibility private", count(repos, is("visibility", "private")), 166},
		{"archived", count(repos, is("archived", true)), 25},
		{"archived public", count(repos, func(m map[string]any) bool { return m["archived"] == true && m["private"] == false }), 9},
		{"forks", count(repos, is("fork", true)), 13},
		{"Go", count(repos, is("language", "Go")), 63},
		{"Python", count(repos, is("language", "Python")), 63},
		{"TypeScript", count(repos, is("language", "TypeScript")), 62},
		{"language null", count(repos, is("language", nil)), 62},
		{"license null", count(repos, is("license", nil)), 100},
		{"master", count(repos, is("default_branch", "master")), 10},
		{"description null", count(repos, is("description", nil)), 41},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %d want %d", c.name, c.got, c.want)
		}
	}
	open := 0
	for _, r := range repos {
		open += int(r["open_issues_count"].(float64))
	}
	if open != 500+373 {
		t.Errorf("sum open_issues_count = %d", open)
	}
	for typ, want := range map[string]int{"all": 250, "public": 84, "private": 166, "forks": 13, "sources": 237} {
		items, _ := fetchAll(t, s.URL()+"/orgs/acme/repos?per_page=100&type="+typ)
		if len(items) != want {
			t.Errorf("type=%s: %d want %d", typ, len(items), want)
		}
	}
	// tiny
	tiny, _ := fetchAll(t, s.URL()+"/orgs/tiny/repos?sort=full_name")
	if len(tiny) != 3 || tiny[0]["name"] != "alpha" || tiny[2]["name"] != "gamma" {
		t.Errorf("tiny: %v", tiny)
	}
}

func TestOrgResources(t *testing.T) {
	s := ForTest(t)
	for path, want := range map[string]int{
		"/orgs/acme/members":                                        40,
		"/orgs/acme/members?filter=2fa_disabled":                    5,
		"/orgs/acme/members?role=admin":                             3,
		"/orgs/acme/outside_collaborators":                          6,
		"/orgs/acme/outside_collaborators?filter=2fa_disabled":      3,
		"/orgs/acme/teams":                                          8,
		"/orgs/acme/hooks":                                          4,
		"/orgs/acme/dependabot/alerts":                              60,
		"/orgs/acme/dependabot/alerts?state=open":                   36,
		"/orgs/acme/dependabot/alerts?state=open&severity=critical": 9,
		"/orgs/acme/dependabot/alerts?severity=critical,high":       30,
		"/orgs/acme/secret-scanning/alerts":                         12,
		"/orgs/acme/secret-scanning/alerts?state=open":              8,
		"/orgs/tiny/members":                                        2,
		"/orgs/tiny/dependabot/alerts":                              3,
		"/orgs/scale-100/members":                                   0,
		"/repos/acme/repo-004/issues":                               4,
		"/repos/acme/repo-004/issues?state=all":                     5,
		"/repos/acme/repo-007/issues?state=all":                     2 + 1 + 3 + 1,
		"/repos/acme/repo-007/pulls":                                3,
		"/repos/acme/repo-007/pulls?state=closed":                   1,
		"/repos/acme/repo-005/branches":                             3,
		"/repos/acme/repo-004/branches?protected=true":              1,
		"/repos/acme/repo-002/collaborators":                        4,
		"/user/repos":                                               5,
		"/users/octocat/repos":                                      2,
		"/users/acme/repos":                                         84,
	} {
		items, _ := fetchAll(t, s.URL()+path)
		if len(items) != want {
			t.Errorf("%s: %d want %d", path, len(items), want)
		}
	}
	var hooks []map[string]any
	getJSON(t, s.URL()+"/orgs/acme/hooks", &hooks)
	insecure := count(hooks, func(m map[string]any) bool { return m["config"].(map[string]any)["insecure_ssl"] == "1" })
	if insecure != 2 {
		t.Errorf("insecure hooks %d", insecure)
	}
	var runs struct {
		TotalCount   int              `json:"total_count"`
		WorkflowRuns []map[string]any `json:"workflow_runs"`
	}
	getJSON(t, s.URL()+"/repos/acme/repo-005/actions/runs?per_page=2", &runs)
	if runs.TotalCount != 5 || len(runs.WorkflowRuns) != 2 || runs.WorkflowRuns[0]["status"] != "in_progress" {
		t.Errorf("runs: %d %d %v", runs.TotalCount, len(runs.WorkflowRuns), runs.WorkflowRuns[0]["status"])
	}
	var e map[string]any
	if r := getJSON(t, s.URL()+"/repos/acme/repo-001/branches/main/protection", &e); r.StatusCode != 404 || e["message"] != "Branch not protected" {
		t.Errorf("unprotected: %d %v", r.StatusCode, e)
	}
	if r := getJSON(t, s.URL()+"/repos/acme/repo-004/branches/main/protection", &e); r.StatusCode != 200 || e["required_pull_request_reviews"] == nil {
		t.Errorf("protected: %d %v", r.StatusCode, e)
	}
	if r := getJSON(t, s.URL()+"/repos/acme/repo-004/branches/nope", &e); r.StatusCode != 404 || e["message"] != "Branch not found" {
		t.Errorf("missing branch: %d %v", r.StatusCode, e)
	}
	for _, p := range []string{"/orgs/acme", "/users/acme", "/users/acme-dev-01", "/user", "/rate_limit", "/repos/acme/repo-005", "/repos/acme/repo-007/issues/7", "/repos/acme/repo-000/branches/master", "/repos/octocat/hello-world"} {
		var m map[string]any
		if r := getJSON(t, s.URL()+p, &m); r.StatusCode != 200 {
			t.Errorf("%s: %d", p, r.StatusCode)
		}
	}
	var issue map[string]any
	getJSON(t, s.URL()+"/repos/acme/repo-007/issues/7", &issue)
	if issue["pull_request"] == nil || issue["state"] != "closed" {
		t.Errorf("issue 7 of repo-007 should be a closed pull: %v %v", issue["pull_request"], issue["state"])
	}
}
