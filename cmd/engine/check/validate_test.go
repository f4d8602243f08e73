package check

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
)

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	// An unroutable base URL: validation must not need the network.
	eng, err := engine.New(engine.Options{BaseURLs: map[string]string{"github": "http://127.0.0.1:1"}})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func TestValidatePlansWithoutRequests(t *testing.T) {
	src := `controls:
  - id: ok
    sql: SELECT name FROM github.repos.repos WHERE org = 'acme'
  - id: unbound
    sql: SELECT name FROM github.repos.branches WHERE owner = 'acme'
  - id: syntax
    sql: |
      SELECT name
      FROM github.repos.repos
      WHERE org = 'acme' AND AND
  - id: unknown-table
    sql: SELECT * FROM github.nope.nothing
  - id: discovery
    sql: SHOW SERVICES IN github
  - id: write
    sql: DELETE FROM github.repos.repos WHERE org = 'acme'
`
	f, ps := Load("v.yaml", []byte(src))
	if len(ps) != 0 {
		t.Fatal(ps)
	}
	f.Resolve(nil)
	ps = Validate(context.Background(), newEngine(t), f)
	want := map[string]string{
		"unbound":       "plan",
		"syntax":        "parse",
		"unknown-table": "plan",
		"discovery":     "must be a SELECT",
		"write":         "parse",
	}
	if len(ps) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(ps), len(want), problemText(ps))
	}
	for _, p := range ps {
		w, ok := want[p.Control]
		if !ok || !strings.Contains(p.Message, w) || p.Line == 0 {
			t.Errorf("unexpected problem %s (want %q)", p, w)
		}
	}
}

// plansForOrg: f needs the variable org, and with org = acme it
// resolves, validates and plans against the embedded GitHub index.
func plansForOrg(t *testing.T, f *File) {
	t.Helper()
	if ps := f.Resolve(nil); len(ps) == 0 {
		t.Fatal("org must be a required variable")
	}
	if ps := f.Resolve(map[string]string{"org": "acme"}); len(ps) != 0 {
		t.Fatal(problemText(ps))
	}
	eng := newEngine(t)
	if ps := Validate(context.Background(), eng, f); len(ps) != 0 {
		t.Fatal(problemText(ps))
	}
	if ps := f.CheckProviders(eng.ProviderNames()); len(ps) != 0 {
		t.Fatal(problemText(ps))
	}
}

// The shipped example loads, resolves and plans against the embedded
// GitHub index.
func TestExampleControlsPlan(t *testing.T) {
	path := filepath.Join("..", "..", "..", "examples", "controls", "github-org.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, ps := Load(path, data)
	if len(ps) != 0 {
		t.Fatal(problemText(ps))
	}
	if len(f.Controls) < 8 {
		t.Fatalf("%d controls; want at least 8", len(f.Controls))
	}
	plansForOrg(t, f)
	for _, c := range f.Controls {
		if c.Severity == "" || c.Remediation == "" || c.Title == c.ID {
			t.Errorf("control %s: give it a title, severity and remediation", c.ID)
		}
	}
}

// failQuerier fails the test when used: a validated control runs the
// statement Validate prepared, never a second preparation of its text.
type failQuerier struct{ t *testing.T }

func (f failQuerier) Query(_ context.Context, sql string, _ engine.QueryOptions) (*result.Result, error) {
	f.t.Errorf("control %q was prepared again", sql)
	return nil, errors.New("prepared again")
}

func TestRunRunsWhatValidatePrepared(t *testing.T) {
	f, ps := Load("c.yaml", []byte("controls:\n  - id: none\n    sql: SELECT 1 AS x WHERE 0\n  - id: one\n    sql: SELECT 1 AS x\n"))
	if len(ps) != 0 {
		t.Fatal(ps)
	}
	if ps := append(f.Resolve(nil), Validate(context.Background(), newEngine(t), f)...); len(ps) != 0 {
		t.Fatal(ps)
	}
	r := Run(context.Background(), failQuerier{t}, "c.yaml", f.Controls, RunOptions{})
	if r.Outcomes[0].Status != Pass || r.Outcomes[1].Status != Fail || r.Outcomes[1].RowCount != 1 {
		t.Fatalf("outcomes %+v %+v", r.Outcomes[0], r.Outcomes[1])
	}
}
