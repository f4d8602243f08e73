package catalog

import (
	"slices"
	"testing"
)

// nearest keeps names a typo away, at most three, closest first.
func TestNearest(t *testing.T) {
	cands := []string{"repos", "orgs", "issues", "pulls", "actions", "repository", "users"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"repo", []string{"repos"}},
		{"isues", []string{"issues"}},
		{"Pull", []string{"pulls"}},
		{"zzzzzz", nil},
		{"repos", nil}, // the name itself is not a suggestion
		{"x", nil},
	} {
		if got := nearest(tc.name, cands); !slices.Equal(got, tc.want) {
			t.Errorf("nearest(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	many := []string{"ab1", "ab2", "ab3", "ab4", "ab5"}
	if got := nearest("abc", many); len(got) != maxSuggestions {
		t.Errorf("nearest(abc) = %v, want %d names", got, maxSuggestions)
	}
}

func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		s    []string
		want string
	}{
		{nil, ""},
		{[]string{"a"}, "did you mean a?"},
		{[]string{"a", "b"}, "did you mean a or b?"},
		{[]string{"a", "b", "c"}, "did you mean a, b or c?"},
	} {
		if got := (&NotFound{Suggestions: tc.s}).DidYouMean(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.s, got, tc.want)
		}
	}
}
