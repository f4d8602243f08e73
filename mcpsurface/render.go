package mcpsurface

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// Caps bound one tool result.
type Caps struct {
	// MaxRows is mcp_max_rows: the most rows in one result (0: no cap).
	MaxRows int
	// MaxBytes is mcp_max_bytes: the approximate bytes of one response
	// (the TSV text plus the JSON rows); at least one row is always kept.
	MaxBytes int
	// MaxCell bounds one cell (bytes) in both encodings: a longer value
	// is cut and ends with "…[cut: N of M bytes shown]", and the result
	// carries truncated_cells and a notice; the kept result holds the whole
	// value (0: no bound). It keeps one huge cell from bypassing MaxBytes
	// through the "at least one row" rule.
	MaxCell int
}

// Defaults of Caps. A tool result carries its rows twice (TSV text and
// structuredContent), and a host receives both: measured in o200k tokens
// (docs/mcp.md, "What a result costs"), 256 KiB made a capped SELECT * of
// 79k tokens, past the 25k at which some hosts cut MCP output. 40 KiB
// keeps the widest result near 12k tokens, half that limit, while 100
// rows of a few columns (about 12 KB, 5k tokens) still fit whole; a cell
// of 8 KiB is at most about a third of it in both encodings.
const (
	DefaultMaxRows  = 100
	DefaultMaxBytes = 40 << 10
	DefaultMaxCell  = 8 << 10
)

// fixedOverhead approximates the bytes of a response besides rows and
// header: the envelope, stats, notice, summary line.
const fixedOverhead = 600

// jsonRow converts a row for structuredContent (JSON columns as JSON).
func jsonRow(cols []result.Column, row []any) []any {
	out := make([]any, len(row))
	for i, v := range row {
		if i < len(cols) {
			v = result.JSONValue(cols[i], v)
		}
		out[i] = v
	}
	return out
}

// rendered is a capped slice of rows in both encodings.
type rendered struct {
	rows     [][]any  // JSON-ready rows
	tsvLines []string // one TSV line per row
	cutCells int      // cells cut by Caps.MaxCell in these rows
	cellCap  int      // the smallest cap a cut cell was cut at (firstRowCellCap), 0: MaxCell
}

// fit takes rows while the caps hold, always at least one. cuts, when
// not nil, says the rows were cut by Caps.MaxCell already (result.CutRow)
// and how many cells of each; nil: fit cuts them. extra is the bytes the
// response carries besides its rows (column statistics), which take
// their share of the byte cap.
func fit(cols []result.Column, rows [][]any, cuts []int, caps Caps, extra int) rendered {
	f := newFitter(cols, caps)
	f.used += extra
	for i, row := range rows {
		cut := -1
		if cuts != nil {
			cut = cuts[i]
		}
		if !f.add(row, cut) {
			break
		}
	}
	return f.done()
}

// fitter takes rows one at a time while the caps hold (always at least
// one), so that a caller reading rows from disk holds only those that fit.
type fitter struct {
	cols []result.Column
	caps Caps
	used int
	r    rendered
}

func newFitter(cols []result.Column, caps Caps) *fitter {
	colJSON, _ := json.Marshal(cols)
	return &fitter{cols: cols, caps: caps, used: fixedOverhead + len(result.TSVHeader(cols)) + len(colJSON)}
}

// add takes row unless a cap is reached (then it reports false). cut < 0:
// the row is whole and is cut here; else it was cut already, cut cells.
// Cells are cut before anything is encoded.
func (f *fitter) add(row []any, cut int) bool {
	if f.caps.MaxRows > 0 && len(f.r.rows) >= f.caps.MaxRows {
		return false
	}
	if cut < 0 {
		limit := f.caps.MaxCell
		if len(f.r.rows) == 0 {
			limit = firstRowCellCap(row, f.caps)
		}
		row, cut = result.CutRow(row, limit)
		if cut > 0 && limit < f.caps.MaxCell {
			f.r.cellCap = limit
		}
	}
	jr := jsonRow(f.cols, row)
	b, _ := json.Marshal(jr)
	line := result.TSVRow(f.cols, row)
	cost := len(b) + 1 + len(line) + 1
	if f.caps.MaxBytes > 0 && len(f.r.rows) > 0 && f.used+cost > f.caps.MaxBytes {
		return false
	}
	f.used += cost
	f.r.cutCells += cut
	f.r.rows = append(f.r.rows, jr)
	f.r.tsvLines = append(f.r.tsvLines, line)
	return true
}

func (f *fitter) done() rendered {
	if f.r.rows == nil {
		f.r.rows = [][]any{}
	}
	return f.r
}

// firstRowCellCap is the cell cap of a result's first row, which is
// always shown: MaxCell, or less when the row's cells cut at MaxCell
// would still pass the byte cap (a row of many long cells), so that even
// that row is within about MaxBytes (it is encoded twice, TSV and JSON).
// It is the largest cap c whose cut row, sum(min(len(cell), c)), fits in
// a third of MaxBytes; never under minCellCap. With MaxCell 0 (cells
// not cut) the row is whole.
func firstRowCellCap(row []any, caps Caps) int {
	if caps.MaxBytes <= 0 || caps.MaxCell <= 0 {
		return caps.MaxCell // no byte cap, or cells not cut (mcp_max_cell_bytes 0)
	}
	budget := caps.MaxBytes / 3
	var lens []int
	fixed := 0
	for _, v := range row {
		if s, ok := v.(string); ok {
			lens = append(lens, len(s))
		} else {
			fixed += 8
		}
	}
	c := caps.MaxCell
	if c <= minCellCap {
		return c
	}
	total := func(c int) int {
		n := fixed
		for _, l := range lens {
			n += min(l, c)
		}
		return n
	}
	if total(c) <= budget {
		return c
	}
	lo, hi := minCellCap, c // the largest cap whose total fits
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if total(mid) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// minCellCap is the smallest cell cap firstRowCellCap uses.
const minCellCap = 64

// tsvText is the text block: header, rows, then one summary line
// starting with "# ".
func tsvText(cols []result.Column, lines []string, summary string) string {
	var b strings.Builder
	b.WriteString(result.TSVHeader(cols))
	b.WriteByte('\n')
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString("# ")
	b.WriteString(summary)
	return b.String()
}

// truncationNotice steers the agent to SQL rather than a re-run.
func truncationNotice(shown, total int, id string) string {
	msg := fmt.Sprintf("Showing %d of %d rows. Aggregate, filter or paginate in SQL (GROUP BY/COUNT, WHERE, LIMIT/OFFSET) instead of re-running", shown, total)
	if id != "" {
		msg += fmt.Sprintf(", or page this result with fetch_result_page(result_id=%q, offset=%d)", id, shown)
	}
	return msg + "."
}

// cellsNotice says which cells were cut and where the whole values are.
func cellsNotice(n, max int, uri string) string {
	what := "1 cell is"
	if n != 1 {
		what = fmt.Sprintf("%d cells are", n)
	}
	msg := fmt.Sprintf("%s longer than %d bytes and cut; each ends with \"…[cut: N of M bytes shown]\". ", what, max)
	if uri != "" {
		return msg + fmt.Sprintf("The whole values are in the kept result: read the resource %s (?format=json or csv), or select length(column) or substr(column, start, length) in SQL.", uri)
	}
	return msg + "Select length(column) or substr(column, start, length) in SQL to read them in parts."
}

func itoa(n int) string { return fmt.Sprint(n) }

// rowsOut is the rows part of a structured result, the same in
// run_select_query and fetch_result_page: the columns, the rows shown and
// the true total.
type rowsOut struct {
	Columns      []result.Column `json:"columns"`
	Rows         [][]any         `json:"rows" jsonschema:"rows as arrays in column order"`
	RowCount     int             `json:"row_count" jsonschema:"true total rows of the result"`
	ReturnedRows int             `json:"returned_rows"`
}

func newRowsOut(cols []result.Column, rows [][]any, total int) rowsOut {
	// Never null on the wire (the output schema says array): an empty
	// result is [].
	if cols == nil {
		cols = []result.Column{}
	}
	if rows == nil {
		rows = [][]any{}
	}
	return rowsOut{Columns: cols, Rows: rows, RowCount: total, ReturnedRows: len(rows)}
}
