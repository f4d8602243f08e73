package secrets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/mcp/mcptest"
	"github.com/enginehq/engine/test/testutil"
)

// cutMessage places the token so that a 300-byte cut of the message splits
// it 10 bytes in: cutting before redacting would leak "ghp_SECRET".
var cutMessage = strings.Repeat("x", 290) + token + " (echoed by the provider)"

const (
	cutSQL   = `SELECT login FROM github.orgs.members WHERE org = 'tiny'`
	retrySQL = `SELECT name FROM github.teams.teams WHERE org = 'tiny'`
	shortSQL = `SELECT id FROM github.orgs.webhooks WHERE org = 'tiny'`
)

// newCutFake answers three endpoints with the token in the error message:
// a 403 whose message is cut at the token, a retryable 502 with the same
// message (the --debug retry lines print it), and a retryable 502 with a
// short message holding the whole token.
func newCutFake(t *testing.T) *fakegithub.Server {
	t.Helper()
	fake := fakegithub.ForTest(t, fakegithub.WithToken(token))
	fake.Inject(fakegithub.Fault{Path: "^/orgs/tiny/members$", Kind: fakegithub.KindStatus, Status: 403, Message: cutMessage})
	fake.Inject(fakegithub.Fault{Path: "^/orgs/tiny/teams$", Kind: fakegithub.KindStatus, Status: 502, Message: cutMessage})
	fake.Inject(fakegithub.Fault{Path: "^/orgs/tiny/hooks$", Kind: fakegithub.KindStatus, Status: 502, Message: "upstream rejected token " + token})
	return fake
}

// assertNoPrefix fails when any output holds a prefix of the token of 8
// bytes or more (the redaction must happen before any cut).
func (o *outputs) assertNoPrefix(t *testing.T, minBytes int) {
	t.Helper()
	total := 0
	for label, text := range o.items {
		total += len(text)
		if i := strings.Index(text, token[:8]); i >= 0 {
			t.Errorf("token prefix in %s: ...%s...", label, text[max(0, i-60):min(len(text), i+len(token)+20)])
		}
	}
	if total < minBytes {
		t.Errorf("only %d bytes of output scanned", total)
	}
	t.Logf("scanned %d outputs, %d bytes", len(o.items), total)
}

// TestTokenCutByTruncationNeverLeaks: issue 14 §6. exec (every format,
// with --debug and its retry lines), check and MCP.
func TestTokenCutByTruncationNeverLeaks(t *testing.T) {
	t.Parallel()
	fake := newCutFake(t)
	var out outputs
	// Deliberately not FastRetry: retrySQL's fault is retried, so that the
	// --debug retry lines are scanned too.
	e := env(t, fake, testutil.RetryOnce...)
	for _, sql := range []string{cutSQL, retrySQL, shortSQL} {
		for _, format := range []string{"table", "json"} {
			r := out.run("exec "+format+" "+sql, testutil.Run(t, e, "", "--debug", "exec", "-o", format, sql))
			if r.Code != 2 {
				t.Errorf("%s: exit %d", sql, r.Code)
			}
		}
	}
	// The scan is not vacuous: the message reached the outputs, redacted,
	// and the retry was logged.
	all := strings.Join(func() []string {
		var s []string
		for _, v := range out.items {
			s = append(s, v)
		}
		return s
	}(), "\n")
	testutil.Contains(t, "exec outputs", all, "xxxxxxxxxx", "retrying in", "upstream rejected token [REDACTED]")

	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	ctl := "controls:\n"
	for i, sql := range []string{cutSQL, retrySQL, shortSQL} {
		ctl += "  - id: c" + string(rune('0'+i)) + "\n    title: t\n    sql: " + sql + "\n"
	}
	if err := os.WriteFile(file, []byte(ctl), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json"} {
		if r := out.run("check "+format, testutil.Run(t, e, "", "--debug", "check", "-o", format, file)); r.Code != 2 {
			t.Errorf("check %s: exit %d", format, r.Code)
		}
	}

	_, cs, stderr := mcptest.Stdio(t, e, "--debug", "mcp")
	for _, sql := range []string{cutSQL, retrySQL, shortSQL} {
		if res := out.callTool(t, cs, "mcp "+sql, "run_select_query", map[string]any{"sql": sql}); !res.IsError {
			t.Errorf("mcp %s: not an error", sql)
		}
	}
	cs.Close()
	out.add("mcp stderr", stderr.String())
	assertSent(t, fake)
	out.assertNoPrefix(t, 5_000)
}
