package check

import (
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// With -o github a failed or errored control is annotated at its line of
// the control file, as the file's problems are, so a pull request shows
// it on the control; a control without a title is titled by its id once.
func TestGitHubAnnotationsAtTheControl(t *testing.T) {
	s, env := serverEnv(t)
	s.Inject(fakegithub.Fault{Path: "^/orgs/acme/hooks$", Kind: fakegithub.KindStatus, Status: 403, Message: "Resource not accessible by integration"})
	file := testutil.TempFile(t, "annotated.yaml", `controls:
  - id: fine
    sql: SELECT login FROM github.orgs.members WHERE org = 'tiny' AND filter = '2fa_disabled'
  - id: no-2fa-disabled
    sql: SELECT login FROM github.orgs.members WHERE org = 'acme' AND filter = '2fa_disabled'
  - id: hooks
    title: No insecure webhook
    sql: SELECT id FROM github.orgs.webhooks WHERE org = 'acme'
`)
	r := runCheck(t, env, file, "-o", "github")
	if r.Code != 2 {
		t.Fatalf("exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	testutil.Contains(t, "github output", r.Stdout,
		"::error file="+file+",line=4,title=FAIL no-2fa-disabled::5 rows; expected empty",
		"::error file="+file+",line=6,title=ERROR hooks%3A No insecure webhook::provider error, HTTP 403",
	)
	if strings.Contains(r.Stdout, "no-2fa-disabled%3A no-2fa-disabled") || strings.Contains(r.Stdout, "title=FAIL fine") {
		t.Errorf("annotations:\n%s", r.Stdout)
	}
}
