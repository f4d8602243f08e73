package plan

import (
	"strings"
	"testing"
)

// nearest offers the columns a typo away; a name no edit distance finds
// is suggested by its words: stars is stargazers_count (not its URL
// column), created is created_at.
func TestNearestColumns(t *testing.T) {
	for _, c := range []struct {
		cols  []string
		cases map[string]string
	}{
		{[]string{"state", "state_reason", "url", "id", "title", "stargazers_count", "name", "full_name"}, map[string]string{
			"stat":            "state,state_reason",
			"stargazer_count": "stargazers_count",
			"nme":             "name",
			"xyzzy_plugh":     "",
		}},
		{[]string{"id", "name", "size", "stargazers_count", "stargazers_url", "created_at", "forks"}, map[string]string{
			"stars":   "stargazers_count",
			"created": "created_at",
			"zzzzzz":  "",
		}},
	} {
		for in, want := range c.cases {
			if got := strings.Join(nearest(in, c.cols, 3), ","); got != want {
				t.Errorf("nearest(%q) = %q, want %q", in, got, want)
			}
		}
	}
}

// Keys of other methods are offered only a typo away, before columns,
// and marked; a key that is a column here is a column.
func TestNearestNamesOfferKeys(t *testing.T) {
	cols := []string{"name", "url", "fork", "type"}
	keys := []string{"org", "username", "type", "sort"}
	known := map[string]bool{"name": true, "url": true, "fork": true, "type": true}
	cases := map[string]string{
		"orgg":    "org (a WHERE key)",
		"nope":    "name,type",
		"usrname": "username (a WHERE key),name",
		"typ":     "type",
	}
	for in, want := range cases {
		if got := strings.Join(nearestNames(in, cols, keys, known), ","); got != want {
			t.Errorf("nearestNames(%q) = %q, want %q", in, got, want)
		}
	}
}
