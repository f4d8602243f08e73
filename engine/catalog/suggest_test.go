package catalog

import (
	"errors"
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

// A table name that is an operation's name without its verb (zen for
// get_zen) suggests that table when nothing is a typo away.
func TestSuggestsTheVerbedName(t *testing.T) {
	c := New(nil, Options{})
	for _, tc := range []struct{ service, name, want string }{
		{"meta", "zen", "did you mean github.meta.get_zen?"},
		{"meta", "ZEN", "did you mean github.meta.get_zen?"},
		{"repos", "topic", "did you mean github.repos.topics?"},
	} {
		_, err := c.Resource("github", tc.service, tc.name)
		var nf *NotFound
		if !errors.As(err, &nf) || nf.DidYouMean() != tc.want {
			t.Errorf("%s.%s: %v; want %q", tc.service, tc.name, err, tc.want)
		}
	}
}
