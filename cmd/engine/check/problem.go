package check

import (
	"fmt"
	"sort"
)

// Problem is a mistake in a control file (or in how it was invoked) found
// before anything runs. Line is 1-based; 0 means the whole file.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Control string `json:"control,omitempty"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	loc := p.File
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, p.Line)
		if p.Column > 0 {
			loc = fmt.Sprintf("%s:%d", loc, p.Column)
		}
	}
	if p.Control != "" {
		return fmt.Sprintf("%s: control %s: %s", loc, p.Control, p.Message)
	}
	return fmt.Sprintf("%s: %s", loc, p.Message)
}

// SortProblems orders problems by position (stable for equal positions).
func SortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Column < ps[j].Column
	})
}
