package ratelimit

import (
	"testing"
	"time"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// A GitHub App installed on three organisations, used without
// installation_id: the engine lists the installations and sends each
// request with the token of the installation on the account it names
// (docs/orgscale.md).

var threeInstallations = []fakegithub.Installation{{ID: 101, Account: "acme"}, {ID: 102, Account: "tiny"}, {ID: 103, Account: "sprawl"}}

var installationOf = map[string]int64{"acme": 101, "tiny": 102, "sprawl": 103}

func multiAppFake(t *testing.T, ttl time.Duration) (*fakegithub.Server, string, string) {
	t.Helper()
	key, path, pemText := testutil.RSAKey(t)
	fake := fakegithub.ForTest(t, fakegithub.WithApp(fakegithub.App{AppID: appID, Installations: threeInstallations,
		ListPageSize: 2, PublicKey: &key.PublicKey, TokenTTL: ttl}))
	return fake, path, pemText
}

// multiAuth is --auth for every installation of the app, with extra JSON
// members (e.g. `,"default_installation":"tiny"`).
func multiAuth(path, extra string) string {
	return `{"github":{"type":"app","app_id":424242,"private_key_path":"` + path + `"` + extra + `}}`
}

// servedOnlyOwn fails unless every API request of each installation named
// its own account (or none), and each org in orgs was served.
func servedOnlyOwn(t *testing.T, fake *fakegithub.Server, orgs ...string) {
	t.Helper()
	served := fake.AppServed()
	for id, byAcct := range served {
		for acct, n := range byAcct {
			if acct != "" && installationOf[acct] != id {
				t.Errorf("installation %d's token made %d requests for %q", id, n, acct)
			}
		}
	}
	for _, o := range orgs {
		if served[installationOf[o]][o] == 0 {
			t.Errorf("no request for %s by its installation %d: %v", o, installationOf[o], served)
		}
	}
	for _, r := range fake.Requests() {
		if r.Status == 404 || r.Status == 401 {
			t.Errorf("%s answered %d", r.Path, r.Status)
		}
	}
}

// One statement reads three organisations through three installations:
// an IN list, a join, and the accounts the app can read as a subquery.
func TestAppEveryInstallationOneStatement(t *testing.T) {
	fake, path, pemText := multiAppFake(t, time.Hour)
	e := governedEnv(t, fake)
	auth := multiAuth(path, "")
	queries := []struct{ sql, want string }{
		{`SELECT login FROM github.orgs.orgs WHERE org IN ('acme', 'TINY', 'sprawl') ORDER BY login`, "login\nacme\nsprawl\ntiny\n"},
		{`SELECT o.login, count(*) AS teams FROM github.orgs.orgs o JOIN github.teams.teams t ON t.org = o.login WHERE o.org IN ('acme', 'tiny', 'sprawl') GROUP BY o.login ORDER BY o.login`, "login,teams\nacme,8\ntiny,1\n"},
		{`SELECT login FROM github.orgs.orgs WHERE org IN (SELECT json_extract(account, '$.login') FROM github.apps.list_installations) ORDER BY login`, "login\nacme\nsprawl\ntiny\n"},
	}
	for _, q := range queries {
		r := testutil.Run(t, e, "", "exec", "--debug", "--auth", auth, "-o", "csv", q.sql)
		if r.Code != 0 || r.Stdout != q.want {
			t.Fatalf("%s: exit %d\n%s\nwant\n%s\n%.3000s", q.sql, r.Code, r.Stdout, q.want, r.Stderr)
		}
		noAppSecrets(t, fake, pemText, r.Stdout+r.Stderr)
	}
	servedOnlyOwn(t, fake, "acme", "tiny", "sprawl")
	for org, id := range installationOf {
		if n := fake.AppTokensMintedFor(id); n != len(queries) {
			t.Errorf("%d tokens minted for %s's installation over %d processes, want one each", n, org, len(queries))
		}
	}
	// The installations were listed, page by page (the fake serves 2 a page).
	listed := 0
	for _, r := range fake.Requests() {
		if r.Path == "/app/installations" {
			listed++
		}
	}
	if listed < 2*len(queries) {
		t.Errorf("GET /app/installations sent %d times, want every page (2) per process", listed)
	}
}
