package exec_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// TestConfigAuthMapping: in the config file, auth may be a YAML mapping
// of the --auth JSON's shape (the natural way to write it in YAML), with
// the same meaning as the JSON string, which still works. An error in a
// value from the file names the file and the key, never the flag the
// user did not write (README, "Configuration").
func TestConfigAuthMapping(t *testing.T) {
	s := fakegithub.ForTest(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	q := "SELECT name FROM github.repos.repos WHERE org = 'tiny' ORDER BY name"
	env := testutil.FakeEnv(t, s.URL(), "MY_TOKEN=config-file-token")
	for _, cfg := range []string{
		"auth:\n  github:\n    type: bearer\n    credentialsenvvar: MY_TOKEN\n",
		"auth: {github: {type: bearer, credentialsenvvar: MY_TOKEN}}\n",
		`auth: '{"github":{"type":"bearer","credentialsenvvar":"MY_TOKEN"}}'` + "\n",
	} {
		s.ResetRequests()
		r := testutil.Run(t, env, "", "--config", write("auth.yaml", cfg), "exec", "-o", "csv", q)
		if r.Code != 0 || r.Stdout != "name\nalpha\nbeta\ngamma\n" {
			t.Fatalf("config %q: exit %d\n%s%s", cfg, r.Code, r.Stdout, r.Stderr)
		}
		reqs := s.Requests()
		if len(reqs) == 0 || reqs[len(reqs)-1].AuthHeader != "Bearer config-file-token" {
			t.Fatalf("config %q: the config's credentials were not sent: %+v", cfg, reqs)
		}
	}

	for _, c := range []struct{ name, cfg, want string }{
		{"bearer without variable", "auth:\n  github:\n    type: bearer\n", `auth github: type "bearer" needs credentialsenvvar`},
		{"unknown field", "auth:\n  github:\n    tpye: bearer\n", `auth: json: unknown field "tpye"`},
		{"a list", "auth: [github]\n", "auth: a list; write a mapping keyed by provider name"},
		{"bad JSON string", "auth: '{github'\n", "auth: invalid character"},
		{"bad base-url", "base-url: [nope]\n", `base-url "nope": expected NAME=URL`},
		{"bad provider", "provider: [nope]\n", `provider: "nope": expected NAME=PATH`},
		{"bad number", "max-requests: lots\n", `max-requests: "lots" is not valid`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := write("bad.yaml", c.cfg)
			r := testutil.Run(t, env, "", "--config", p, "exec", q)
			if r.Code != 1 || !strings.Contains(r.Stderr, "config "+p+": "+c.want) {
				t.Fatalf("exit %d, want 1 and %q:\n%s", r.Code, "config "+p+": "+c.want, r.Stderr)
			}
			if strings.Contains(r.Stderr, "--auth") || strings.Contains(r.Stderr, "--provider \"") || strings.Contains(r.Stderr, "--max-requests") ||
				strings.Contains(r.Stderr, "--base-url \"") || strings.Contains(r.Stderr, "flag") {
				t.Fatalf("the error blames a flag the user did not give:\n%s", r.Stderr)
			}
		})
	}

	// On the command line the flag is named, as before.
	r := testutil.Run(t, env, "", "exec", "--auth", `{"github":{"type":"bearer"}}`, q)
	if r.Code != 1 || !strings.Contains(r.Stderr, `--auth github: type "bearer" needs credentialsenvvar`) {
		t.Fatalf("exit %d:\n%s", r.Code, r.Stderr)
	}
}
