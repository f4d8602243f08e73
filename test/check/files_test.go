package check

import (
	"fmt"
	"strings"
	"testing"
)

// workflowControls are the supply-chain controls of docs/check.md
// ("Controls over files"), over org tiny of the fake, whose three
// repositories have a safe workflow (alpha), one on pull_request_target
// that checks out the pull request's head (beta), and one with actions
// not pinned to a commit (gamma).
const workflowControls = `vars:
  org: tiny
controls:
  - id: workflow-pull-request-target
    title: No workflow runs on pull_request_target
    severity: high
    sql: |
      SELECT r.name AS repo, w.path
      FROM github.repos.repos r
      JOIN github.repos.contents w
        ON w.owner = r.org AND w.repo = r.name AND w.path = '.github/workflows'
      JOIN github.git.blobs b
        ON b.owner = r.org AND b.repo = r.name AND b.file_sha = w.sha
      WHERE r.org = {{org}}
        AND regexp_like(json_extract(yaml_to_json(base64_decode(b.content)), '$.on'),
                        '(^|")pull_request_target("|$)')
      ORDER BY repo, w.path
  - id: workflow-unpinned-actions
    title: Every action is pinned to a commit
    severity: medium
    sql: |
      SELECT r.name AS repo, w.path, json_extract(s.value, '$.uses') AS action
      FROM github.repos.repos r
      JOIN github.repos.contents w
        ON w.owner = r.org AND w.repo = r.name AND w.path = '.github/workflows'
      JOIN github.git.blobs b
        ON b.owner = r.org AND b.repo = r.name AND b.file_sha = w.sha,
      json_each(yaml_to_json(base64_decode(b.content)), '$.jobs') j,
      json_each(j.value, '$.steps') s
      WHERE r.org = {{org}}
        AND json_extract(s.value, '$.uses') IS NOT NULL
        AND NOT regexp_like(json_extract(s.value, '$.uses'),
                            '^[.]/|@[0-9a-f]{40}$|^docker://.*@sha256:[0-9a-f]{64}$')
      ORDER BY repo, w.path, action
`

// Issue 34's done criterion: both controls run through engine check
// against the fake and return exactly the seeded repositories.
func TestWorkflowControls(t *testing.T) {
	s, env := serverEnv(t)
	_, r := checkControls(t, env, "workflows.yaml", workflowControls, 1, "-o", "json")
	rep := parseJSON(t, r)
	want := map[string]string{
		"workflow-pull-request-target": "[[beta .github/workflows/pr.yml]]",
		"workflow-unpinned-actions":    "[[gamma .github/workflows/build.yml actions/checkout@v4] [gamma .github/workflows/build.yml docker/build-push-action@master]]",
	}
	for _, c := range rep.Controls {
		if c.Status != "fail" || fmt.Sprint(c.Rows) != want[c.ID] {
			t.Errorf("%s: %s %v, want fail %s (error %+v)", c.ID, c.Status, c.Rows, want[c.ID], c.Error)
		}
	}
	if len(rep.Controls) != 2 {
		t.Fatalf("%d controls", len(rep.Controls))
	}
	for _, q := range s.Requests() {
		if strings.Contains(q.Path, "/contents/") && strings.Contains(strings.ToUpper(q.EscapedPath), "%2F") {
			t.Errorf("the contents path went out with escaped slashes: %s", q.EscapedPath)
		}
	}
}
