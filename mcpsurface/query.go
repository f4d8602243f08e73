package mcpsurface

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
)

type queryInput struct {
	SQL string `json:"sql" jsonschema:"one read-only statement: SELECT, SHOW, DESCRIBE or EXPLAIN"`
}

// queryOutput is run_select_query's structured output (docs/mcp.md): a
// success fills the result fields (querySuccess), a failure only Error.
type queryOutput struct {
	*querySuccess
	Error engine.ErrorBody `json:"error,omitzero"`
}

func (queryOutput) failed(b engine.ErrorBody) queryOutput { return queryOutput{Error: b} }

// querySuccess is run_select_query's success.
type querySuccess struct {
	rowsOut
	Truncated bool `json:"truncated" jsonschema:"rows or cells were cut (see notice)"`
	// TruncatedCells counts cells cut by the cell cap (Caps.MaxCell).
	TruncatedCells int          `json:"truncated_cells,omitempty" jsonschema:"cells longer than the server's cell cap, cut and marked \"…[cut: N of M bytes shown]\"; the kept result holds them whole"`
	Notice         string       `json:"notice,omitempty"`
	ResultID       string       `json:"result_id,omitempty"`
	ResultURI      string       `json:"result_uri,omitempty"`
	Stats          result.Stats `json:"stats"`
	// ColumnStats describe each column over every row of the result.
	ColumnStats []columnStats `json:"column_stats,omitempty" jsonschema:"per column, over every row of the result (not only those shown): NULLs, distinct values, min and max of numbers and dates"`
}

// ResultURI is the resource URI of a kept result.
func ResultURI(id string) string { return "engine://results/" + id }

func (s *Server) addQueryTools() {
	addTool(s, &mcp.Tool{
		Name:        "run_select_query",
		Description: queryDescription,
		Annotations: annotations("Run a read-only SQL query", true),
	}, s.runSelect)
	addTool(s, &mcp.Tool{
		Name:        "fetch_result_page",
		Description: "Page through a result kept by run_select_query (no API calls). limit 0 or absent: the server's row cap, which also bounds it.",
		Annotations: annotations("Page a kept result", false),
	}, s.fetchPage)
}

// queryDescription is run_select_query's description. It carries what a
// query needs on its own (hosts may drop the server instructions): how
// tables are named, how WHERE binds API parameters, and one example,
// within a budget of o200k tokens (test/mcp TestToolDescriptionsSelfSufficient).
const queryDescription = "Run one read-only SQL statement (SELECT, SHOW, DESCRIBE, EXPLAIN; SQLite dialect) over the providers' REST APIs. " +
	"Tables are provider.service.resource (list_resources lists them). " +
	"WHERE must bind, with = or IN on literals, every required key of one of the table's API methods; they become request parameters " +
	"(describe_resource shows the keys and columns). " +
	"Example: SELECT name, stargazers_count FROM github.repos.repos WHERE org = 'acme' ORDER BY stargazers_count DESC LIMIT 10. " +
	"Returns columns, capped rows (text: TSV), the true row_count, column statistics and a result_id for fetch_result_page; aggregate and filter in SQL."

// progress returns the engine's callbacks for a request that carries a
// progress token (nil otherwise): one notifications/progress per page,
// and, when the plan knows the statement's first-page requests before it
// runs (engine.QueryOptions.Estimate), one at 0 with that number as the
// total, which the notifications then carry while the pages fetched are
// within it (further pages of a paginated list come on top of the
// estimate; past it the total is unknown and left out). A notice of the
// statement's long wait (engine.QueryOptions.Notice) is one more
// notification, its message the notice, its progress half a page past
// the last (progress must increase, and the next page's is still more).
func progress(ctx context.Context, req *mcp.CallToolRequest) (onPage func(int), onEstimate func(int), onNotice func(string)) {
	if runningTask(ctx) != nil { // a task records its progress (tasks.go)
		return nil, nil, nil
	}
	if req == nil || req.Params == nil || req.Session == nil {
		return nil, nil, nil
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return nil, nil, nil
	}
	var mu sync.Mutex
	last, total := -1, 0
	sent := -1.0 // the last progress value sent
	notify := func(progress float64, msg string) {
		if progress <= sent {
			return
		}
		sent = progress
		p := &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: progress, Message: msg}
		if total > 0 && progress <= float64(total) {
			p.Total = float64(total)
		}
		req.Session.NotifyProgress(ctx, p) //nolint:errcheck // best effort
	}
	onPage = func(pages int) {
		mu.Lock()
		defer mu.Unlock()
		if pages <= last {
			return
		}
		last = pages
		msg := result.Plural(pages, "page") + " fetched"
		if total > 0 && pages <= total {
			msg = fmt.Sprintf("%d of %d planned pages fetched", pages, total)
		}
		notify(float64(pages), msg)
	}
	onEstimate = func(n int) {
		mu.Lock()
		defer mu.Unlock()
		if n <= 0 || last >= 0 {
			return
		}
		total, last = n, 0
		notify(0, fmt.Sprintf("planned: %s", result.Plural(n, "first-page request")))
	}
	onNotice = func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		notify(float64(max(last, 0))+0.5, msg)
	}
	return onPage, onEstimate, onNotice
}

func (s *Server) runSelect(ctx context.Context, req *mcp.CallToolRequest, in queryInput) (reply[queryOutput], error) {
	if strings.TrimSpace(in.SQL) == "" {
		return reply[queryOutput]{}, engine.Errorf(engine.KindSQL, "sql is empty: pass one SELECT, SHOW, DESCRIBE or EXPLAIN statement")
	}
	// The rows stream out of the engine: the first ones (as many as the
	// caps could show) stay in memory for the reply, and every row goes
	// to a spool on disk for keeping, so memory does not grow with the
	// result (3 concurrent 10-million-row results: see docs/performance.md).
	sp, err := s.store.NewSpool()
	if err != nil {
		fmt.Fprintf(s.cfg.Log, "engine mcp: keeping result: %v\n", err)
	} else {
		sp.Owner = principal(req) // only its principal pages it
		if req != nil && req.Session != nil {
			sp.Session = req.Session.ID()
		}
		defer sp.Close()
	}
	var h head
	h.caps = s.cfg.Caps
	cs := newColStats()
	onPage, onEstimate, onNotice := progress(ctx, req)
	if runningTask(ctx) != nil {
		onPage, onEstimate, onNotice = s.taskProgress(ctx)
	}
	r, err := s.eng.Query(ctx, in.SQL, engine.QueryOptions{Progress: onPage, Estimate: onEstimate, Notice: onNotice, Rows: func(row []any) error {
		cs.add(row)
		h.add(row)
		if sp != nil {
			sp.Add(row)
		}
		return nil
	}})
	if err != nil {
		return reply[queryOutput]{}, err
	}
	var id string
	kept := false
	if sp != nil {
		if id, kept, err = s.store.Keep(ctx, sp, r.Columns); err != nil {
			fmt.Fprintf(s.cfg.Log, "engine mcp: keeping result: %v\n", err)
			kept = false
		}
	}
	if !kept {
		id = ""
	}
	colStats := cs.result(r.Columns)
	statsBytes := 0
	// The statistics (JSON, and a text line when truncated) take their
	// share of the byte cap.
	if b, err := json.Marshal(colStats); err == nil && len(colStats) > 0 {
		statsBytes = len(b) + len(statsLine(colStats, h.count))
	}
	fr := fit(r.Columns, h.rows, h.cuts, s.cfg.Caps, statsBytes)
	out := &querySuccess{
		rowsOut:   newRowsOut(r.Columns, fr.rows, h.count),
		Truncated: len(fr.rows) < h.count || fr.cutCells > 0, TruncatedCells: fr.cutCells,
		ColumnStats: colStats,
		Stats:       r.Stats,
	}
	if kept {
		out.ResultID, out.ResultURI = id, ResultURI(id)
		if !out.Truncated {
			// Seen whole: kept for reading again, but the first to go.
			if err := s.store.MarkWhole(ctx, id); err != nil {
				fmt.Fprintf(s.cfg.Log, "engine mcp: keeping result: %v\n", err)
			}
		}
	}
	summary := fmt.Sprintf("%s; %s, %d ms", result.Plural(out.RowCount, "row"), r.Stats.Cost(), r.Stats.ElapsedMS)
	if rl := r.Stats.RateLimitSummary(); rl != "" {
		summary += "; " + rl
	}
	if len(r.Stats.Methods) > 0 {
		summary += "; read with " + strings.Join(r.Stats.Methods, ", ")
	}
	if out.ReturnedRows < out.RowCount {
		out.Notice = truncationNotice(out.ReturnedRows, out.RowCount, out.ResultID)
		if s.cfg.Caps.MaxRows <= 0 || out.ReturnedRows < min(s.cfg.Caps.MaxRows, out.RowCount) {
			out.Notice += fmt.Sprintf(" The rows shown stop at the server's byte cap (mcp_max_bytes, %d bytes), not its row cap: name only the columns you need instead of SELECT * to see more rows at once.", s.cfg.Caps.MaxBytes)
		}
	}
	if r.Unordered {
		out.Notice = strings.TrimSpace(out.Notice + " LIMIT/OFFSET without ORDER BY: which rows are kept depends on the order the API returned them in, which is not guaranteed; add ORDER BY for stable rows and pages.")
	}
	if fr.cutCells > 0 {
		out.Notice = strings.TrimSpace(out.Notice + " " + cellsNotice(fr.cutCells, cmp.Or(h.cellCap, s.cfg.Caps.MaxCell), out.ResultURI))
	}
	if out.Truncated && !kept && sp != nil && sp.TooLarge() {
		out.Notice += fmt.Sprintf(" The whole result is larger than the server keeps for paging (over %d bytes encoded, or a row over %d), so it has no result_id: narrow the query (WHERE, fewer columns, LIMIT) or aggregate in SQL to see the rest.", s.store.Options().MaxBytes, s.store.Options().MaxRowBytes)
	}
	if r.Notice != "" { // the engine's own note: a table not read, its answer known to be empty
		out.Notice = strings.TrimSpace(out.Notice + " " + r.Notice + ".")
	}
	if out.Notice != "" {
		summary = out.Notice + " " + summary
	}
	if kept {
		summary += "; result_id " + id
	} else if out.Truncated {
		summary += "; result too large to keep for paging"
	}
	lines := fr.tsvLines
	if out.Truncated && len(colStats) > 0 {
		// One line of statistics before the summary, which stays last.
		lines = append(lines[:len(lines):len(lines)], "# "+statsLine(colStats, out.RowCount))
	}
	return reply[queryOutput]{Text: tsvText(r.Columns, lines, summary), Out: queryOutput{querySuccess: out},
		Detail: fmt.Sprintf("rows=%d/%d truncated=%t", out.ReturnedRows, out.RowCount, out.Truncated)}, nil
}

// head keeps the first rows of a streamed result, as many as the caps
// could show (fit then takes its exact share), and counts them all. Rows
// are kept already cut by the cell cap: a huge value is never held past
// the row callback (the spool has written it by then).
type head struct {
	caps Caps
	rows [][]any
	cuts []int // cells cut in each row
	// cellCap is the first row's smaller cell cap when it was cut at one
	// (firstRowCellCap), else 0.
	cellCap int
	bytes   int
	count   int
}

func (h *head) add(row []any) {
	h.count++
	if h.caps.MaxRows > 0 && len(h.rows) >= h.caps.MaxRows {
		return
	}
	if h.caps.MaxBytes > 0 && len(h.rows) > 0 && h.bytes > h.caps.MaxBytes {
		return
	}
	limit := h.caps.MaxCell
	if len(h.rows) == 0 {
		limit = firstRowCellCap(row, h.caps)
	}
	row, cut := result.CutRow(row, limit)
	if cut > 0 && limit < h.caps.MaxCell {
		h.cellCap = limit
	}
	h.rows = append(h.rows, row)
	h.cuts = append(h.cuts, cut)
	for _, v := range row {
		n := 8
		if s, ok := v.(string); ok {
			n = len(s)
		}
		h.bytes += n
	}
}
