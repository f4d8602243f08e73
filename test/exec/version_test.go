package exec_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestVersion: `engine --version` (and -v) and `engine version` print one
// line made of the build information the go command recorded in the
// binary, read here independently with `go version -m`: the module
// version ("devel" for a build of a checkout), the source revision
// (vcs.revision, 12 digits, "-dirty" when modified; else the Makefile's
// -X main.buildRevision; else "unknown") and the Go toolchain. `engine
// version` reads no configuration, so a broken config file does not stop
// it.
func TestVersion(t *testing.T) {
	bin := testutil.EngineBinary(t)
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	info := string(out)
	field := func(re string) string {
		if m := regexp.MustCompile(re).FindStringSubmatch(info); m != nil {
			return m[1]
		}
		return ""
	}
	goVersion := field(`^\S+: (go\S+)`)
	version := field(`(?m)^\s+mod\s+\S+\s+(\S+)`)
	if version == "(devel)" || version == "" {
		version = "devel"
	}
	revision := field(`(?m)^\s+build\s+vcs\.revision=(\S+)`)
	if len(revision) > 12 {
		revision = revision[:12]
	}
	if revision != "" && field(`(?m)^\s+build\s+vcs\.modified=(\S+)`) == "true" {
		revision += "-dirty"
	}
	if revision == "" {
		revision = field(`main\.buildRevision=([^\s"]+)`)
	}
	if revision == "" {
		revision = "unknown"
	}
	want := "engine " + version + " (revision " + revision
	tail := " " + goVersion + " " + field(`(?m)^\s+build\s+GOOS=(\S+)`) + "/" + field(`(?m)^\s+build\s+GOARCH=(\S+)`)
	env := testutil.Env(t)
	var lines []string
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}, {"--config", "/nonexistent/config.yaml", "version"}} {
		r := testutil.Run(t, env, "", args...)
		line := strings.TrimSuffix(r.Stdout, "\n")
		if r.Code != 0 || r.Stderr != "" || strings.Contains(line, "\n") || !strings.HasPrefix(line, want) || !strings.HasSuffix(line, tail) {
			t.Fatalf("engine %v: exit %d, %q (stderr %q); want one line starting %q and ending %q", args, r.Code, r.Stdout, r.Stderr, want, tail)
		}
		lines = append(lines, line)
	}
	for _, l := range lines[1:] {
		if l != lines[0] {
			t.Fatalf("the forms differ: %q", lines)
		}
	}
}
