package providers

import (
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Near is a candidate name and its edit distance from the name asked for.
type Near struct {
	Name     string
	Distance int
}

// Nearest ranks candidates by edit distance from name (case-insensitive;
// each candidate once; ties by name), for the "did you mean" of an unknown
// table, service or column. keep decides, from a candidate and its
// distance, whether it is close enough, and may lower the distance it is
// ranked by (a candidate that contains the name, say); each caller
// applies its own rule of what reads as a typo's fix.
func Nearest(name string, candidates []string, keep func(candidate string, d int) (int, bool)) []Near {
	name = strings.ToLower(name)
	var out []Near
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		if d, ok := keep(c, levenshtein.ComputeDistance(name, strings.ToLower(c))); ok {
			out = append(out, Near{c, d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Distance != out[j].Distance {
			return out[i].Distance < out[j].Distance
		}
		return out[i].Name < out[j].Name
	})
	return out
}
