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
