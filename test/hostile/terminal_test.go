package hostile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/fakegithub"
	"github.com/enginehq/engine/test/testutil"
)

// Terminal and report injection: API data (row values, error messages)
// and control files hold ESC/OSC/CSI sequences and newlines. Human-facing
// output (table, line, the shell, error text, check text and github
// reports) must show them escaped; machine formats (json, csv, tsv) must
// keep them exact. Markdown output (-o markdown, check's job summary)
// must keep API values inert: no HTML, link, image, mention or reference.

// evilDesc retitles and clears a terminal, forges a `name = ...` line of
// -o line, and carries a C1 CSI and DEL.
const evilDesc = "\x1b]0;TITLE\x07\x1b[2J\r\nname = forged\n\u009b31mred\x7f::error::pwned"

const (
	evilSQL = "SELECT name, description FROM github.repos.repos WHERE org = 'evil'"
	errSQL  = "SELECT name FROM github.repos.repos WHERE org = 'evilerr'"
)

func evilServer(t *testing.T) *fakegithub.Server {
	t.Helper()
	fake := fakegithub.ForTest(t)
	body, _ := json.Marshal([]map[string]any{{"id": 1, "name": "evil", "full_name": "evil/evil", "description": evilDesc}})
	fake.Inject(fakegithub.Fault{Path: "^/orgs/evil/repos$", Kind: fakegithub.KindBody, Body: string(body)})
	fake.Inject(fakegithub.Fault{Path: "^/orgs/evilerr/repos$", Kind: fakegithub.KindStatus, Status: 404,
		Message: "Not Found\x1b]0;PWNED\x07\x1b[2J\r\n::error::forged"})
	return fake
}

func evilEnv(t *testing.T, fake *fakegithub.Server) []string {
	return testutil.FakeEnv(t, fake.URL())
}

// assertInert fails when text holds a raw control character other than
// newline and tab (ESC, BEL, CR, DEL, C1) or a line that starts with a
// forged marker.
func assertInert(t *testing.T, label, text string, forged ...string) {
	t.Helper()
	if i := strings.IndexFunc(text, func(r rune) bool {
		return (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f)
	}); i >= 0 {
		t.Errorf("%s: raw control character %q at %d in:\n%q", label, text[i], i, text)
	}
	for _, line := range strings.Split(text, "\n") {
		for _, f := range forged {
			if strings.HasPrefix(strings.TrimSpace(line), f) {
				t.Errorf("%s: forged line %q in:\n%s", label, line, text)
			}
		}
	}
}

func TestTerminalInjectionExecHuman(t *testing.T) {
	t.Parallel()
	fake := evilServer(t)
	env := evilEnv(t, fake)
	for _, format := range []string{"table", "line"} {
		r := testutil.Run(t, env, "", "exec", "-o", format, evilSQL)
		if r.Code != 0 {
			t.Fatalf("-o %s: exit %d: %s", format, r.Code, r.Stderr)
		}
		assertInert(t, "exec -o "+format, r.Stdout, "name = forged", "::error::")
		if !strings.Contains(r.Stdout, `\x1b]0;TITLE\x07\x1b[2J\r\nname = forged\n\u009b31mred\x7f`) {
			t.Errorf("-o %s: the value is not shown escaped:\n%s", format, r.Stdout)
		}
		if format == "line" && len(regexp.MustCompile(`(?m)^\s*name = `).FindAllString(r.Stdout, -1)) != 1 {
			t.Errorf("-o line: want exactly one name line:\n%s", r.Stdout)
		}
	}
	r := testutil.Run(t, env, "", "exec", errSQL)
	if r.Code != 2 {
		t.Fatalf("error: exit %d: %s", r.Code, r.Stderr)
	}
	assertInert(t, "exec error", r.Stderr, "::error::")
	if !strings.Contains(r.Stderr, `Not Found\x1b]0;PWNED\x07`) {
		t.Errorf("error message not shown escaped:\n%s", r.Stderr)
	}
}

func TestTerminalInjectionExecMachineExact(t *testing.T) {
	t.Parallel()
	fake := evilServer(t)
	env := evilEnv(t, fake)
	r := testutil.Run(t, env, "", "exec", "-o", "json", evilSQL)
	var rows []map[string]string
	if err := json.Unmarshal([]byte(r.Stdout), &rows); err != nil || len(rows) != 1 || rows[0]["description"] != evilDesc {
		t.Errorf("json: %v %q", err, r.Stdout)
	}
	// (encoding/csv's reader drops the \r of \r\n inside a field, so
	// compare the bytes.)
	r = testutil.Run(t, env, "", "exec", "-o", "csv", evilSQL)
	if want := "name,description\nevil,\"" + evilDesc + "\"\n"; r.Stdout != want {
		t.Errorf("csv: %q, want %q", r.Stdout, want)
	}
	r = testutil.Run(t, env, "", "exec", "-o", "tsv", evilSQL)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if len(lines) != 2 || testutil.UnescapeTSV(strings.Split(lines[1], "\t")[1]) != evilDesc {
		t.Errorf("tsv: %q", r.Stdout)
	}
	// -o json errors are the JSON error object: exact, and inert as JSON.
	r = testutil.Run(t, env, "", "exec", "-o", "json", errSQL)
	var e struct{ Error struct{ Message string } }
	if err := json.Unmarshal([]byte(r.Stderr), &e); err != nil || !strings.Contains(e.Error.Message, "\x1b]0;PWNED\x07") {
		t.Errorf("json error: %v %q", err, r.Stderr)
	}
	assertInert(t, "exec -o json error", r.Stderr)
}

func TestTerminalInjectionShell(t *testing.T) {
	t.Parallel()
	fake := evilServer(t)
	script := evilSQL + ";\n.mode line\n" + evilSQL + ";\n.mode table\n" + errSQL + ";\n"
	r := testutil.Run(t, evilEnv(t, fake), script, "shell")
	if r.Code == 0 {
		t.Fatalf("the failing statement did not fail the script")
	}
	assertInert(t, "shell stdout", r.Stdout, "name = forged", "::error::")
	assertInert(t, "shell stderr", r.Stderr, "::error::")
	if strings.Count(r.Stdout, `\x1b]0;TITLE\x07`) != 2 || !strings.Contains(r.Stderr, `\x1b]0;PWNED\x07`) {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
}

// TestCheckReportInjection: a control title, remediation and row values
// with newlines and escapes emit no workflow command of their own in -o
// github and no raw control character in -o text; -o json keeps them.
func TestCheckReportInjection(t *testing.T) {
	t.Parallel()
	fake := evilServer(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "controls.yaml")
	ctl := `controls:
  - id: evil
    title: "Evil\n::error::pwned\n::stop-commands::tok\e[2J"
    remediation: "fix\n::warning::forged\e]0;T\a"
    sql: ` + evilSQL + `
  - id: evil-error
    title: "Err\r\n::error::pwned2"
    sql: ` + errSQL + `
`
	if err := os.WriteFile(file, []byte(ctl), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(evilEnv(t, fake), "GITHUB_STEP_SUMMARY="+filepath.Join(dir, "summary.md"))
	for _, format := range []string{"text", "github"} {
		r := testutil.Run(t, env, "", "check", "-o", format, file)
		if r.Code != 2 {
			t.Fatalf("-o %s: exit %d\n%s", format, r.Code, r.Stderr)
		}
		assertInert(t, "check -o "+format, r.Stdout, "::error::pwned", "::stop-commands::", "::warning::forged", "::error::forged", "name = forged")
		assertInert(t, "check -o "+format+" stderr", r.Stderr, "::")
		if !strings.Contains(r.Stdout, `\x1b]0;TITLE\x07`) {
			t.Errorf("-o %s: row value not shown escaped:\n%s", format, r.Stdout)
		}
		if format == "github" {
			commands := regexp.MustCompile(`(?m)^::(\w+)`).FindAllStringSubmatch(r.Stdout, -1)
			if len(commands) != 5 { // group, endgroup, fail, error, totals
				t.Errorf("-o github: %d workflow commands, want 5:\n%s", len(commands), r.Stdout)
			}
			if !regexp.MustCompile(`(?m)^::error file=[^,\n]*controls\.yaml,line=\d+,title=FAIL evil%3A Evil `).MatchString(r.Stdout) {
				t.Errorf("-o github: no annotation for the failed control:\n%s", r.Stdout)
			}
		}
	}
	summary, _ := os.ReadFile(filepath.Join(dir, "summary.md"))
	assertInert(t, "job summary", string(summary))
	r := testutil.Run(t, env, "", "check", "-o", "json", file)
	var rep struct {
		Controls []struct {
			Title string
			Rows  [][]any
		}
	}
	if err := json.Unmarshal([]byte(r.Stdout), &rep); err != nil || len(rep.Controls) != 2 {
		t.Fatalf("json: %v %s", err, r.Stdout)
	}
	if rep.Controls[0].Title != "Evil\n::error::pwned\n::stop-commands::tok\x1b[2J" || len(rep.Controls[0].Rows) != 1 || rep.Controls[0].Rows[0][1] != evilDesc {
		t.Errorf("json report not exact: %+v", rep.Controls[0])
	}
}

// markdownDescs are API values that render as HTML, images, links,
// mentions and references in GitHub-flavoured Markdown.
var markdownDescs = []string{
	`<img src="https://beacon.example/px.png?who=ci">`,
	`![logo](https://beacon.example/img.png)`,
	`[security advisory](https://evil.example/login)`,
	`@acme/admins please approve, cc @octocat`,
	`<!-- everything after this is hidden`,
	`fixes #12 and acme/other#34`,
	`<a href="https://evil.example">docs</a> &amp; &#64;x`,
}

// activeMarkdown matches what must not reach a rendered summary: an HTML
// tag or comment, a link or image, a mention, an issue reference.
var activeMarkdown = []*regexp.Regexp{
	regexp.MustCompile(`<[A-Za-z!/]`),
	regexp.MustCompile(`(^|[^\\])\]\(`),
	regexp.MustCompile(`(^|[^\\])\]\[`),
	regexp.MustCompile(`@[A-Za-z0-9]`),
	regexp.MustCompile(`#[0-9]`),
	regexp.MustCompile(`&#64;`),
}

func assertInertMarkdown(t *testing.T, label, md string) {
	t.Helper()
	// A zero-width space after @ and # breaks mentions and references.
	md = strings.NewReplacer("@&#8203;", "@_", "#&#8203;", "#_").Replace(md)
	for _, re := range activeMarkdown {
		if m := re.FindString(md); m != "" {
			t.Errorf("%s: active markdown %q (%s) in:\n%s", label, m, re, md)
		}
	}
}

// TestMarkdownInert: API data in `-o markdown` and in check's job summary
// ($GITHUB_STEP_SUMMARY) is text: no <img> beacon, no link or image, no
// HTML comment hiding the rest, no @team mention and no issue
// reference; the JSON report keeps the values exact. Before the fix
// -o markdown escaped only | and \ (HTML, links, images and mentions
// passed), and the summary escaped HTML but not links, images, mentions
// or references.
func TestMarkdownInert(t *testing.T) {
	fake := fakegithub.ForTest(t)
	var items []map[string]any
	for i, d := range markdownDescs {
		items = append(items, map[string]any{"id": i + 1, "name": "r" + string(rune('a'+i)), "full_name": "m/m", "description": d})
	}
	body, _ := json.Marshal(items)
	fake.Inject(fakegithub.Fault{Path: "^/orgs/md/repos$", Kind: fakegithub.KindBody, Body: string(body)})
	env := testutil.FakeEnv(t, fake.URL())
	const sql = "SELECT name, description FROM github.repos.repos WHERE org = 'md'"

	r := testutil.Run(t, env, "", "exec", "-o", "markdown", sql)
	if r.Code != 0 || strings.Count(r.Stdout, "\n") != len(markdownDescs)+2 {
		t.Fatalf("exit %d:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	assertInertMarkdown(t, "exec -o markdown", r.Stdout)
	if !strings.Contains(r.Stdout, "&lt;img src=\"https://beacon.example/px.png?who=ci\"&gt;") {
		t.Errorf("the value is not shown as text:\n%s", r.Stdout)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "controls.yaml")
	ctl := "controls:\n  - id: md\n    title: no repository descriptions\n    sql: " + sql + "\n"
	if err := os.WriteFile(file, []byte(ctl), 0o644); err != nil {
		t.Fatal(err)
	}
	summaryFile := filepath.Join(dir, "summary.md")
	r = testutil.Run(t, append(env, "GITHUB_STEP_SUMMARY="+summaryFile), "", "check", "-o", "github", file)
	if r.Code != 1 {
		t.Fatalf("check: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	summary, err := os.ReadFile(summaryFile)
	if err != nil {
		t.Fatal(err)
	}
	// The summary's own markup (<details>, <summary>) is the engine's;
	// what the rows put in the table must be inert.
	rows := string(summary)
	for _, own := range []string{"<details><summary>", "</summary>", "</details>"} {
		rows = strings.ReplaceAll(rows, own, "")
	}
	assertInertMarkdown(t, "job summary", rows)
	if strings.Count(rows, "beacon.example") != 2 {
		t.Errorf("the values are not all in the summary:\n%s", summary)
	}
}
