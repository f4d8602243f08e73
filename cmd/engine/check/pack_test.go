package check

import (
	"context"
	"slices"
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
	if ps := f.Resolve(nil); len(ps) == 0 {
		t.Fatal("org must be a required variable")
	}
	if ps := f.Resolve(map[string]string{"org": "acme"}); len(ps) != 0 {
		t.Fatal(problemText(ps))
	}
	eng := newEngine(t)
	if ps := Validate(context.Background(), eng, f); len(ps) != 0 {
		t.Fatal(problemText(ps))
	}
	if ps := f.CheckProviders(eng.ProviderNames()); len(ps) != 0 {
		t.Fatal(problemText(ps))
	}
}
