package plan

import (
	"strings"
	"testing"
)

func TestNearestColumns(t *testing.T) {
	cols := []string{"state", "state_reason", "url", "id", "title", "stargazers_count", "name", "full_name"}
	cases := map[string]string{
		"stat":            "state,state_reason",
		"stargazer_count": "stargazers_count",
		"nme":             "name",
		"xyzzy_plugh":     "",
	}
	for in, want := range cases {
		if got := strings.Join(nearest(in, cols, 3), ","); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
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
