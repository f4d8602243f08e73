package check

import (
	"fmt"
	"sort"

	"github.com/enginehq/engine/engine/result"
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

// The file name, the control's id and the message are each shown on one
// line (control characters escaped, result.Sanitize): a control file
// named "x\n::error file=..." (a fork's pull request can add one) must
// not print a line a GitHub Actions log reads as a workflow command.
func (p Problem) String() string {
	loc := result.Sanitize(p.File)
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, p.Line)
		if p.Column > 0 {
			loc = fmt.Sprintf("%s:%d", loc, p.Column)
		}
	}
	if p.Control != "" {
		return fmt.Sprintf("%s: control %s: %s", loc, result.Sanitize(p.Control), result.Sanitize(p.Message))
	}
	if loc == "" {
		return result.Sanitize(p.Message) // no file: the command line's
	}
	return fmt.Sprintf("%s: %s", loc, result.Sanitize(p.Message))
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
