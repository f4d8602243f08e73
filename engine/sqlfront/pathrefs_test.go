package sqlfront

import (
	"strings"
	"testing"
)

// A key of a column read as a name part (p.user.login, or user.login
// where nothing is named user) is recorded for the planner, with the
// column and the key; names SQL resolves otherwise are not.
func TestPathRefs(t *testing.T) {
	cases := map[string]string{
		"SELECT p.user.login FROM github.pulls.pulls p WHERE owner = 'a'":                              "user login p.user.login",
		"SELECT number FROM github.pulls.pulls p WHERE p.User.Login = 'x'":                             "user Login p.User.Login",
		"SELECT user.login FROM github.pulls.pulls WHERE owner = 'a'":                                  "user login user.login",
		"SELECT main.p.user FROM github.pulls.pulls p WHERE owner = 'a'":                               "", // schema main
		"SELECT p.user FROM github.pulls.pulls p WHERE owner = 'a'":                                    "",
		"SELECT user.login FROM github.pulls.pulls p, github.orgs.members m WHERE owner = 'a'":         "", // two tables: which?
		"WITH user AS (SELECT 1 AS login) SELECT user.login FROM github.pulls.pulls, user WHERE 1 = 1": "",
	}
	for q, want := range cases {
		st := parsed(t, q)
		var got []string
		for _, tb := range st.Query.Tables {
			for _, r := range tb.PathRefs {
				got = append(got, r.Name+" "+r.Path+" "+r.Written)
			}
		}
		if g := strings.Join(got, "|"); g != want {
			t.Errorf("%s:\n got %q\nwant %q", q, g, want)
		}
	}
}
