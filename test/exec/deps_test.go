package exec_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// Dependent parameter binding (docs/architecture.md, "Data path"): a required parameter bound from
// another table of the same query.

// reposToPulls is the FROM of the statements that bind each repository's
// pull requests from its row: the dependent fan-out of these tests.
const reposToPulls = `FROM github.repos.repos r
JOIN github.pulls.pulls p ON p.owner = json_extract(r.owner, '$.login') AND p.repo = r.name
`

const joinPulls = `SELECT r.name, count(p.number) AS pulls
` + reposToPulls + `WHERE r.org = 'tiny' GROUP BY r.name ORDER BY r.name`

func TestJoinBindsRequiredParameters(t *testing.T) {
	fake.ResetRequests()
	r := run(t, "-o", "csv", joinPulls)
	// tiny: alpha has no open pull, beta 1, gamma 2 (inner join drops alpha).
	if r.Code != 0 || r.Stdout != csvLines("name,pulls", "beta,1", "gamma,2") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, repo := range []string{"alpha", "beta", "gamma"} {
		if n := requestsTo("/repos/tiny/" + repo + "/pulls"); n != 1 {
			t.Errorf("pulls of %s fetched %d times, want once", repo, n)
		}
	}
}

func TestInSubqueryBindsAndDeduplicates(t *testing.T) {
	fake.ResetRequests()
	// The subquery yields every archived acme repo; the UNION repeats them,
	// yet each (owner, repo) tuple is fetched once.
	q := `SELECT count(*) AS c FROM github.pulls.pulls p WHERE p.owner = 'acme' AND p.repo IN (
	        SELECT name FROM github.repos.repos WHERE org = 'acme' AND archived
	        UNION ALL SELECT name FROM github.repos.repos WHERE org = 'acme' AND archived)`
	r := run(t, "-o", "csv", q)
	want := 0
	var archived []string
	for i := 0; i < 250; i++ {
		if i%10 == 9 {
			want += i % 4 // open pulls of repo i
			archived = append(archived, fmt.Sprintf("/repos/acme/repo-%03d/pulls", i))
		}
	}
	if r.Code != 0 || r.Stdout != csvLines("c", fmt.Sprint(want)) {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	var pullPaths []string
	for _, req := range fake.Requests() {
		if strings.HasSuffix(req.Path, "/pulls") {
			pullPaths = append(pullPaths, req.Path)
		}
	}
	sort.Strings(pullPaths)
	if strings.Join(pullPaths, ",") != strings.Join(archived, ",") {
		t.Fatalf("pull requests fetched for %d paths, want each of the %d archived repos once:\n%v", len(pullPaths), len(archived), pullPaths)
	}
}

const unprotected = `SELECT r.name
FROM github.repos.repos r
LEFT JOIN github.branches.branch_protection bp
  ON bp.owner = json_extract(r.owner, '$.login') AND bp.repo = r.name AND bp.branch = r.default_branch
WHERE r.org = 'acme' AND bp.url IS NULL
ORDER BY r.name`

func TestBranchProtectionLeftJoinFindsUnprotectedRepos(t *testing.T) {
	r := run(t, "-o", "csv", unprotected)
	// The default branch of repo i is protected when i%4 == 0; the 404
	// "Branch not protected" of the others means "no rows", by the index.
	if r.Code != 0 || r.Stdout != csvLines("name", names(func(i int) bool { return i%4 != 0 })...) {
		t.Fatalf("exit %d\n%.300s\n%s", r.Code, r.Stdout, r.Stderr)
	}
}

func TestChainOrgReposBranchesProtection(t *testing.T) {
	q := `SELECT b.repo, b.name AS branch, bp.url IS NOT NULL AS protected
FROM github.repos.repos r
JOIN github.branches.branches b ON b.owner = json_extract(r.owner, '$.login') AND b.repo = r.name
LEFT JOIN github.branches.branch_protection bp ON bp.owner = b.owner AND bp.repo = b.repo AND bp.branch = b.name
WHERE r.org = 'tiny' ORDER BY b.repo, b.name`
	r := run(t, "-o", "csv", q)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	rows := strings.Split(strings.TrimSpace(r.Stdout), "\n")[1:]
	if len(rows) == 0 || rows[0] != "alpha,master,1" {
		t.Fatalf("rows: %v", rows)
	}
	for _, row := range rows[1:] {
		if !strings.HasSuffix(row, ",0") {
			t.Fatalf("only alpha's master is protected in tiny: %v", rows)
		}
	}
}

func TestAbsenceNeverHidesAuthOrRateLimit(t *testing.T) {
	for _, f := range []fakegithub.Fault{
		{Kind: fakegithub.KindStatus, Status: 403},
		{Kind: fakegithub.KindStatus, Status: 401},
		{Kind: fakegithub.KindRateLimit},
		{Kind: fakegithub.KindStatus, Status: 500},
	} {
		fake.ClearFaults()
		f.Path = "^/repos/acme/repo-013/branches/main/protection$"
		fake.Inject(f)
		r := run(t, "-o", "json", unprotected)
		if r.Code != 2 || !strings.Contains(r.Stderr, "repo-013") {
			t.Errorf("%s %d on one protection lookup: exit %d, stderr %s", f.Kind, f.Status, r.Code, r.Stderr)
		}
	}
	fake.ClearFaults()
}

func TestOneFailingFanOutCallFailsTheQuery(t *testing.T) {
	defer fake.ClearFaults()
	// 50 repos of acme fan out into 50 pulls requests; one answers 403.
	fake.Inject(fakegithub.Fault{Path: "^/repos/acme/repo-037/pulls$", Kind: fakegithub.KindStatus, Status: 403})
	q := `SELECT count(*) FROM github.pulls.pulls p WHERE p.owner = 'acme' AND p.repo IN (
	        SELECT name FROM github.repos.repos WHERE org = 'acme' AND name < 'repo-050')`
	r := run(t, "-o", "json", q)
	if r.Code != 2 || !strings.Contains(r.Stderr, `"http_status":403`) || strings.TrimSpace(r.Stdout) != "" {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
}

func TestDependentFanOutAboveLimitIsRefusedBeforeRequests(t *testing.T) {
	fake.ResetRequests()
	r := testutil.Run(t, execEnv(t), "", "exec", "--max-requests", "20", joinPulls+"")
	if r.Code != 0 {
		t.Fatalf("3 repos under a limit of 20 should run: %d %s", r.Code, r.Stderr)
	}
	fake.ResetRequests()
	q := `SELECT count(*) FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name WHERE r.org = 'acme'`
	r = testutil.Run(t, execEnv(t), "", "exec", "--max-requests", "100", q)
	if r.Code != 1 || !strings.Contains(r.Stderr, "251 requests") || !strings.Contains(r.Stderr, "--max-requests") {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	for _, req := range fake.Requests() {
		if strings.HasSuffix(req.Path, "/pulls") {
			t.Fatalf("a pulls request was made before the refusal: %s", req.Path)
		}
	}
	// Two fan-outs from the same rows: the second's requests are known
	// with the first's, so the statement is refused before either sends
	// one (before: the first sent its 250, then the second was refused)
	fake.ResetRequests()
	two := `SELECT count(*) FROM github.repos.repos r JOIN github.pulls.pulls p ON p.owner = 'acme' AND p.repo = r.name JOIN github.issues.issues i ON i.owner = 'acme' AND i.repo = r.name WHERE r.org = 'acme'`
	r = testutil.Run(t, execEnv(t), "", "exec", "--max-requests", "300", two)
	if r.Code != 1 || !strings.Contains(r.Stderr, "at least 501 requests") || !strings.Contains(r.Stderr, "250 for the other tables bound from the same rows") {
		t.Fatalf("two fan-outs: exit %d: %s", r.Code, r.Stderr)
	}
	for _, req := range fake.Requests() {
		if strings.HasSuffix(req.Path, "/pulls") || strings.HasSuffix(req.Path, "/issues") {
			t.Fatalf("a fan-out request was made before the refusal: %s", req.Path)
		}
	}
}

func TestExplainShowsBindingOrderAndCost(t *testing.T) {
	fake.ResetRequests()
	r := run(t, "-o", "tsv", "EXPLAIN "+unprotected)
	want := "plan\n" +
		"1. scan github.repos.repos AS r via list_for_org (GET /orgs/{org}/repos) with org='acme'; 1 request(s) (+ further pages)\n" +
		"2. scan github.branches.branch_protection AS bp via get_branch_protection (GET /repos/{owner}/{repo}/branches/{branch}/protection) with owner from json_extract(r.owner, '$.login'), repo from r.name, branch from r.default_branch; one request per distinct binding: N(r)\n" +
		"estimated requests: 1 + N(r) (first pages)\n"
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, want) {
		t.Fatalf("got:\n%s\nwant prefix:\n%s", r.Stdout, want)
	}
	if len(fake.Requests()) != 0 {
		t.Fatalf("EXPLAIN made %d requests", len(fake.Requests()))
	}
}
