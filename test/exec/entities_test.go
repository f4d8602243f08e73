package exec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/test/testutil"
)

// Entity tables (docs/reliability.md, "Tables that mean one thing"): every table means one thing, so the same WHERE
// keys read different entities from different tables, and the method that
// ran is named in EXPLAIN and in the stats.

// requestPaths lists the paths the fake server was asked for.
func requestPaths() []string {
	var out []string
	for _, r := range fake.Requests() {
		out = append(out, r.Path)
	}
	return out
}

func TestContributorsTable(t *testing.T) {
	fake.ResetRequests()
	r := run(t, "-o", "csv", `SELECT login, contributions FROM github.repos.contributors WHERE owner = 'tiny' AND repo = 'gamma' ORDER BY contributions DESC`)
	// gamma is tiny's repo 2: 1 + 2%3 = 3 contributors capped at tiny's 2
	// members, contributions 100/j + 2.
	if r.Code != 0 || r.Stdout != csvLines("login,contributions", "tiny-dev-01,102", "tiny-dev-02,52") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if got := strings.Join(requestPaths(), ","); got != "/repos/tiny/gamma/contributors" {
		t.Fatalf("requests %s, want only /repos/tiny/gamma/contributors", got)
	}

	// The first query: repos.repos has no contributor columns any
	// more, so it is a plan error naming the table that has them, before
	// any request (it used to run GET /repos/{owner}/{repo} and return one
	// row of NULLs).
	fake.ResetRequests()
	r = run(t, "-o", "json", `SELECT login, contributions FROM github.repos.repos WHERE owner = 'tiny' AND repo = 'gamma'`)
	if r.Code != 1 || errorKind(t, r) != engine.KindPlan || !strings.Contains(r.Stderr, "no such column: login") ||
		!strings.Contains(r.Stderr, "github.repos.contributors") {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("%d requests before the refusal", n)
	}
}

func TestSearchReposVersusCode(t *testing.T) {
	fake.ResetRequests()
	r := run(t, "-o", "csv", `SELECT full_name FROM github.search.repos WHERE q = 'org:tiny' ORDER BY full_name`)
	if r.Code != 0 || r.Stdout != csvLines("full_name", "tiny/alpha", "tiny/beta", "tiny/gamma") {
		t.Fatalf("search repos: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if got := strings.Join(requestPaths(), ","); got != "/search/repositories" {
		t.Fatalf("search repos asked %s", got)
	}

	fake.ResetRequests()
	r = run(t, "-o", "csv", `SELECT path, json_extract(repository, '$.full_name') AS repo FROM github.search.code WHERE q = 'org:tiny a' ORDER BY repo`)
	if r.Code != 0 || r.Stdout != csvLines("path,repo", "README.md,tiny/alpha", "README.md,tiny/beta", "README.md,tiny/gamma") {
		t.Fatalf("search code: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if got := strings.Join(requestPaths(), ","); got != "/search/code" {
		t.Fatalf("search code asked %s", got)
	}

	// A repository column is not a column of code results.
	fake.ResetRequests()
	r = run(t, "-o", "json", `SELECT full_name FROM github.search.code WHERE q = 'org:tiny'`)
	if r.Code != 1 || !strings.Contains(r.Stderr, "no such column: full_name") || len(fake.Requests()) != 0 {
		t.Fatalf("exit %d, %d requests\n%s", r.Code, len(fake.Requests()), r.Stderr)
	}
}

func TestInvitationsVersusMembers(t *testing.T) {
	fake.ResetRequests()
	r := run(t, "-o", "csv", `SELECT count(*) AS n FROM github.orgs.members WHERE org = 'acme'`)
	if r.Code != 0 || r.Stdout != csvLines("n", "40") {
		t.Fatalf("members: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if got := strings.Join(requestPaths(), ","); got != "/orgs/acme/members" {
		t.Fatalf("members asked %s", got)
	}

	fake.ResetRequests()
	r = run(t, "-o", "csv", `SELECT login, role, failed_reason FROM github.orgs.invitations WHERE org = 'acme' ORDER BY login`)
	if r.Code != 0 || r.Stdout != csvLines("login,role,failed_reason", "invitee-1,admin,", "invitee-2,direct_member,", "invitee-3,admin,", "invitee-4,direct_member,") {
		t.Fatalf("invitations: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if got := strings.Join(requestPaths(), ","); got != "/orgs/acme/invitations" {
		t.Fatalf("invitations asked %s", got)
	}

	// The failed ones are the same entity, read with the fourth name part.
	fake.ResetRequests()
	r = run(t, "-o", "csv", `SELECT login, failed_reason FROM github.orgs.invitations.list_failed_invitations WHERE org = 'acme'`)
	if r.Code != 0 || r.Stdout != csvLines("login,failed_reason", "failed-invitee-1,Invitation expired") {
		t.Fatalf("failed invitations: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if got := strings.Join(requestPaths(), ","); got != "/orgs/acme/failed_invitations" {
		t.Fatalf("failed invitations asked %s", got)
	}
}

// TestMethodChosenByColumns: among methods that can run, the one whose
// rows carry every referenced column wins over the shortest path, and
// EXPLAIN and --stats name the method.
func TestMethodChosenByColumns(t *testing.T) {
	fake.ResetRequests()
	// network_count is a column of GET /repositories (minimal-repository)
	// and not of GET /user/repos, the shorter path with no key either.
	r := run(t, "-o", "csv", `EXPLAIN SELECT name, network_count FROM github.repos.repos`)
	testutil.WantRun(t, "exec", r, 0, "via list_public (GET /repositories)", "")
	r = run(t, "-o", "csv", `EXPLAIN SELECT name FROM github.repos.repos`)
	testutil.WantRun(t, "exec", r, 0, "via list_for_authenticated_user (GET /user/repos)", "")
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("EXPLAIN sent %d requests", n)
	}

	// The stats of a run name the method that ran: with no WHERE, an agent
	// can see it listed the token's own repositories.
	r = run(t, "-o", "json", "--stats", `SELECT name FROM github.repos.repos`)
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	var st struct {
		Notice string `json:"notice"`
		Stats  struct {
			Methods []string `json:"methods"`
		} `json:"stats"`
	}
	// stderr holds two JSON lines: the notice that the rows are the
	// token's user's (no key), then the stats.
	dec := json.NewDecoder(strings.NewReader(r.Stderr))
	for dec.More() {
		if err := dec.Decode(&st); err != nil {
			t.Fatalf("stderr: %v\n%s", err, r.Stderr)
		}
	}
	if !strings.Contains(r.Stderr, `"notice":"github.repos.repos read with list_for_authenticated_user (GET /user/repos), which needs no key`) {
		t.Fatalf("no scope notice:\n%s", r.Stderr)
	}
	if strings.Join(st.Stats.Methods, ";") != "github.repos.repos: GET /user/repos" {
		t.Fatalf("stats methods = %v", st.Stats.Methods)
	}
	r = run(t, "-o", "csv", "--stats", `SELECT count(*) FROM github.repos.repos WHERE org = 'tiny'`)
	testutil.WantRun(t, "exec", r, 0, "", "read github.repos.repos: GET /orgs/{org}/repos")
}

// DESCRIBE shows the table's one-line summary and each column's
// description (first sentence of the OpenAPI schema's), without requests.
func TestDescribeShowsDescriptions(t *testing.T) {
	fake.ResetRequests()
	r := run(t, "-o", "csv", `DESCRIBE github.repos.repos`)
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	if !testutil.Contains(t, "DESCRIBE", r.Stdout,
		"name,type,kind,methods,description\n",
		"github.repos.repos,,table,5,Repository.\n",
		"archived,BOOLEAN,column,all,Whether the repository is archived.\n",
		"org,TEXT,required key,list_for_org,\n",
	) {
		t.FailNow()
	}
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("DESCRIBE sent %d requests", n)
	}
}
