package exec_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A WHERE key written in a form that does not bind it (OR, LIKE, a
// function, an expression, a scalar subquery, NULL, a comparison other
// than =, or read only in the select list) is refused as a key that
// exists and is not bound, with the form that binds it, not as "no such
// column"; a value whose quotes were forgotten (org = acme) is named as
// such; a near miss of a key offers the key (README, "WHERE keys").
func TestUnboundKeySaysHowToBindIt(t *testing.T) {
	const bind = "org is a WHERE key of github.repos.repos (method list_for_org, GET /orgs/{org}/repos), not a column of its rows"
	const how = "bind it at the top level of WHERE with a literal: org = '...' or org IN ('...', ...)"
	cases := []struct {
		name, sql string
		want      []string
	}{
		{"forgotten quotes", `SELECT name FROM github.repos.repos WHERE org = acme`,
			[]string{bind, "acme is not a column either: for the text, write org = 'acme'"}},
		{"forgotten quotes, value first", `SELECT name FROM github.repos.repos WHERE acme = org`,
			[]string{"no such column: acme", "if acme is a value, write it in single quotes: org = 'acme'"}},
		{"forgotten quotes, qualified", `SELECT r.name FROM github.repos.repos r WHERE r.org = acme`,
			[]string{"r.org: " + bind, "write r.org = 'acme'"}},
		{"LIKE", `SELECT name FROM github.repos.repos WHERE org LIKE 'ac%'`,
			[]string{bind, how, "the term org like 'ac%' does not bind it", "LIKE"}},
		{"OR", `SELECT name FROM github.repos.repos WHERE org = 'acme' OR org = 'tiny'`,
			[]string{bind, how, "the term org = 'acme' or org = 'tiny' does not bind it"}},
		{"function", `SELECT name FROM github.repos.repos WHERE org = lower('TINY')`,
			[]string{bind, how, "the term org = lower('TINY') does not bind it"}},
		{"concatenation", `SELECT name FROM github.repos.repos WHERE org = 'ti' || 'ny'`,
			[]string{bind, how, "expressions"}},
		{"scalar subquery", `SELECT name FROM github.repos.repos WHERE org = (SELECT 'tiny')`,
			[]string{bind, how, "scalar subqueries"}},
		{"NULL", `SELECT name FROM github.repos.repos WHERE org = NULL`,
			[]string{bind, how, "the term org = null does not bind it"}},
		{"select list only", `SELECT org FROM github.repos.repos`,
			[]string{bind, how}},
		{"comparison of an integer key", `SELECT title FROM github.issues.issues WHERE owner = 'acme' AND repo = 'repo-001' AND issue_number > 1`,
			[]string{"issue_number is a WHERE key of github.issues.issues (method get", "issue_number = 1 or issue_number IN (1, 2, ...)",
				"the term issue_number > 1 does not bind it", "the nearest columns of list_for_repo are number"}},
		{"near miss of a key", `SELECT name FROM github.repos.repos WHERE orgg = 'acme'`,
			[]string{"no such column: orgg", "nearest: org (a WHERE key)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake.ResetRequests()
			r := run(t, "-o", "json", c.sql)
			var body errorBody
			if err := json.Unmarshal([]byte(r.Stderr), &body); r.Code != 1 || err != nil {
				t.Fatalf("exit %d (want 1), stderr %s", r.Code, r.Stderr)
			}
			if body.Error.Kind != "plan" {
				t.Fatalf("kind %q, want plan: %s", body.Error.Kind, body.Error.Message)
			}
			for _, w := range c.want {
				if !strings.Contains(body.Error.Message, w) {
					t.Errorf("message %q does not say %q", body.Error.Message, w)
				}
			}
			if c.name != "forgotten quotes, value first" && c.name != "near miss of a key" && strings.Contains(body.Error.Message, "no such column") {
				t.Errorf("a key that exists is called no column: %s", body.Error.Message)
			}
			if n := len(fake.Requests()); n != 0 {
				t.Errorf("%d requests sent before the refusal", n)
			}
		})
	}
}
