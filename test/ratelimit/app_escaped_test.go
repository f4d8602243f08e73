package ratelimit

import (
	"strings"
	"testing"
	"time"

	"github.com/enginehq/engine/test/testutil"
)

// Issue 38 item 11: the installation (and so the token) of an app over
// every installation is chosen from the path as it goes on the wire,
// where a value's slashes are %2F inside its one segment. Chosen from
// the decoded path, org = 'tiny/../acme' read as the account tiny and
// sent tiny's token to /orgs/tiny%2F..%2Facme, a path a server or proxy
// that decodes and cleans it reads as acme's. Now the account is the
// segment as sent, which no installation serves: refused, unsent.
func TestAppInstallationFromEscapedPath(t *testing.T) {
	fake, path, pemText := multiAppFake(t, time.Hour)
	e := governedEnv(t, fake)
	for _, org := range []string{"tiny/../acme", "tiny/x"} {
		r := testutil.Run(t, e, "", "exec", "-o", "json", "--auth", multiAuth(path, ""), `SELECT login FROM github.orgs.orgs WHERE org = '`+org+`'`)
		escaped := strings.ReplaceAll(org, "/", "%2F")
		want := `not sent: GitHub App 424242 has no installation on the account \"` + escaped + `\"`
		if r.Code != 2 || !strings.Contains(r.Stdout+r.Stderr, want) {
			t.Fatalf("org = %q: exit %d, want 2 and %q:\n%s%s", org, r.Code, want, r.Stdout, r.Stderr)
		}
		noAppSecrets(t, fake, pemText, r.Stdout+r.Stderr)
	}
	for _, q := range fake.Requests() {
		if strings.HasPrefix(q.Path, "/orgs/") {
			t.Errorf("a request was sent with an installation's token for another account's path: %s", q.Path)
		}
	}
}
