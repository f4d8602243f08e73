package sqlfront

import "testing"

// The placeholder notation round-trips: what placeholder writes,
// parsePlaceholder and unplaceholder read back.
func TestPlaceholderNotation(t *testing.T) {
	r := &TableRef{Index: 3, Parts: []string{"github", "repos", "repos"}}
	ph := placeholder(r)
	if ph != "`github.repos.repos#3`" {
		t.Fatalf("placeholder %q", ph)
	}
	ident := ph[1 : len(ph)-1] // as vitess hands the identifier back
	name, idx, ok := parsePlaceholder(ident)
	if !ok || name != "github.repos.repos" || idx != 3 {
		t.Fatalf("parsePlaceholder(%q) = %q, %d, %v", ident, name, idx, ok)
	}
	if _, _, ok := parsePlaceholder("repos"); ok {
		t.Fatal("a plain identifier parsed as a placeholder")
	}
	if _, _, ok := parsePlaceholder("x github.repos.repos#3"); ok {
		t.Fatal("an identifier that only contains a placeholder parsed as one")
	}
	if got := qualName(ident); got != "repos" {
		t.Fatalf("qualName = %q, want the resource name", got)
	}
	if got := unplaceholder("near " + ph + ".name = 'x'"); got != "near github.repos.repos.name = 'x'" {
		t.Fatalf("unplaceholder = %q", got)
	}
}
