package catalog

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/registry"
)

// The catalog's name of the body-less answer column is the planner's.
func TestAnsweredNameIsThePlanners(t *testing.T) {
	if AnsweredName != plan.AnsweredName {
		t.Fatalf("catalog.AnsweredName %q, plan.AnsweredName %q", AnsweredName, plan.AnsweredName)
	}
}

// One default-provider rule: github when the catalog has it, else the
// first by name, else "".
func TestDefaultProvider(t *testing.T) {
	gh := registry.Embedded()[0]
	for _, tc := range []struct {
		sources []registry.Source
		want    string
	}{
		{nil, "github"},
		{[]registry.Source{editedGitHub(t, "zeta", noEdit), gh, editedGitHub(t, "acme", noEdit)}, "github"},
		{[]registry.Source{editedGitHub(t, "zeta", noEdit), editedGitHub(t, "acme", noEdit)}, "acme"},
		{[]registry.Source{}, ""},
	} {
		c := New(tc.sources, Options{})
		if got := c.DefaultProvider(); got != tc.want {
			t.Errorf("%v: DefaultProvider %q, want %q", c.Names(), got, tc.want)
		}
	}
	c := New([]registry.Source{editedGitHub(t, "zeta", noEdit), editedGitHub(t, "acme", noEdit)}, Options{})
	p, err := c.Lookup("")
	if err != nil || p.Provider != "acme" {
		t.Fatalf("Lookup(\"\"): %v, %v; want acme", p, err)
	}
	ss, err := c.Services("")
	if err != nil || len(ss) == 0 {
		t.Fatalf("Services of the default provider: %v, %v", ss, err)
	}
}

func noEdit(map[string]any) {}

// Discovery lists what the index header says, and a name it does not
// have is a *NotFound naming what was asked.
func TestTypedDiscovery(t *testing.T) {
	c := New(nil, Options{})
	ps, err := c.Providers(context.Background(), nil)
	if err != nil || len(ps) != 1 || ps[0].Name != "github" || ps[0].Services == 0 || ps[0].Resources == 0 {
		t.Fatalf("Providers: %+v, %v", ps, err)
	}
	if ps, err := c.Providers(context.Background(), func(string) bool { return false }); err != nil || len(ps) != 0 {
		t.Fatalf("Providers kept none: %+v, %v", ps, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Providers(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Providers: %v", err)
	}

	ss, err := c.Services("github")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range ss {
		total += s.Resources
	}
	if total != ps[0].Resources || len(ss) != ps[0].Services {
		t.Fatalf("services %d with %d tables; provider says %d and %d", len(ss), total, ps[0].Services, ps[0].Resources)
	}

	ts, err := c.Tables("github", "repos")
	if err != nil || len(ts) == 0 {
		t.Fatalf("Tables(github, repos): %v, %v", ts, err)
	}
	for _, tb := range ts {
		if tb.Service != "repos" || !strings.HasPrefix(tb.FullName(), "github.repos.") || tb.Methods == 0 {
			t.Fatalf("table %+v (%s)", tb, tb.FullName())
		}
	}
	all, err := c.Tables("github", "")
	if err != nil || len(all) != ps[0].Resources {
		t.Fatalf("Tables(github): %d, %v; want %d", len(all), err, ps[0].Resources)
	}

	r, err := c.Table("github", "repos", "repos")
	if err != nil || r == nil || r.FullName() != "github.repos.repos" {
		t.Fatalf("Table(github.repos.repos): %v, %v", r, err)
	}
	if cols := ResourceColumns(r.Methods); len(cols) == 0 {
		t.Fatal("github.repos.repos has no columns")
	}

	for _, tc := range []struct {
		err  error
		want NotFound
	}{
		{second(c.Lookup("nope")), NotFound{Provider: "nope", Known: []string{"github"}}},
		{second(c.Services("nope")), NotFound{Provider: "nope", Known: []string{"github"}}},
		{second(c.Tables("github", "nope")), NotFound{Provider: "github", Service: "nope"}},
		{second(c.Table("github", "nope", "x")), NotFound{Provider: "github", Service: "nope", Table: "x"}},
		{second(c.Table("github", "repos", "nope")), NotFound{Provider: "github", Service: "repos", Table: "nope", ServiceKnown: true}},
	} {
		var nf *NotFound
		if !errors.As(tc.err, &nf) {
			t.Errorf("%v: not a *NotFound", tc.err)
			continue
		}
		if nf.Provider != tc.want.Provider || nf.Service != tc.want.Service || nf.Table != tc.want.Table || nf.ServiceKnown != tc.want.ServiceKnown || strings.Join(nf.Known, ",") != strings.Join(tc.want.Known, ",") {
			t.Errorf("got %+v, want %+v", *nf, tc.want)
		}
		if nf.ErrorKind() != "plan" {
			t.Errorf("%v: kind %q", nf, nf.ErrorKind())
		}
	}
}

func second[T any](_ T, err error) error { return err }

// CheckEndpoints refuses a base URL or auth entry of no provider, with
// the setting it is about.
func TestCheckEndpoints(t *testing.T) {
	c := New(nil, Options{})
	if err := c.CheckEndpoints(map[string]string{"github": "http://127.0.0.1:1"}, map[string]providers.AuthConfig{"github": {Type: providers.AuthNull}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		base    map[string]string
		auth    map[string]providers.AuthConfig
		setting string
	}{
		{map[string]string{"nope": "http://127.0.0.1:1"}, nil, "base-url"},
		{nil, map[string]providers.AuthConfig{"nope": {Type: providers.AuthNull}}, "auth"},
	} {
		err := c.CheckEndpoints(tc.base, tc.auth)
		var e *Error
		if !errors.As(err, &e) || e.Kind != "usage" || e.Setting != tc.setting || !strings.Contains(err.Error(), "no such provider") {
			t.Errorf("%v %v: %v", tc.base, tc.auth, err)
		}
	}
}

// Credentials: the auth entry wins over the token variables; a provider
// that cannot be loaded gives no provider.
func TestCredentials(t *testing.T) {
	c := New(nil, Options{})
	env := func(k string) string {
		if k == "GITHUB_TOKEN" {
			return "ghp_secret"
		}
		return ""
	}
	p, creds, err := c.Credentials("github", nil, env)
	if err != nil || p == nil || creds.Anonymous() || creds.Secret() != "ghp_secret" {
		t.Fatalf("from the environment: %v, %v, %v", p, creds, err)
	}
	_, creds, err = c.Credentials("github", map[string]providers.AuthConfig{"github": {Type: providers.AuthNull}}, env)
	if err != nil || !creds.Anonymous() {
		t.Fatalf("null_auth: %v, %v", creds, err)
	}
	if p, _, err := c.Credentials("nope", nil, env); p != nil || err == nil {
		t.Fatalf("unknown provider: %v, %v", p, err)
	}
}
