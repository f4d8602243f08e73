package openapi

import (
	"os"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// githubDescription is the full api.github.com description, shared with the
// rest of the repository under /work/shared.
const githubDescription = "../../../shared/openapi/github/api.github.com.json.gz"

// githubOverrides holds the naming data of the entity tables.
const githubOverrides = "../../registry/profiles/github.json"

var github struct {
	once sync.Once
	doc  *openapi3.T
	h    providers.Header
	rs   []*providers.Resource
	err  error
}

// deriveGitHub parses and derives the full description once per test run.
func deriveGitHub(t *testing.T) (providers.Header, map[string]*providers.Resource) {
	t.Helper()
	github.once.Do(func() {
		raw, err := os.ReadFile(githubDescription)
		if err != nil {
			github.err = err
			return
		}
		doc, err := ParseDocument(githubDescription, raw)
		if err != nil {
			github.err = err
			return
		}
		ovData, err := os.ReadFile(githubOverrides)
		if err != nil {
			github.err = err
			return
		}
		ov, err := ParseProfileFile(ovData)
		if err != nil {
			github.err = err
			return
		}
		github.doc = doc
		// GitHub's headers and pagination are its profile's data: the
		// profile is applied as for a --provider document (untrusted: its
		// token variables are not read).
		// (Absence rules are applied by the generator, see TestOverrides*.)
		github.h, github.rs, github.err = DeriveTables(doc, "github", ov.Tables)
		if github.err == nil {
			github.err = applyProfile(ov, &github.h, github.rs, false)
		}
	})
	if github.err != nil {
		t.Fatalf("the full GitHub description must be present and derivable: %v", github.err)
	}
	byName := map[string]*providers.Resource{}
	for _, r := range github.rs {
		byName[r.FullName()] = r
	}
	return github.h, byName
}

func TestGitHubCounts(t *testing.T) {
	h, rs := deriveGitHub(t)
	methods := 0
	for _, r := range rs {
		methods += len(r.Methods)
		seen := map[string]bool{}
		for _, m := range r.Methods {
			if seen[m.Name] {
				t.Errorf("%s: duplicate method %s", r.FullName(), m.Name)
			}
			seen[m.Name] = true
		}
	}
	// 639 GET operations, of which 9 answer with a download (a redirect or
	// a binary body) and are not tables.
	if methods != 630 {
		t.Errorf("GET methods = %d, want 630", methods)
	}
	// One table per entity of each GitHub subcategory (161 subcategories).
	if len(rs) != 371 {
		t.Errorf("resources = %d, want 371", len(rs))
	}
	if h.Provider != "github" || h.BaseURL != "https://api.github.com" || h.Version != "23.0.2" {
		t.Errorf("header = %+v", h)
	}
	if len(h.TokenEnv) != 0 {
		// Only the built-in index (BuildIndex, trusting the profile) reads
		// the token variables; a document loaded with --provider does not.
		t.Errorf("Derive set token env %v", h.TokenEnv)
	}
	if h.Headers["Accept"] != "application/vnd.github+json" || h.Headers["X-GitHub-Api-Version"] != "2022-11-28" {
		t.Errorf("headers = %v", h.Headers)
	}
}

func TestGitHubResourceNames(t *testing.T) {
	_, rs := deriveGitHub(t)
	for _, name := range []string{
		"github.repos.repos", "github.orgs.members", "github.orgs.outside_collaborators",
		"github.issues.issues", "github.pulls.pulls", "github.branches.branch_protection",
		"github.actions.workflow_runs", "github.dependabot.alerts",
		"github.secret_scanning.secret_scanning", "github.teams.teams",
		"github.rate_limit.rate_limit",
		// tables named for their entity
		"github.repos.contributors", "github.repos.tags", "github.repos.languages",
		"github.search.repos", "github.search.code", "github.orgs.invitations",
		"github.orgs.memberships", "github.repos.readme", "github.repos.contents",
	} {
		if rs[name] == nil {
			t.Errorf("missing resource %s", name)
		}
	}
}

func TestGitHubMethods(t *testing.T) {
	_, rs := deriveGitHub(t)
	get := func(res, method string) *providers.Method {
		t.Helper()
		r := rs[res]
		if r == nil {
			t.Fatalf("missing resource %s", res)
		}
		return mustMethod(t, r, method)
	}
	required := func(m *providers.Method, want ...string) {
		t.Helper()
		if got := m.Required(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s required = %v, want %v", m.OperationID, got, want)
		}
	}

	lfo := get("github.repos.repos", "list_for_org")
	if lfo.OperationID != "repos/list-for-org" || lfo.Path != "/orgs/{org}/repos" || lfo.Shape != providers.ShapeArray || !lfo.Paginated {
		t.Errorf("list_for_org = %s %s %s paginated=%v", lfo.OperationID, lfo.Path, lfo.Shape, lfo.Paginated)
	}
	required(lfo, "org")
	if lfo.Param("per_page") != nil || lfo.Param("page") != nil {
		t.Error("page/per_page listed as parameters")
	}
	for col, typ := range map[string]string{"private": "BOOLEAN", "id": "INTEGER", "owner": "JSON", "name": "TEXT", "topics": "JSON", "updated_at": "TEXT"} {
		if c := lfo.Column(col); c == nil || c.Type != typ {
			t.Errorf("list_for_org column %s = %+v, want %s", col, c, typ)
		}
	}

	g := get("github.repos.repos", "get")
	required(g, "owner", "repo")
	if g.Shape != providers.ShapeObject || g.Paginated {
		t.Errorf("repos get = %s paginated=%v", g.Shape, g.Paginated)
	}

	bp := get("github.branches.branch_protection", "get_branch_protection")
	required(bp, "owner", "repo", "branch")
	if bp.Absent != nil {
		// Derive alone sets no absence rules; the generator's overrides do.
		t.Errorf("Derive set Absent %v", bp.Absent)
	}

	wr := get("github.actions.workflow_runs", "list_workflow_runs_for_repo")
	if wr.Shape != providers.ShapeWrapped || wr.ItemKey != "workflow_runs" || !wr.Paginated {
		t.Errorf("workflow runs = shape %s key %q paginated %v", wr.Shape, wr.ItemKey, wr.Paginated)
	}
	required(wr, "owner", "repo")
	if c := wr.Column("run_number"); c == nil || c.Type != "INTEGER" {
		t.Errorf("workflow_runs run_number = %+v (columns come from the items)", c)
	}
	if wr.Column("total_count") != nil {
		t.Error("wrapper property total_count became a column")
	}

	members := get("github.orgs.members", "list_members")
	required(members, "org")
	if members.Param("role") == nil {
		t.Error("orgs list_members lacks its role filter")
	}

	adv := get("github.security_advisories.global_advisories", "list_global_advisories")
	for _, cursor := range []string{"before", "after"} {
		if p := adv.Param(cursor); p == nil || p.Required || p.In != providers.InQuery {
			t.Errorf("cursor %s = %+v", cursor, p)
		}
	}

	collab := get("github.collaborators.check_collaborator", "check_collaborator")
	if collab.Shape != providers.ShapeNone || len(collab.Columns) != 0 {
		t.Errorf("204 check = %s %v", collab.Shape, collab.Columns)
	}
	required(collab, "owner", "repo", "username")

	rl := get("github.rate_limit.rate_limit", "get")
	if rl.Shape != providers.ShapeObject || rl.Column("resources") == nil {
		t.Errorf("rate_limit get = %s %v", rl.Shape, rl.Columns)
	}

	// anyOf of two array representations: array, union of item columns.
	sg := get("github.activity.stargazers", "list_stargazers_for_repo")
	if sg.Shape != providers.ShapeArray || sg.Column("login") == nil || sg.Column("starred_at") == nil {
		t.Errorf("stargazers = %s %v", sg.Shape, sg.Columns)
	}

	// An item that holds one array (a runner and its labels) is not a wrapper.
	runner := get("github.actions.self_hosted_runners", "get_self_hosted_runner_for_repo")
	if runner.Shape != providers.ShapeObject {
		t.Errorf("get_self_hosted_runner_for_repo shape = %s, want object", runner.Shape)
	}
}

// TestGitHubTablesMeanOneThing: every method of a table returns rows of
// one entity (detail levels of one component schema count as one), and
// the subcategories that used to mix entities are split.
func TestGitHubTablesMeanOneThing(t *testing.T) {
	_, rs := deriveGitHub(t)
	doc := github.doc
	for name, r := range rs {
		keys := map[string][]string{}
		for _, m := range r.Methods {
			op := doc.Paths.Value(m.Path).Get
			e := MethodEntity(op, m)
			keys[e.Key] = append(keys[e.Key], m.Name)
		}
		if len(keys) != 1 {
			t.Errorf("%s mixes %d entities: %v", name, len(keys), keys)
		}
	}
	for table, ops := range map[string][]string{
		"github.repos.repos":        {"repos/list-for-org", "repos/get", "repos/list-for-authenticated-user", "repos/list-for-user", "repos/list-public"},
		"github.repos.contributors": {"repos/list-contributors"},
		"github.search.code":        {"search/code"},
		"github.search.repos":       {"search/repos"},
		"github.orgs.members":       {"orgs/list-members", "orgs/list-public-members"},
		"github.orgs.invitations":   {"orgs/list-pending-invitations", "orgs/list-failed-invitations"},
	} {
		r := rs[table]
		if r == nil {
			t.Errorf("no table %s", table)
			continue
		}
		var got []string
		for _, m := range r.Methods {
			got = append(got, m.OperationID)
		}
		if !reflect.DeepEqual(sortedCopy(got), sortedCopy(ops)) {
			t.Errorf("%s methods = %v, want %v", table, got, ops)
		}
	}
}

func sortedCopy(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}
