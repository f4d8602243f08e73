package check

import "github.com/enginehq/engine/providers"

// didYouMean is "; did you mean ID?" for the control ids of f closest to
// an id that names none (licence: license): a typo away (a quarter of
// its length, at least one edit, at most three), the closest first, up
// to three; "" when none is that close.
func didYouMean(f *File, id string) string {
	ids := make([]string, 0, len(f.Controls))
	for _, c := range f.Controls {
		ids = append(ids, c.ID)
	}
	limit := min(max(1, len(id)/4), 3)
	var near []string
	for _, n := range providers.Nearest(id, ids, func(_ string, d int) (int, bool) { return d, d <= limit }) {
		if len(near) < 3 {
			near = append(near, n.Name)
		}
	}
	if len(near) == 0 {
		return ""
	}
	return "; " + providers.DidYouMean(near)
}
