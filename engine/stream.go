package engine

import (
	"context"

	"github.com/enginehq/engine/engine/result"
)

// QueryInto runs one statement with its rows written to out as they are
// produced (Begin with the columns, each Row, End): the one way a surface
// that prints a result (exec, the shell) runs a statement into a stream.
// qo's Rows is set here; its Columns, if set, is called before out.Begin
// (a surface clears a progress line there). The failure to write the
// output (writeErr) is returned apart from the statement's (err): a
// surface reports them differently.
func (e *Engine) QueryInto(ctx context.Context, text string, out *result.Stream, qo QueryOptions) (res *result.Result, writeErr, err error) {
	before := qo.Columns
	qo.Columns = func(cols []result.Column) error {
		if before != nil {
			if err := before(cols); err != nil {
				return err
			}
		}
		return out.Begin(cols)
	}
	qo.Rows = func(row []any) error {
		if err := out.Row(row); err != nil {
			writeErr = err
			return err
		}
		return nil
	}
	res, err = e.Query(ctx, text, qo)
	if writeErr == nil && err == nil {
		writeErr = out.End()
	}
	return res, writeErr, err
}
