package sqlfront

import "github.com/dolthub/vitess/go/vt/sqlparser"

// SQLite reads a negative LIMIT as "no limit" (LIMIT -1 OFFSET 10 skips
// ten rows and keeps the rest) and a negative OFFSET as none; MySQL's
// grammar has no negative operand there. The text vitess parses carries
// noLimit instead of each such operand (MySQL's own "as many rows as
// there are", which no literal count check reads as a number: no LIMIT
// is pushed down), while SQLite runs the user's text, so the rows are
// SQLite's.
const noLimit = "18446744073709551615"

// negativeLimits returns the spans of the negative integer operands of
// LIMIT and OFFSET (LIMIT -1, LIMIT 5, -1, OFFSET -2), in text order.
func negativeLimits(toks []token) [][2]int {
	var out [][2]int
	// operand reads a LIMIT or OFFSET operand at token i, recording it
	// when it is a negative integer, and returns the index after it.
	operand := func(i int) int {
		if i+1 < len(toks) && toks[i].typ == '-' && toks[i+1].typ == sqlparser.INTEGRAL {
			out = append(out, [2]int{toks[i].start, toks[i+1].end})
			return i + 2
		}
		return i + 1
	}
	for i := 0; i < len(toks); i++ {
		switch toks[i].typ {
		case sqlparser.LIMIT:
			next := operand(i + 1)
			if next < len(toks) && toks[next].typ == ',' {
				next = operand(next + 1)
			}
			i = next - 1
		case sqlparser.OFFSET:
			i = operand(i+1) - 1
		}
	}
	return out
}

// isNoLimit reports whether a LIMIT keeps every row: its count was
// negative (noLimit) and it has no OFFSET.
func isNoLimit(l *sqlparser.Limit) bool {
	v, ok := l.Rowcount.(*sqlparser.SQLVal)
	return ok && l.Offset == nil && string(v.Val) == noLimit
}
