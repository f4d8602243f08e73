package plan

import (
	"slices"
	"strings"

	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

// NullCheck is a response column of a scan that the statement's WHERE or
// HAVING reads without saying what NULL means (sqlfront.NullRead): when
// every row the scan read holds NULL there, the term cannot decide, and
// the runner says so (exec: an error for check, a notice otherwise).
type NullCheck struct {
	Column providers.Column
	// Read is what the statement reads (Read.Path only for a JSON
	// column; Read.Expr as the statement writes it, for the forms the
	// runner's message offers).
	Read sqlfront.NullRead
}

// NullChecks are the scan's NullChecks: the table's NullReads that are
// response columns of its method, leaving out the parameters the scan
// binds (their column holds the bound value, never NULL).
func (s *Scan) NullChecks() []NullCheck {
	if s.NoRequest != "" || s.ValueColumn() {
		return nil
	}
	var out []NullCheck
	for _, r := range s.Ref.NullReads {
		c := s.Method.Column(r.Name)
		if c == nil || !s.Ref.Reads(r.Name) || s.isParamColumn(c.Name) || s.binds(c.Name) {
			continue
		}
		if c.Type != providers.TypeJSON {
			// a path of a JSON column only; else the column itself
			r.Path, r.Expr = "", r.Written
		}
		if slices.ContainsFunc(out, func(o NullCheck) bool { return o.Column.Name == c.Name && o.Read.Path == r.Path }) {
			continue
		}
		out = append(out, NullCheck{Column: *c, Read: r})
	}
	return out
}

// NullCountSQL is the SQLite query the runner asks, once the scan's
// rows are in, for checks (NullChecks): one row, the number of rows read,
// then for each check in order whether one row has a value there (1) or
// none (0): of the column, or of the JSON path it reads (a JSON null is
// none). Each EXISTS stops at the first value, so a column that has
// values costs a row or two, not a pass over the table.
func (s *Scan) NullCountSQL(checks []NullCheck) string {
	table := sqlfront.QuoteIdent(s.Table)
	parts := make([]string, 0, len(checks)+1)
	parts = append(parts, "(SELECT count(*) FROM "+table+")")
	for _, c := range checks {
		v := sqlfront.QuoteIdent(c.Column.Name)
		if c.Read.Path != "" {
			v += " ->> " + sqlfront.QuoteString(c.Read.Path)
		}
		parts = append(parts, "EXISTS (SELECT 1 FROM "+table+" WHERE "+v+" IS NOT NULL)")
	}
	return "SELECT " + strings.Join(parts, ", ")
}
