package check

import (
	"encoding/json"
	"io"

	"github.com/enginehq/engine/engine"
	"github.com/enginehq/engine/engine/result"
)

// jsonControl is one control in the JSON report.
type jsonControl struct {
	ID            string            `json:"id"`
	Title         string            `json:"title"`
	Severity      string            `json:"severity,omitempty"`
	Status        Status            `json:"status"`
	Expect        string            `json:"expect"`
	RowCount      *int              `json:"row_count,omitempty"`
	Columns       []result.Column   `json:"columns,omitempty"`
	Rows          [][]any           `json:"rows,omitempty"`
	RowsTruncated bool              `json:"rows_truncated,omitempty"`
	Waived        *jsonWaived       `json:"waived,omitempty"`
	Error         *engine.ErrorBody `json:"error,omitempty"`
	Description   string            `json:"description,omitempty"`
	Remediation   string            `json:"remediation,omitempty"`
	Stats         *result.Stats     `json:"stats,omitempty"`
	DurationMS    int64             `json:"duration_ms"`
}

type jsonReport struct {
	File       string        `json:"file"`
	Controls   []jsonControl `json:"controls"`
	Totals     Totals        `json:"totals"`
	Stats      result.Stats  `json:"stats"`
	ExitCode   int           `json:"exit_code"`
	DurationMS int64         `json:"duration_ms"`
	// RateLimit is the run's use of each rate-limit bucket (all controls).
	RateLimit []result.RateLimit `json:"rate_limit,omitempty"`
}

// WriteJSON writes one object per control plus totals and the exit code.
// Failed controls carry their columns and (capped) rows as arrays, JSON
// columns as JSON; errored controls carry the error object of docs/architecture.md.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{File: r.File, Controls: []jsonControl{}, Totals: r.Totals(), Stats: r.Stats(), ExitCode: r.ExitCode(), DurationMS: r.Duration.Milliseconds(), RateLimit: rateLimitTotals(r)}
	for _, o := range r.Outcomes {
		c := o.Control
		jc := jsonControl{ID: c.ID, Title: c.Title, Severity: c.Severity, Status: o.Status, Expect: c.Expect.String(),
			Description: c.Description, Remediation: c.Remediation, DurationMS: o.Duration.Milliseconds()}
		st := o.Stats
		jc.Stats = &st // every control, errored or not: what it cost
		if o.Status == Error {
			jc.Error = o.Err
		} else {
			n := o.RowCount
			jc.RowCount = &n
		}
		if o.Status == Fail || o.Status == Waived {
			jc.Columns, jc.RowsTruncated = o.Columns, o.RowsTruncated()
			jc.Rows = jsonRows(o.Columns, o.Rows)
			if len(o.Waived) > 0 {
				jc.Waived = &jsonWaived{Rows: jsonRows(o.Columns, o.Waived), Reasons: o.WaivedReasons}
			}
		}
		out.Controls = append(out.Controls, jc)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// jsonWaived are a control's waived rows and each one's reason.
type jsonWaived struct {
	Rows    [][]any  `json:"rows"`
	Reasons []string `json:"reasons"`
}

func jsonRows(cols []result.Column, rows [][]any) [][]any {
	out := make([][]any, len(rows))
	for i, row := range rows {
		out[i] = make([]any, len(row))
		for j, v := range row {
			out[i][j] = result.JSONValue(cols[j], v)
		}
	}
	return out
}

// WriteProblemsJSON writes the problems that stopped a run.
func WriteProblemsJSON(w io.Writer, file string, ps []Problem) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{"file": file, "problems": ps, "exit_code": ExitError})
}
