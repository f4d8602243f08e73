package enginetest

import "testing"

// The usual slips of a query's author are refused before any request,
// with the form to write: a key of a JSON column read as a name part,
// owner/name in the repo key, a column named by one of its words.
func TestHintsForCommonSlips(t *testing.T) {
	Run(t, pages, []Case{
		{
			Name:     "a JSON column's key as a name part",
			SQL:      "SELECT p.user.login FROM github.pulls.pulls p WHERE p.owner = 'acme' AND p.repo = 'a'",
			Err:      "no such column: p.user.login: user is a JSON column: write p.user ->> 'login' (or json_extract(p.user, '$.login'))",
			NoneSent: true,
		},
		{
			Name:     "owner/name in repo",
			SQL:      "SELECT title FROM github.pulls.pulls WHERE repo = 'acme/a'",
			Err:      "repo takes the repository's name; write owner = 'acme' AND repo = 'a'",
			NoneSent: true,
		},
		{
			Name:     "a column by one of its words",
			SQL:      "SELECT stars FROM github.repos.repos WHERE org = 'acme'",
			Err:      "nearest: stargazers_count.",
			NoneSent: true,
		},
	})
}
