package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
)

// checkRows measures `engine check` at org scale (issue 33): a file of
// 10 branch controls over an org of 1,000 repositories, against a fake
// with 50 ms of latency and GitHub's 900 requests a minute. Each control
// reads the org's repositories and each default branch's protection, so
// the run has 1,010 distinct URLs; sent once per run, it needs a little
// over one window (the 901st request starts a minute after the first).
// Before the run shared its answers, it sent 10,100 requests: over 11
// minutes at 900 a minute.
func (b *bench) checkRows(add addRow) {
	const repos, points, window = 1000, 900, time.Minute
	fake := fakegithub.New(fakegithub.WithRepos("cis", repos), fakegithub.WithLatency(50*time.Millisecond),
		fakegithub.WithLimits(fakegithub.Limits{Points: points, Window: window, Buckets: map[string]fakegithub.BucketLimit{
			"core": {Limit: 10_000_000, Window: time.Hour},
		}}))
	defer fake.Close()
	conds := []string{
		"bp.url IS NULL",
		"coalesce(json_extract(bp.enforce_admins, '$.enabled'), 0) = 0",
		"coalesce(json_extract(bp.required_pull_request_reviews, '$.required_approving_review_count'), 0) < 2",
		"coalesce(json_extract(bp.required_pull_request_reviews, '$.dismiss_stale_reviews'), 0) = 0",
		"coalesce(json_extract(bp.required_pull_request_reviews, '$.require_code_owner_reviews'), 0) = 0",
		"coalesce(json_extract(bp.required_signatures, '$.enabled'), 0) = 0",
		"coalesce(json_extract(bp.required_linear_history, '$.enabled'), 0) = 0",
		"coalesce(json_extract(bp.allow_force_pushes, '$.enabled'), 1) = 1",
		"coalesce(json_extract(bp.allow_deletions, '$.enabled'), 1) = 1",
		"coalesce(json_extract(bp.required_status_checks, '$.strict'), 0) = 0",
	}
	var file strings.Builder
	file.WriteString("controls:\n")
	for i, c := range conds {
		fmt.Fprintf(&file, `  - id: branch-%02d
    title: branch control %d
    sql: |
      SELECT r.name FROM github.repos.repos r
      LEFT JOIN github.branches.branch_protection bp
        ON bp.owner = 'cis' AND bp.repo = r.name AND bp.branch = r.default_branch
      WHERE r.org = 'cis' AND %s
`, i+1, i+1, c)
	}
	dir, _ := os.MkdirTemp("", "engine-bench-check-")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "controls.yaml")
	if err := os.WriteFile(path, []byte(file.String()), 0o600); err != nil {
		fail("%v", err)
	}
	// --max-requests is raised: one control needs 1,010 requests, more
	// than the default bound of a statement (1,000).
	cmd := exec.Command(b.bin, "check", "-o", "json", "--auth", `{"github":{"type":"null_auth"}}`, path)
	cmd.Env = b.env("ENGINE_BASE_URL_GITHUB="+fake.URL(), "ENGINE_MAX_REQUESTS=2000")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	var rep struct {
		Totals struct{ Controls, Error int } `json:"totals"`
		Stats  struct {
			Shared int `json:"shared"`
		} `json:"stats"`
	}
	if jerr := json.Unmarshal(out.Bytes(), &rep); jerr != nil || rep.Totals.Error > 0 {
		fail("check: %v %v\n%s\n%s", err, jerr, out.String(), errb.String())
	}
	distinct := map[string]bool{}
	reqs := fake.Requests()
	for _, r := range reqs {
		distinct[r.Path+"?"+r.RawQuery] = true
	}
	minimum := time.Duration((len(distinct)-1)/points) * window
	add("check: 10 branch controls x 1,000 repos, 50 ms latency, 900/min", fmt.Sprintf("%d requests for %d distinct URLs (%.2fx), %d pages shared, %s",
		len(reqs), len(distinct), float64(len(reqs))/float64(len(distinct)), rep.Stats.Shared, ms(d)), "<= 1.2x distinct URLs")
	add("  wall / minimum the 900/min window allows", fmt.Sprintf("%.2fx (minimum %s)", float64(d)/float64(max(minimum, time.Second)), ms(minimum)), "<= 1.3x")
}
