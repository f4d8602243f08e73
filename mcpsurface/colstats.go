package mcpsurface

import (
	"context"
	"fmt"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// distinctBound is the most distinct values counted exactly per column;
// past it a column's distinct is distinctBound and DistinctOver is set.
const distinctBound = 1000

// statValue is a column's min or max: a number, or the text of a date.
type statValue any

// columnStats describe one column over the whole kept result, so that an
// agent can decide to aggregate without paging (docs/mcp.md).
type columnStats struct {
	Name      string `json:"name"`
	NullCount int    `json:"null_count" jsonschema:"rows where the column is NULL"`
	Distinct  int    `json:"distinct" jsonschema:"distinct non-NULL values, exact up to 1000"`
	// DistinctOver: more distinct values than Distinct (the bound).
	DistinctOver bool      `json:"distinct_over,omitempty" jsonschema:"more than 1000 distinct values"`
	Min          statValue `json:"min,omitempty" jsonschema:"smallest value, for numbers and dates (ISO 8601 text)"`
	Max          statValue `json:"max,omitempty" jsonschema:"largest value, for numbers and dates (ISO 8601 text)"`
}

// dateGlob matches the ISO 8601 dates and timestamps the APIs write.
const dateGlob = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*'"

// ColumnStats computes, in the store's SQLite, each column's NULL count,
// distinct values (exact up to distinctBound) and, for numbers and for
// text columns whose every value is a date, min and max, over every row
// of the kept result k. One pass reads the NULLs, bounds and dates of all
// columns; each column's distinct count stops at distinctBound+1 values.
func (s *Store) ColumnStats(ctx context.Context, k *KeptInfo) ([]columnStats, error) {
	n := len(k.Columns)
	if n == 0 {
		return nil, nil
	}
	out := make([]columnStats, n)
	var sel, inner []string
	for i, c := range k.Columns {
		out[i].Name = c.Name
		x := fmt.Sprintf("x%d", i)
		inner = append(inner, fmt.Sprintf("json_extract(data, '$[%d]') AS %s", i, x))
		sel = append(sel, fmt.Sprintf("sum(%s IS NULL), min(%s), max(%s), sum(typeof(%s) = 'text' AND %s GLOB %s), count(%s)", x, x, x, x, x, dateGlob, x))
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM (SELECT " + strings.Join(inner, ", ") + " FROM rows WHERE rid = ?)"
	vals := make([]any, 5*n)
	ptrs := make([]any, len(vals))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := s.db.QueryRowContext(ctx, q, k.ID).Scan(ptrs...); err != nil {
		return nil, fmt.Errorf("column statistics: %w", err)
	}
	for i, c := range k.Columns {
		v := vals[5*i : 5*i+5]
		out[i].NullCount = int(asInt(v[0]))
		nonNull := asInt(v[4])
		switch {
		case c.Type == result.TypeInteger || c.Type == result.TypeReal:
			out[i].Min, out[i].Max = v[1], v[2]
		case c.Type == result.TypeText && nonNull > 0 && asInt(v[3]) == nonNull:
			out[i].Min, out[i].Max = asText(v[1]), asText(v[2])
		}
		var d int
		err := s.db.QueryRowContext(ctx, fmt.Sprintf(
			"SELECT count(*) FROM (SELECT DISTINCT json_extract(data, '$[%d]') AS v FROM rows WHERE rid = ? AND v IS NOT NULL LIMIT %d)", i, distinctBound+1),
			k.ID).Scan(&d)
		if err != nil {
			return nil, fmt.Errorf("column statistics: %w", err)
		}
		out[i].Distinct, out[i].DistinctOver = min(d, distinctBound), d > distinctBound
	}
	return out, nil
}

func asInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

func asText(v any) any {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return v
}

// statsLine is the compact text of the statistics, for the summary of a
// truncated result: "id 250 distinct, 1..250; license 40 null, 3 distinct".
func statsLine(st []columnStats, rows int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "column stats over all %s: ", result.Plural(rows, "row"))
	for i, c := range st {
		if i > 0 {
			b.WriteString("; ")
		}
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
	return b.String()
}
