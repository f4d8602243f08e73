package plan

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

type testCatalog struct{ p *providers.Provider }

func (c testCatalog) IsProvider(n string) bool { return n == "github" }
func (c testCatalog) Resource(p, s, n string) (*providers.Resource, error) {
	return c.p.Resource(s, n)
}

func github(t *testing.T) testCatalog {
	t.Helper()
	for _, s := range registry.Embedded() {
		if s.Name == "github" {
			data, err := s.Data()
			if err != nil {
				t.Fatal(err)
			}
			p, err := providers.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			return testCatalog{p}
		}
	}
	t.Fatal("no embedded github index")
	return testCatalog{}
}

func build(t *testing.T, cat testCatalog, q string) (*Plan, error) {
	t.Helper()
	st, err := sqlfront.Parse(q, cat.IsProvider)
	if err != nil {
		t.Fatalf("parse %s: %v", q, err)
	}
	return Build(context.Background(), st.Query, cat, Options{MaxRequests: 1000, Prover: store.Prover{}})
}

// planned is build's plan of q; an error fails the test.
func planned(t *testing.T, cat testCatalog, q string) *Plan {
	t.Helper()
	p, err := build(t, cat, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return p
}

func TestMethodChoice(t *testing.T) {
	cat := github(t)
	cases := []struct{ q, method, sql string }{
		{"SELECT name FROM github.repos.repos WHERE org = 'acme'", "list_for_org", `SELECT name FROM "t0_github_repos_repos" AS "repos" WHERE org = 'acme'`},
		{"SELECT name FROM github.repos.repos WHERE username = 'octocat'", "list_for_user", ""},
		{"SELECT name FROM github.repos.repos", "list_for_authenticated_user", ""},
		// owner is also a response column (an object): the API applies it
		// and the SQLite text no longer filters on it.
		{"SELECT name FROM github.repos.repos WHERE owner = 'acme' AND repo = 'x'", "get", `SELECT name FROM "t0_github_repos_repos" AS "repos" WHERE 1 AND repo = 'x'`},
		{"SELECT * FROM github.repos.tags WHERE owner = 'a' AND repo = 'b'", "list_tags", ""},
		{"SELECT name FROM github.repos.repos.list_public", "list_public", ""},
		{"SELECT * FROM github.actions.workflow_runs WHERE owner = 'a' AND repo = 'b'", "list_workflow_runs_for_repo", ""},
	}
	for _, c := range cases {
		p := planned(t, cat, c.q)
		if got := p.Scans[0].Method.Name; got != c.method {
			t.Errorf("%s: method %s, want %s", c.q, got, c.method)
		}
		if c.sql != "" && p.SQL != c.sql {
			t.Errorf("%s: sqlite\n %s\nwant\n %s", c.q, p.SQL, c.sql)
		}
	}
}

func TestMissingRequiredParametersNamed(t *testing.T) {
	cat := github(t)
	_, err := build(t, cat, "SELECT * FROM github.pulls.pulls WHERE state = 'open'")
	pe, ok := err.(*Error)
	if !ok {
		t.Fatalf("want *plan.Error, got %v", err)
	}
	for _, want := range []string{"github.pulls.pulls", "owner", "repo", "list needs"} {
		if !strings.Contains(pe.Error(), want) {
			t.Errorf("error %q does not mention %q", pe, want)
		}
	}
	if len(pe.Missing["list"]) != 2 {
		t.Errorf("missing for list = %v", pe.Missing["list"])
	}
	_, err = build(t, cat, "SELECT * FROM github.nope.nope")
	if err == nil || !strings.Contains(err.Error(), "SHOW RESOURCES IN github.nope") {
		t.Fatalf("unknown table error: %v", err)
	}
	_, err = build(t, cat, "SELECT * FROM github.repos.repos.nope WHERE org = 'a'")
	if err == nil || !strings.Contains(err.Error(), "no method") {
		t.Fatalf("unknown method error: %v", err)
	}
}

func TestFanOutAndLimit(t *testing.T) {
	cat := github(t)
	p := planned(t, cat, "SELECT * FROM github.issues.issues WHERE owner = 'acme' AND repo IN ('a', 'b', 'c', 'a') AND state = 'all' LIMIT 3")
	s := p.Scans[0]
	calls := s.Calls()
	if len(calls) != 3 {
		t.Fatalf("calls = %v", calls)
	}
	if calls[1]["repo"] != "b" || calls[1]["owner"] != "acme" || calls[1]["state"] != "all" {
		t.Fatalf("call = %v", calls[1])
	}
	// Every WHERE term is an API parameter, but SQLite runs the IN list
	// over the parameter column through an ephemeral table: not a plain
	// scan, so the plan keeps every page.
	if s.Limit != 0 {
		t.Errorf("limit %d pushed down past an IN list SQLite does not run as a plain scan", s.Limit)
	}
	p = planned(t, cat, "SELECT * FROM github.issues.issues WHERE owner = 'acme' AND repo = 'a' AND state = 'all' LIMIT 3")
	if p.Scans[0].Limit != 3 {
		t.Errorf("limit %d, want 3 (every WHERE term is an API parameter, a plain scan)", p.Scans[0].Limit)
	}
	// Without a prover nothing is pushed down.
	st, err := sqlfront.Parse("SELECT * FROM github.issues.issues WHERE owner = 'acme' AND repo = 'a' AND state = 'all' LIMIT 3", cat.IsProvider)
	if err != nil {
		t.Fatal(err)
	}
	if p, err = Build(context.Background(), st.Query, cat, Options{}); err != nil || p.Scans[0].Limit != 0 {
		t.Errorf("limit pushed down without a prover: %v", err)
	}
	// A filter the API cannot apply keeps pagination going.
	p, _ = build(t, cat, "SELECT * FROM github.repos.repos WHERE org = 'acme' AND name LIKE 'a%' LIMIT 3")
	if p.Scans[0].Limit != 0 {
		t.Errorf("limit pushed past a non-API filter")
	}
	// Too many requests is refused before any is made.
	var in []string
	for i := 0; i < 1001; i++ {
		in = append(in, "'r"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+strings.Repeat("y", i/26)+"'")
	}
	_, err = build(t, cat, "SELECT * FROM github.issues.issues WHERE owner = 'a' AND repo IN ("+strings.Join(in, ",")+")")
	var pe *Error
	if !errors.As(err, &pe) || pe.Setting != SettingMaxRequests || strings.Contains(err.Error(), "--") {
		t.Fatalf("want a max-requests refusal, got %v", err)
	}
}

func TestExplainIsStable(t *testing.T) {
	cat := github(t)
	p := planned(t, cat, "SELECT name FROM github.repos.repos WHERE org IN ('a','b') LIMIT 5")
	want := `1. scan github.repos.repos via list_for_org (GET /orgs/{org}/repos) with org='a'|'b'; 2 request(s) (+ further pages); stops after 5 rows
estimated requests: 2 (first pages)
sqlite: SELECT name FROM "t0_github_repos_repos" AS "repos" WHERE org IN ('a','b') LIMIT 5
`
	if p.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", p, want)
	}
}

// The request estimate is arithmetic over the distinct values of each
// binding, and saturates instead of overflowing.
func TestEstimatedRequestsByArithmetic(t *testing.T) {
	vals := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strings.Repeat("y", i/26)
		}
		return out
	}
	s := &Scan{Bindings: []Binding{{Values: vals(250)}, {Values: append(vals(250), vals(250)...)}, {Values: vals(250)}}}
	if got := s.EstimatedRequests(); got != 250*250*250 {
		t.Fatalf("estimate %d, want %d", got, 250*250*250)
	}
	big := &Scan{}
	for range 8 {
		big.Bindings = append(big.Bindings, Binding{Values: vals(1000)})
	}
	if got := big.EstimatedRequests(); got != math.MaxInt {
		t.Fatalf("estimate %d, want saturation at %d", got, math.MaxInt)
	}
	if got := AddSat(math.MaxInt-1, 5); got != math.MaxInt {
		t.Fatalf("AddSat %d", got)
	}
}

// FirstPages is known, as the sum of the scans' estimates, only when no
// scan takes its bindings from another's rows.
func TestFirstPages(t *testing.T) {
	cat := github(t)
	for _, c := range []struct {
		q     string
		n     int
		known bool
	}{
		{"SELECT name FROM github.repos.repos WHERE org IN ('a', 'b', 'c', 'a')", 3, true},
		{"SELECT r.name FROM github.repos.repos r, github.repos.repos s WHERE r.org = 'a' AND s.org IN ('b', 'c')", 3, true},
		{"SELECT b.name FROM github.repos.repos r JOIN github.branches.branches b ON b.owner = json_extract(r.owner, '$.login') AND b.repo = r.name WHERE r.org = 'a'", 0, false},
	} {
		p := planned(t, cat, c.q)
		if n, known := p.FirstPages(); n != c.n || known != c.known {
			t.Errorf("%s: FirstPages %d, %t; want %d, %t", c.q, n, known, c.n, c.known)
		}
	}
}
