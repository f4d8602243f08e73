package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/enginehq/engine/providers"
	"github.com/enginehq/engine/test/testutil"
)

// appCredentials are credentials of app 7 over every installation.
func appCredentials(t *testing.T, extra string) providers.Credentials {
	t.Helper()
	_, path, _ := testutil.RSAKey(t)
	var a providers.AuthConfig
	if err := json.Unmarshal([]byte(`{"type":"app","app_id":7,"private_key_path":"`+path+`"`+extra+`}`), &a); err != nil {
		t.Fatal(err)
	}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	var app providers.AppAuth
	if err := json.Unmarshal(testutil.ProfileSection(t, "github", "auth", "app"), &app); err != nil {
		t.Fatal(err)
	}
	h := &providers.Header{Profile: &providers.Profile{App: &app}}
	c, err := h.Credentials(&a, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Each installation has its own governor: the budget one installation's
// answers report is not another's, and a statement is refused only for
// the installation whose bucket cannot cover it.
func TestAppInstallationsHaveTheirOwnBudgets(t *testing.T) {
	reset := unixSeconds(time.Now().Add(time.Hour))
	remaining := map[string]string{"acme": "10", "tiny": "4000"}
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		switch {
		case r.URL.Path == "/app/installations":
			if !strings.HasPrefix(auth, "Bearer ey") {
				http.Error(w, `{"message":"A JSON web token is required"}`, http.StatusUnauthorized)
				return
			}
			fmt.Fprint(w, `[{"id":1,"account":{"login":"Acme"}},{"id":2,"account":{"login":"tiny"}}]`)
		case strings.HasSuffix(r.URL.Path, "/access_tokens"):
			id := strings.Split(r.URL.Path, "/")[3]
			w.WriteHeader(http.StatusCreated)
			fmt.Fprintf(w, `{"token":"ghs_installation%sSECRET","expires_at":%q}`, id, time.Now().Add(time.Hour).Format(time.RFC3339))
		case strings.HasPrefix(r.URL.Path, "/orgs/"):
			org := strings.Split(r.URL.Path, "/")[2]
			want := map[string]string{"acme": "1", "tiny": "2"}[org]
			if auth != "Bearer ghs_installation"+want+"SECRET" {
				http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
				return
			}
			w.Header().Set("X-Ratelimit-Limit", "5000")
			w.Header().Set("X-Ratelimit-Remaining", remaining[org])
			w.Header().Set("X-Ratelimit-Reset", reset)
			w.Header().Set("X-Ratelimit-Resource", "core")
			fmt.Fprint(w, `[]`)
		default:
			http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
		}
	}))
	c := newTestClient(t, srv, func(o *Options) {
		o.Credentials = appCredentials(t, "")
		o.Governor = &GovernorOptions{}
	})
	for _, org := range []string{"acme", "tiny"} {
		if _, _, err := collect(t, c, Call{Method: listMethod(), Params: map[string]string{"org": org}}); err != nil {
			t.Fatalf("%s: %v", org, err)
		}
	}
	a, aok := c.Budget("/orgs/acme/repos")
	b, bok := c.Budget("/orgs/tiny/repos")
	if !aok || !bok || a.Remaining != 10 || b.Remaining != 4000 {
		t.Fatalf("budgets acme %+v %v, tiny %+v %v: want one per installation", a, aok, b, bok)
	}
	var pe *providers.ProviderError
	if err := c.CheckBudget(context.Background(), "/orgs/acme/repos", 50); !errors.As(err, &pe) || pe.Kind != "budget" {
		t.Fatalf("acme's spent budget: %v", err)
	}
	if err := c.CheckBudget(context.Background(), "/orgs/tiny/repos", 50); err != nil {
		t.Fatalf("tiny's budget: %v", err)
	}
	if c.govFor("/orgs/acme/repos") == c.govFor("/orgs/TINY/repos") || c.govFor("/orgs/ACME/x") != c.govFor("/repos/acme/r") {
		t.Fatal("governors are not per installation")
	}
}

// The installations list is read page by page on the base origin and
// path only: a next link elsewhere is not followed, so the JWT never
// reaches another host.
func TestAppInstallationsListStaysOnOrigin(t *testing.T) {
	var elsewhere atomic.Int32
	other := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<`+other.URL+`/app/installations?page=2>; rel="next"`)
		fmt.Fprint(w, `[{"id":1,"account":{"login":"acme"}}]`)
	}))
	c := newTestClient(t, srv, func(o *Options) { o.Credentials = appCredentials(t, "") })
	_, _, err := collect(t, c, Call{Method: listMethod(), Params: map[string]string{"org": "acme"}})
	var pe *providers.ProviderError
	if !errors.As(err, &pe) || !strings.Contains(pe.Message, "next page elsewhere") || pe.Retryable || elsewhere.Load() != 0 {
		t.Fatalf("err %v, %d requests to the other host", err, elsewhere.Load())
	}
}
