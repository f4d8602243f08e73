package catalog

import (
	"testing"

	"github.com/enginehq/engine/providers"
)

func TestKeyValues(t *testing.T) {
	state := providers.Param{Name: "state", In: providers.InQuery, Enum: []string{"open", "closed", "all"}, Default: "open"}
	a := &providers.Method{Name: "a", Params: []providers.Param{state, {Name: "sha", In: providers.InQuery, Default: "none"}, {Name: "free", In: providers.InQuery}}}
	b := &providers.Method{Name: "b", Params: []providers.Param{state}}
	c := &providers.Method{Name: "c", Params: []providers.Param{{Name: "state", In: providers.InQuery, Enum: []string{"open", "closed"}}}}
	d := &providers.Method{Name: "d", Params: []providers.Param{{Name: "state", In: providers.InQuery}}}
	for _, x := range []struct {
		methods []*providers.Method
		name    string
		want    string
	}{
		{[]*providers.Method{a, b}, "state", "One of open, closed, all (default open)."},
		{[]*providers.Method{a, b, c}, "state", "a, b: one of open, closed, all (default open); c: one of open, closed."},
		{[]*providers.Method{a, d}, "state", "a: one of open, closed, all (default open)."},
		{[]*providers.Method{a}, "sha", "Default none."},
		{[]*providers.Method{a}, "free", ""},
		{[]*providers.Method{a}, "missing", ""},
	} {
		if got := KeyValues(x.methods, x.name); got != x.want {
			t.Errorf("%s: %q, want %q", x.name, got, x.want)
		}
	}
}
