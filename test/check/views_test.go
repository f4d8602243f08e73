package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// viewsControls declare a view that two controls share; each binds its
// org through it.
const viewsControls = `views:
  langs: SELECT org, name, language FROM github.repos.repos
controls:
  - id: tiny-has-go
    expect: nonempty
    sql: SELECT name FROM langs WHERE org = 'tiny' AND language = 'Go'
  - id: tiny-no-cobol
    expect: empty
    sql: SELECT name FROM langs WHERE org = 'tiny' AND language = 'COBOL'
`

// TestControlFileViews: a control file's views: are read by its
// controls like tables, their WHERE keys binding the API parameters
// (only tiny's list is asked for), and stored nowhere.
func TestControlFileViews(t *testing.T) {
	s, env := serverEnv(t, fakegithub.WithRepos("acme", 8))
	file := testutil.TempFile(t, "c.yaml", viewsControls)
	r := runCheck(t, env, file, "-o", "json")
	rep := parseJSON(t, r)
	if r.Code != 0 || rep.Totals.Pass != 2 {
		t.Fatalf("exit %d, totals %+v\n%s\n%s", r.Code, rep.Totals, r.Stdout, r.Stderr)
	}
	for _, q := range s.Requests() {
		if q.Path != "/orgs/tiny/repos" {
			t.Errorf("request outside tiny's list: %s", q.Path)
		}
	}
	bad := testutil.TempFile(t, "bad.yaml", strings.Replace(viewsControls, "langs:", "Bad-Name:", 1))
	r = runCheck(t, env, bad, "-o", "json")
	testutil.WantRun(t, "a bad view name", r, 2, `view name \"Bad-Name\"`, "")
}
