package check

import (
	"strings"

	"github.com/enginehq/engine/providers"
)

// didYouMean is "; did you mean ID?" for the control ids of f an id that
// names none may have meant: the ids it spells in another case (ids are
// case-sensitive: LICENSE for license), then those a typo away
// (licence: license; providers.TypoFixes, the rule of the engine's other
// suggestions), up to three; "" when none is that close.
func didYouMean(f *File, id string) string {
	var near, others []string
	for _, c := range f.Controls {
		if strings.EqualFold(c.ID, id) {
			near = append(near, c.ID)
		} else {
			others = append(others, c.ID)
		}
	}
	near = append(near, providers.TypoFixes(id, others, 3)...)
	if len(near) == 0 {
		return ""
	}
	return "; " + providers.DidYouMean(near[:min(len(near), 3)])
}
