package providers

import "testing"

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
