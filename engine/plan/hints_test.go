package plan

import (
	"strings"
	"testing"
)

// A name no edit distance finds is suggested by its words: stars is
// stargazers_count (not its URL column), created is created_at.
func TestNearestColumnsByWords(t *testing.T) {
	cols := []string{"id", "name", "size", "stargazers_count", "stargazers_url", "created_at", "forks"}
	for in, want := range map[string]string{
		"stars":   "stargazers_count",
		"created": "created_at",
		"zzzzzz":  "",
	} {
		if got := strings.Join(nearest(in, cols, 3), ","); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
		}
	}
}
