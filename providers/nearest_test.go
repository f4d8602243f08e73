package providers

import (
	"strings"
	"testing"
)

// A candidate matches by words when each word of the name is one of its
// words, or begins one (less a plural s); a url word the name lacks is
// no match.
func TestSharesWords(t *testing.T) {
	for _, tc := range []struct {
		name, candidate string
		want            bool
	}{
		{"stars", "stargazers_count", true},
		{"STARS", "stargazers_count", true},
		{"star_count", "stargazers_count", true},
		{"stars", "stargazers_url", false},
		{"created", "created_at", true},
		{"lang", "language", true},
		{"issues", "open_issues_count", true},
		{"name", "name", false}, // the name itself
		{"sta", "state", false}, // three letters: a prefix says little
		{"count_count", "forks_count", false},
		{"stars", "forks_count", false},
		{"", "name", false},
	} {
		if got := SharesWords(tc.name, tc.candidate); got != tc.want {
			t.Errorf("SharesWords(%q, %q) = %v, want %v", tc.name, tc.candidate, got, tc.want)
		}
	}
}

// TestOneTypoRule: the one rule of every "did you mean": a swap of two
// adjacent letters is one edit, the limit a quarter of the name's length
// (1 to 3), and no suggestion further than one edit behind the closest.
func TestOneTypoRule(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"shwo", "show", 1}, {"debgu", "debug", 1}, {"SELCET", "select", 1}, {"delete", "select", 3}, {"gitlab", "github", 2}, {"ab", "ba", 1}, {"abc", "abc", 0}} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	for in, want := range map[string]string{"shwo": "show", "selcet": "select", "delete": "", "gitlab": "", "explian": "explain"} {
		got := TypoFixes(in, []string{"select", "show", "describe", "explain", "github"}, 1)
		if (want == "" && len(got) != 0) || (want != "" && (len(got) != 1 || got[0] != want)) {
			t.Errorf("TypoFixes(%q) = %v, want %q", in, got, want)
		}
	}
	for n, want := range map[int]int{1: 1, 4: 1, 7: 1, 8: 2, 12: 3, 40: 3} {
		if got := TypoLimit(strings.Repeat("x", n)); got != want {
			t.Errorf("TypoLimit of %d letters = %d, want %d", n, got, want)
		}
	}
}
