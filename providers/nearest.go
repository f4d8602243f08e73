package providers

import (
	"slices"
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
		if d, ok := keep(c, EditDistance(name, c)); ok {
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

// EditDistance is the edit distance of a and b ignoring case
// (Levenshtein), where two adjacent letters swapped count as one edit
// (shwo: show, debgu: debug), as a typist makes them.
func EditDistance(a, b string) int {
	a, b = strings.ToLower(a), strings.ToLower(b)
	d := levenshtein.ComputeDistance(a, b)
	if d == 2 && len(a) == len(b) {
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		if i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] {
			return 1
		}
	}
	return d
}

// TypoLimit is how many edits (EditDistance) a typo of name may hold: a
// quarter of its length, at least 1 and at most 3. The one limit of
// every "did you mean" (TypoFixes).
func TypoLimit(name string) int {
	return min(max(1, len(name)/4), 3)
}

// TypoFixes are up to n candidates close enough to name to read as a
// typo's fix: by edit distance (case-insensitive; ties by name) within
// TypoLimit, and no further than one edit behind the closest. The rule
// of every "did you mean" of a name the user typed among names that
// exist (tables, services, providers, control ids, config keys,
// statement words).
func TypoFixes(name string, candidates []string, n int) []string {
	limit := TypoLimit(name)
	ranked := Nearest(name, candidates, func(_ string, d int) (int, bool) { return d, d > 0 && d <= limit })
	var out []string
	for _, c := range ranked {
		if len(out) == n || c.Distance > ranked[0].Distance+1 {
			break
		}
		out = append(out, c.Name)
	}
	return out
}

// SharesWords reports whether the snake_case words of candidate hold
// each word of name, in any order, each a distinct word: the same word,
// or one that begins with it less a plural s when that leaves four
// letters or more (stars: stargazers_count; desc: description). A
// candidate with a word url that name lacks is no match (stars is not
// stargazers_url), nor is name itself. For a typed name no edit distance
// finds.
func SharesWords(name, candidate string) bool {
	name, candidate = strings.ToLower(name), strings.ToLower(candidate)
	if name == candidate || name == "" {
		return false
	}
	words := strings.Split(candidate, "_")
	mine := strings.Split(name, "_")
	if slices.Contains(words, "url") && !slices.Contains(mine, "url") {
		return false
	}
	used := make([]bool, len(words))
	for _, w := range mine {
		stem := w
		if len(w) > 4 {
			stem = strings.TrimSuffix(w, "s")
		}
		found := false
		for i, c := range words {
			if !used[i] && w != "" && (c == w || c == stem || len(stem) >= 4 && strings.HasPrefix(c, stem)) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// DidYouMean words suggestions as a question: "did you mean a?", "did
// you mean a, b or c?"; "" for none.
func DidYouMean(suggestions []string) string {
	switch n := len(suggestions); n {
	case 0:
		return ""
	case 1:
		return "did you mean " + suggestions[0] + "?"
	default:
		return "did you mean " + strings.Join(suggestions[:n-1], ", ") + " or " + suggestions[n-1] + "?"
	}
}
