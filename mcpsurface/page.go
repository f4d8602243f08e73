package mcpsurface

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/enginehq/engine/engine"
)

type pageInput struct {
	ResultID string `json:"result_id" jsonschema:"result_id (or result_uri) from run_select_query"`
	Offset   int    `json:"offset,omitempty" jsonschema:"first row, 0-based (default 0)"`
	Limit    int    `json:"limit,omitempty" jsonschema:"rows to return (default and maximum: the server's row cap)"`
}

// pageOutput is fetch_result_page's structured output: a success fills the
// page fields (pageSuccess), a failure only Error.
type pageOutput struct {
	*pageSuccess
	Error engine.ErrorBody `json:"error,omitzero"`
}

func (pageOutput) failed(b engine.ErrorBody) pageOutput { return pageOutput{Error: b} }

// pageSuccess is fetch_result_page's success.
type pageSuccess struct {
	rowsOut
	Offset     int    `json:"offset"`
	Limit      int    `json:"limit"`
	HasMore    bool   `json:"has_more"`
	NextOffset int    `json:"next_offset,omitempty"`
	ResultID   string `json:"result_id"`
	ResultURI  string `json:"result_uri"`
	// TruncatedCells and Notice: cells cut by the cell cap.
	TruncatedCells int    `json:"truncated_cells,omitempty" jsonschema:"cells longer than the server's cell cap, cut and marked \"…[cut: N of M bytes shown]\"; the kept result holds them whole"`
	Notice         string `json:"notice,omitempty"`
}

// resultID accepts an id or its engine://results/ URI.
func resultID(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "engine://results/")
	if i := strings.IndexByte(s, '?'); i >= 0 {
		s = s[:i]
	}
	return s
}

// unknownResult is the usage error of a result_id that names no kept
// result.
func (s *Server) unknownResult(id string) error {
	o := s.store.Options()
	return usageErrorf("result %q is unknown or expired (results are kept for %s, at most %d of them); re-run the query with run_select_query", id, o.TTL, o.MaxResults)
}

func (s *Server) fetchPage(ctx context.Context, req *mcp.CallToolRequest, in pageInput) (reply[pageOutput], error) {
	id := resultID(in.ResultID)
	if in.Offset < 0 || in.Limit < 0 {
		return reply[pageOutput]{}, usageErrorf("offset and limit must not be negative")
	}
	maxRows := s.cfg.Caps.MaxRows
	limit := in.Limit
	switch {
	case limit == 0 && maxRows > 0:
		limit = maxRows
	case limit == 0:
		limit = DefaultMaxRows
	case maxRows > 0 && limit > maxRows:
		limit = maxRows
	}
	k, err := s.store.Info(ctx, id, principal(req))
	if errors.Is(err, ErrUnknownResult) || id == "" {
		return reply[pageOutput]{}, s.unknownResult(id)
	}
	if err != nil {
		return reply[pageOutput]{}, err
	}
	// Rows are read one at a time and cut as they come; reading stops at
	// the first that does not fit, so a page holds at most the byte cap
	// plus one kept row (StoreOptions.MaxRowBytes), however large the rows are.
	f := newFitter(k.Columns, Caps{MaxBytes: s.cfg.Caps.MaxBytes, MaxCell: s.cfg.Caps.MaxCell})
	read, probe, full := 0, false, false
	err = s.store.Each(ctx, k, in.Offset, limit+1, func(row []any) (bool, error) { // one more: has_more
		if read == limit {
			probe = true
			return false, nil
		}
		if !f.add(row, -1) {
			full = true
			return false, nil
		}
		read++
		return true, nil
	})
	if err != nil {
		return reply[pageOutput]{}, err
	}
	fr := f.done()
	out := &pageSuccess{
		rowsOut: newRowsOut(k.Columns, fr.rows, k.RowCount),
		Offset:  in.Offset, Limit: limit, HasMore: probe || full,
		ResultID: id, ResultURI: ResultURI(id),
	}
	summary := fmt.Sprintf("rows %d-%d of %d", in.Offset+1, in.Offset+len(fr.rows), k.RowCount)
	if len(fr.rows) == 0 {
		summary = fmt.Sprintf("no rows at offset %d of %d", in.Offset, k.RowCount)
	}
	if fr.cutCells > 0 {
		out.TruncatedCells = fr.cutCells
		out.Notice = cellsNotice(fr.cutCells, cmp.Or(fr.cellCap, s.cfg.Caps.MaxCell), out.ResultURI)
		summary = out.Notice + " " + summary
	}
	if out.HasMore {
		out.NextOffset = in.Offset + len(fr.rows)
		summary += fmt.Sprintf("; more: fetch_result_page(result_id=%q, offset=%d)", id, out.NextOffset)
	} else {
		summary += "; end of result"
	}
	return reply[pageOutput]{Text: tsvText(k.Columns, fr.tsvLines, summary), Out: pageOutput{pageSuccess: out},
		Detail: fmt.Sprintf("rows=%d offset=%d has_more=%t", out.ReturnedRows, out.Offset, out.HasMore)}, nil
}
