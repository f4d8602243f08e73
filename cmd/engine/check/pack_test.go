package check

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The github pack loads, has at least 60 controls each with the metadata a
// report needs (title, severity, rationale, remediation, anchors, needs),
// and every control plans against the embedded GitHub index.
func TestGitHubPackComplete(t *testing.T) {
	if !slices.Contains(PackNames(), "github") {
		t.Fatalf("packs %v: no github", PackNames())
	}
	f, ps := LoadPack("github")
	if len(ps) != 0 {
		t.Fatal(problemText(ps))
	}
	if f.Pack == nil || f.Pack.Name != "github" || f.Pack.Title == "" {
		t.Fatalf("pack header %+v", f.Pack)
	}
	if len(f.Controls) < 60 {
		t.Fatalf("%d controls; want at least 60", len(f.Controls))
	}
	for _, c := range f.Controls {
		if c.Title == "" || c.Title == c.ID || c.Severity == "" || c.Rationale == "" || c.Remediation == "" {
			t.Errorf("control %s: give it a title, severity, rationale and remediation", c.ID)
		}
		if len(c.Maps) == 0 {
			t.Errorf("control %s: maps names no anchor", c.ID)
		}
		for a, ids := range c.Maps {
			if !slices.Contains(Anchors, a) || len(ids) == 0 {
				t.Errorf("control %s: maps.%s %v", c.ID, a, ids)
			}
		}
		if len(c.Needs) == 0 {
			t.Errorf("control %s: no needs", c.ID)
		}
	}
	plansForOrg(t, f)
}

// docs/check.md's table of the github pack lists its controls, in order.
func TestGitHubPackDocTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- pack-github:begin")
	table, _, ok2 := strings.Cut(rest, "<!-- pack-github:end -->")
	if !ok || !ok2 {
		t.Fatal("docs/check.md: no pack-github:begin/end markers")
	}
	var got []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(table, -1) {
		got = append(got, m[1])
	}
	f, ps := LoadPack("github")
	if len(ps) != 0 {
		t.Fatal(problemText(ps))
	}
	var want []string
	for _, c := range f.Controls {
		want = append(want, c.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("docs/check.md's github pack table lists %v; the pack's controls are %v", got, want)
	}
}
