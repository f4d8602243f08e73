package check

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// A control file is repository content: a pull request can change it. Its
// defaults must not decide where credentials go, nor which secret of the
// environment is sent, unless the command line or environment says so
// (--allow-file-credentials, ENGINE_ALLOW_FILE_CREDENTIALS).

const fileToken = "ghp_FILE_TRUST_MODEL_0123456789abcdef"

const credControl = `
controls:
  - id: no-ghost
    sql: SELECT name FROM github.repos.repos WHERE org = 'acme' AND name = 'ghost'
`

// TestFileBaseURLGetsNoCredentials: defaults.base_url from the file and
// GITHUB_TOKEN in the environment: the file's host receives no
// Authorization header, and stderr says why and how to allow it.
func TestFileBaseURLGetsNoCredentials(t *testing.T) {
	t.Parallel()
	fake := fakegithub.ForTest(t)
	file := testutil.TempFile(t, "controls.yaml", "defaults:\n  base_url:\n    github: "+fake.URL()+"\n"+credControl)
	r := runCheck(t, testutil.FastEnv(t, "GITHUB_TOKEN="+fileToken), file)
	if r.Code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	reqs := fake.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the file's base URL")
	}
	for _, q := range reqs {
		if q.AuthHeader != "" {
			t.Fatalf("the file's base URL received Authorization %q", q.AuthHeader)
		}
	}
	testutil.Contains(t, "stderr", r.Stderr, "credentials withheld from github", "defaults.base_url.github", "--allow-file-credentials", "ENGINE_BASE_URL_GITHUB")
	if strings.Contains(r.Stdout+r.Stderr, fileToken) {
		t.Error("token printed")
	}
}

// TestFileBaseURLAllowed: with --allow-file-credentials (or its variable)
// the file's base URL receives the token, without a warning.
func TestFileBaseURLAllowed(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"flag", "env"} {
		t.Run(how, func(t *testing.T) {
			fake := fakegithub.ForTest(t)
			file := testutil.TempFile(t, "controls.yaml", "defaults:\n  base_url:\n    github: "+fake.URL()+"\n"+credControl)
			env := testutil.FastEnv(t, "GITHUB_TOKEN="+fileToken)
			args := []string{file}
			if how == "flag" {
				args = append([]string{"--allow-file-credentials"}, args...)
			} else {
				env = append(env, "ENGINE_ALLOW_FILE_CREDENTIALS=1")
			}
			r := runCheck(t, env, args...)
			wantTokenSent(t, fake, r)
		})
	}
}

// TestFlagBaseURLGetsCredentials: a base URL from the environment (not the
// file) receives the token as before, whatever the file says.
func TestFlagBaseURLGetsCredentials(t *testing.T) {
	t.Parallel()
	fake := fakegithub.ForTest(t)
	file := testutil.TempFile(t, "controls.yaml", "defaults:\n  base_url:\n    github: http://127.0.0.1:1/elsewhere\n"+credControl)
	r := runCheck(t, testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN="+fileToken), file)
	wantTokenSent(t, fake, r)
}

// TestFileCredentialsEnvVarRefused: auth naming a credentials variable in
// the file is refused before anything runs (exit 2, zero requests), in
// every report format; --allow-file-credentials accepts it.
func TestFileCredentialsEnvVarRefused(t *testing.T) {
	t.Parallel()
	const aws = "AKIAFAKE:aws-secret-never-sent-9f8e7d"
	fake := fakegithub.ForTest(t)
	file := testutil.TempFile(t, "controls.yaml", "defaults:\n  auth:\n    github: {type: basic, credentialsenvvar: AWS_SECRET_ACCESS_KEY}\n"+credControl)
	env := testutil.FakeEnv(t, fake.URL(), "AWS_SECRET_ACCESS_KEY="+aws)
	for _, format := range []string{"text", "json", "github"} {
		r := runCheck(t, env, "-o", format, file)
		if r.Code != 2 {
			t.Fatalf("-o %s: exit %d, want 2\nstdout: %s\nstderr: %s", format, r.Code, r.Stdout, r.Stderr)
		}
		testutil.Contains(t, "-o "+format+": stderr", r.Stderr, "controls.yaml:3", "AWS_SECRET_ACCESS_KEY", "--allow-file-credentials", "--auth")
		if format == "json" && len(parseJSON(t, r).Problems) != 1 {
			t.Errorf("json problems: %s", r.Stdout)
		}
		if strings.Contains(r.Stdout+r.Stderr, aws) {
			t.Error("secret printed")
		}
	}
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("%d requests made by a refused file", n)
	}
	r := runCheck(t, env, "--allow-file-credentials", file)
	if r.Code != 0 {
		t.Fatalf("allowed: exit %d\nstderr: %s", r.Code, r.Stderr)
	}
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(aws))
	if got := firstAuth(t, fake); got != want {
		t.Fatalf("allowed: Authorization %q", got)
	}
}

// TestFileNullAuthAccepted: null_auth names no secret and needs no flag.
func TestFileNullAuthAccepted(t *testing.T) {
	t.Parallel()
	fake := fakegithub.ForTest(t)
	file := testutil.TempFile(t, "controls.yaml", "defaults:\n  auth:\n    github: {type: null_auth}\n"+credControl)
	r := runCheck(t, testutil.FakeEnv(t, fake.URL(), "GITHUB_TOKEN="+fileToken), file)
	if r.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s", r.Code, r.Stderr)
	}
	for _, q := range fake.Requests() {
		if q.AuthHeader != "" {
			t.Fatalf("null_auth sent %q", q.AuthHeader)
		}
	}
}

// wantTokenSent fails unless r passed with no credentials withheld and
// the first request fake received carried fileToken.
func wantTokenSent(t *testing.T, fake *fakegithub.Server, r testutil.Result) {
	t.Helper()
	if r.Code != 0 || strings.Contains(r.Stderr, "withheld") {
		t.Fatalf("exit %d\nstderr: %s", r.Code, r.Stderr)
	}
	if got := firstAuth(t, fake); got != "Bearer "+fileToken {
		t.Fatalf("Authorization %q: want the token sent", got)
	}
}

// firstAuth is the Authorization header of the first request fake
// received; the test fails when none reached it.
func firstAuth(t *testing.T, fake *fakegithub.Server) string {
	t.Helper()
	reqs := fake.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the fake")
	}
	return reqs[0].AuthHeader
}
