package plan

import "testing"

func TestScopeNotice(t *testing.T) {
	cat := github(t)
	for q, want := range map[string]string{
		"SELECT name FROM github.repos.repos": "github.repos.repos read with list_for_authenticated_user (GET /user/repos), which needs no key: the rows are the credentials' user's; " +
			"bind org (list_for_org) or username (list_for_user) for another owner's, or name the method (FROM github.repos.repos.list_for_authenticated_user) to mean it",
		"SELECT name FROM github.repos.repos WHERE visibility = 'public'": "github.repos.repos read with list_for_authenticated_user (GET /user/repos), which needs no key: the rows are the credentials' user's; " +
			"bind org (list_for_org) or username (list_for_user) for another owner's, or name the method (FROM github.repos.repos.list_for_authenticated_user) to mean it",
		// the one list of the table: its other method reads one license
		"SELECT name FROM github.licenses.licenses": "",
		"SELECT title FROM github.issues.issues": "github.issues.issues read with list (GET /issues), which needs no key: the rows are what GET /issues answers for the credentials; " +
			"bind org (list_for_org) or owner and repo (list_for_repo) to narrow them, or name the method (FROM github.issues.issues.list) to mean it",
		"SELECT name FROM github.repos.repos WHERE org = 'acme'":            "",
		"SELECT name FROM github.repos.repos.list_for_authenticated_user":   "",
		"SELECT name FROM github.repos.repos WHERE org = 'a' AND org = 'b'": "",
		"SELECT * FROM github.rate_limit.rate_limit":                        "",
	} {
		p := planned(t, cat, q)
		if got := p.Scans[0].ScopeNotice(); got != want {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
	}
}
