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
