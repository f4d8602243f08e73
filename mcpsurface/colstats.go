package mcpsurface

import (
	"fmt"
	"hash/maphash"
	"math"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// distinctBound is the most distinct values counted exactly per column;
// past it a column's distinct is distinctBound and DistinctOver is set.
const distinctBound = 1000

// statValue is a column's min or max: a number, or the text of a date.
type statValue any

// columnStats describe one column over the whole result (every row, not
// only those shown), so that an agent can decide to aggregate without
// paging (docs/mcp.md).
type columnStats struct {
	Name      string `json:"name"`
	NullCount int    `json:"null_count" jsonschema:"rows where the column is NULL"`
	Distinct  int    `json:"distinct" jsonschema:"distinct non-NULL values, exact up to 1000"`
	// DistinctOver: more distinct values than Distinct (the bound).
	DistinctOver bool      `json:"distinct_over,omitempty" jsonschema:"more than 1000 distinct values"`
	Min          statValue `json:"min,omitempty" jsonschema:"smallest value, for numbers and dates (ISO 8601 text)"`
	Max          statValue `json:"max,omitempty" jsonschema:"largest value, for numbers and dates (ISO 8601 text)"`
}

// colStats accumulates the statistics of a result's columns while its
// rows stream out (add sees every row, before any cap), so that they cover
// the whole result at the cost of a few comparisons per cell, kept or not.
// SQLite over the kept rows was measured first: the kept rows are JSON
// text, and json_extract parses a row per call, about 2 µs a cell (45 s
// for 1 million rows of 5 columns), where this adds nothing measurable.
// Distinct values are counted by a 64-bit hash of each value (a number
// by its value, so that 1 and 1.0 are one, as in SQL), up to
// distinctBound per column, so memory is bounded whatever the values.
type colStats struct {
	seed maphash.Seed
	cols []colAcc
}

type colAcc struct {
	nulls    int
	seen     map[uint64]struct{}
	over     bool
	num      bool // a number was seen: nmin, nmax hold the bounds
	nmin     any
	nmax     any
	dates    int // text values that are ISO 8601 dates
	texts    int // text values
	dmin     string
	dmax     string
	nonNulls int
}

func newColStats() *colStats { return &colStats{seed: maphash.MakeSeed()} }

// add counts one row.
func (s *colStats) add(row []any) {
	for len(s.cols) < len(row) {
		s.cols = append(s.cols, colAcc{seen: map[uint64]struct{}{}})
	}
	for i, v := range row {
		c := &s.cols[i]
		if v == nil {
			c.nulls++
			continue
		}
		c.nonNulls++
		var key uint64
		switch x := v.(type) {
		case string:
			key = maphash.String(s.seed, x)
			c.texts++
			if isDate(x) {
				c.dates++
				if c.dates == 1 || x < c.dmin {
					c.dmin = x
				}
				if c.dates == 1 || x > c.dmax {
					c.dmax = x
				}
			}
		case int64:
			key = mix(uint64(x))
			c.number(x, float64(x))
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
				key = mix(uint64(int64(x))) // 1.0 is 1, as in SQL
			} else {
				key = mix(math.Float64bits(x) ^ 0x9e3779b97f4a7c15)
			}
			c.number(x, x)
		case bool:
			if x {
				key = 1
			}
		default:
			key = maphash.String(s.seed, fmt.Sprintf("%T%v", v, v))
		}
		if !c.over {
			c.seen[key] = struct{}{}
			if len(c.seen) > distinctBound {
				c.over, c.seen = true, nil
			}
		}
	}
}

// mix spreads a number's bits (splitmix64's finaliser), so that numbers
// and the hashes of strings rarely meet.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (c *colAcc) number(v any, f float64) {
	if !c.num || f < toFloat(c.nmin) {
		c.nmin = v
	}
	if !c.num || f > toFloat(c.nmax) {
		c.nmax = v
	}
	c.num = true
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// isDate reports whether s starts like an ISO 8601 date (2024-05-01...).
func isDate(s string) bool {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// result is the statistics of cols: min and max for number columns and
// for text columns whose every value is a date.
func (s *colStats) result(cols []result.Column) []columnStats {
	out := make([]columnStats, len(cols))
	for i, col := range cols {
		out[i].Name = col.Name
		if i >= len(s.cols) {
			continue
		}
		c := s.cols[i]
		out[i].NullCount = c.nulls
		out[i].Distinct, out[i].DistinctOver = len(c.seen), c.over
		if c.over {
			out[i].Distinct = distinctBound
		}
		switch {
		case (col.Type == result.TypeInteger || col.Type == result.TypeReal) && c.num:
			out[i].Min, out[i].Max = c.nmin, c.nmax
		case col.Type == result.TypeText && c.dates > 0 && c.dates == c.nonNulls:
			out[i].Min, out[i].Max = c.dmin, c.dmax
		}
	}
	return out
}

// statsLineColumns is the most columns the text line of statistics
// names. A wide result (SELECT * of 91 columns) would otherwise spend
// thousands of tokens on it, mostly saying that URL columns are
// distinct in every row; column_stats keeps every column.
const statsLineColumns = 12

// unique reports whether c says only that every row has its own value
// (no NULL, every value distinct, no range): true of ids and URLs, and
// worth naming in the line of a wide result.
func (c columnStats) unique(rows int) bool {
	return c.NullCount == 0 && c.Distinct == rows && !c.DistinctOver && c.Min == nil && c.Max == nil
}

// statsLine is the compact text of the statistics, for the summary of a
// truncated result: "id 250 distinct, 1..250; license 40 null, 3 distinct".
// A result of more than statsLineColumns columns names the first
// statsLineColumns columns whose statistics say more than "distinct in
// every row", and counts the others (column_stats has them all).
func statsLine(st []columnStats, rows int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "column stats over all %s: ", result.Plural(rows, "row"))
	wide := len(st) > statsLineColumns
	named, unique, more := 0, 0, 0
	for _, c := range st {
		switch {
		case wide && c.unique(rows):
			unique++
			continue
		case wide && named == statsLineColumns:
			more++
			continue
		}
		if named > 0 {
			b.WriteString("; ")
		}
		named++
		b.WriteString(c.Name)
		if c.NullCount > 0 {
			fmt.Fprintf(&b, " %d null", c.NullCount)
			if c.NullCount < rows {
				b.WriteByte(',')
			}
		}
		if c.NullCount < rows {
			plus := ""
			if c.DistinctOver {
				plus = "+"
			}
			fmt.Fprintf(&b, " %d%s distinct", c.Distinct, plus)
		}
		if c.Min != nil || c.Max != nil {
			fmt.Fprintf(&b, ", %v..%v", c.Min, c.Max)
		}
	}
	if unique > 0 {
		fmt.Fprintf(&b, "; %s with a distinct value in every row", result.Plural(unique, "more column"))
	}
	if more > 0 {
		fmt.Fprintf(&b, "; %s", result.Plural(more, "more column"))
	}
	if unique+more > 0 {
		b.WriteString(" (column_stats has every column)")
	}
	return b.String()
}
