package exec

import (
	"context"
	"fmt"
	"strings"

	"github.com/enginehq/engine/engine/plan"
	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers"
)

// NullColumn is a column that the statement's WHERE or HAVING reads
// without saying what NULL means (plan.NullCheck) and that is NULL in
// every one of the Rows rows its scan read (Rows >= 1: zero rows are no
// evidence either way).
type NullColumn struct {
	Table   string // provider.service.resource
	Column  string // the column's SQL name
	Written string // the read as written (o.col, col, or o.col ->> '$.a')
	Path    string // the JSON path read of Column, or ""
	Clause  string // WHERE or HAVING
	JSON    bool   // a JSON column (the term reads a path of it)
	Rows    int64
}

// nullColumns asks, once every scan is loaded and before the final
// query, whether each scan's NullChecks have a value in one of the rows
// it read (plan.Scan.NullCountSQL: one query per scan that has any).
func nullColumns(ctx context.Context, st *store.Store, p *plan.Plan) ([]NullColumn, error) {
	var out []NullColumn
	for _, s := range p.Scans {
		checks := s.NullChecks()
		if len(checks) == 0 {
			continue
		}
		rows, err := st.Values(ctx, s.NullCountSQL(checks))
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// A path SQLite refuses (malformed): the final query says so
			// in its own words; nothing to count here.
			continue
		}
		if len(rows) != 1 || len(rows[0]) != len(checks)+1 {
			return nil, fmt.Errorf("counting the values of %s: no row", s.Ref.Name())
		}
		total, _ := rows[0][0].(int64)
		if total == 0 {
			continue
		}
		for i, c := range checks {
			if some, _ := rows[0][i+1].(int64); some == 0 {
				out = append(out, NullColumn{Table: s.Ref.Name(), Column: c.Column.Name, Written: c.Read.Expr, Path: c.Read.Path, Clause: c.Read.Clause,
					JSON: c.Column.Type == providers.TypeJSON && c.Read.Path == "", Rows: total})
			}
		}
	}
	return out, nil
}

// NullColumnsError is a statement whose WHERE or HAVING reads a column
// that is NULL in every row read, without saying what NULL means
// (Options.NullIsError: engine check, where zero rows would pass the
// control on what the credentials cannot see). Kind incomplete, not
// retryable: the same credentials get the same answer.
type NullColumnsError struct {
	Columns []NullColumn
}

func (e *NullColumnsError) Error() string { return nullMessage(e.Columns) }

// ErrorKind is "incomplete": the provider answered, without what the
// statement reads.
func (e *NullColumnsError) ErrorKind() string { return "incomplete" }

// Retryable is false: running it again reads the same answer.
func (e *NullColumnsError) Retryable() bool { return false }

// nullMessage says which columns are NULL in every row read, the likely
// cause and the two forms that decide what unknown means. It is the
// error's message and, without the error, the result's notice.
func nullMessage(cols []NullColumn) string {
	if len(cols) == 0 {
		return ""
	}
	var b strings.Builder
	name := func(c NullColumn) string {
		if c.Path != "" {
			return c.Table + "." + c.Column + " ->> " + quoteString(c.Path)
		}
		return c.Table + "." + c.Column
	}
	if len(cols) == 1 {
		c := cols[0]
		fmt.Fprintf(&b, "%s is NULL in every row read (%s), and %s reads it without saying what NULL means",
			name(c), result.Plural(int(c.Rows), "row"), c.Clause)
	} else {
		parts := make([]string, len(cols))
		for i, c := range cols {
			parts[i] = fmt.Sprintf("%s (%s, %s)", name(c), c.Clause, result.Plural(int(c.Rows), "row"))
		}
		fmt.Fprintf(&b, "%s are NULL in every row read, and the statement reads them without saying what NULL means", strings.Join(parts, ", "))
	}
	it := "it"
	if len(cols) > 1 {
		it = "them"
	}
	fmt.Fprintf(&b, ": the provider's answer does not give %s, most likely because the credentials cannot see %s (GitHub leaves out an organization's settings for a token without the owner role, and a repository's security settings for one without admin), or because it is unset in every row; a comparison with NULL is never true, so the rows it should judge drop out unseen", it, it)
	w := cols[0].Written
	if cols[0].JSON {
		w += " ->> '$.key'"
	}
	fmt.Fprintf(&b, ". Say in the statement what unknown means: coalesce(%s, <failing value>) counts it as failing, %s IS NULL selects the rows where it is unknown; or use credentials that can read it", w, w)
	return b.String()
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
