package check

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/enginehq/engine/test/testutil"
)

// TestExampleFiguresInDocs: the figures docs/check.md gives for the
// shipped example against the fake org (outcomes, offending rows, the
// requests it sends) are the ones a run of the binary reports, so the
// page cannot drift from the code. The paragraph is the one that begins
// "Against the repository's fake GitHub server".
func TestExampleFiguresInDocs(t *testing.T) {
	doc := testutil.RepoFile(t, "docs/check.md")
	para := regexp.MustCompile(`(?s)Against the repository's fake GitHub server.*?\n\n`).Find(doc)
	if para == nil {
		t.Fatal(`docs/check.md: no paragraph "Against the repository's fake GitHub server"`)
	}
	text := strings.Join(strings.Fields(string(para)), " ")
	figure := func(re string) int {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("docs/check.md's paragraph has no figure matching %q:\n%s", re, text)
		}
		n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		return n
	}

	_, env := serverEnv(t)
	file := filepath.Join(testutil.RepoRoot(), "examples", "controls", "github-org.yaml")
	r := runCheck(t, env, file, "-o", "json", "--var", "org=acme")
	var rep struct {
		Controls []struct {
			ID       string `json:"id"`
			RowCount *int   `json:"row_count"`
		} `json:"controls"`
		Totals struct{ Pass, Fail, Error int } `json:"totals"`
		Stats  struct {
			HTTPRequests int `json:"http_requests"`
		} `json:"stats"`
	}
	testutil.StdoutJSON(t, r, &rep)
	rows := map[string]int{}
	for _, c := range rep.Controls {
		if c.RowCount != nil {
			rows[c.ID] = *c.RowCount
		}
	}
	for _, c := range []struct {
		what string
		got  int
		re   string
	}{
		{"passing controls", rep.Totals.Pass, `reports (\d+) pass`},
		{"failing controls", rep.Totals.Fail, `(\d+) fail`},
		{"requests", rep.Stats.HTTPRequests, `with ([\d,]+) requests`},
		{"public repositories", rows["no-public-repos"], `(\d+) public repositories`},
		{"archived public repositories", rows["archived-repos-not-private"], `(\d+) archived public`},
		{"unprotected default branches", rows["default-branch-protected"], `(\d+) active repositories with an unprotected default branch`},
		{"members without 2FA", rows["members-2fa-disabled"], `(\d+) members`},
		{"outside collaborators without 2FA", rows["outside-collaborators-2fa-disabled"], `(\d+) outside collaborators`},
		{"critical Dependabot alerts", rows["dependabot-critical-open"], `(\d+) critical Dependabot`},
		{"secret-scanning alerts", rows["secret-scanning-open"], `(\d+) secret-scanning`},
		{"insecure webhooks", rows["webhooks-insecure-ssl"], `(\d+) insecure webhooks`},
	} {
		if want := figure(c.re); c.got != want {
			t.Errorf("%s: the run reports %d, docs/check.md says %d", c.what, c.got, want)
		}
	}
	if rep.Totals.Error != 0 {
		t.Errorf("%d controls could not be evaluated", rep.Totals.Error)
	}
}
