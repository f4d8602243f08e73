package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/enginehq/engine/providers"
)

// scanOpcodes are the VDBE opcodes of a plain scan: a program made only of
// these reads the table's rows once, in order, computes each output row
// from one input row (expressions, functions, comparisons), and stops when
// LIMIT is reached. Anything else (AggStep/AggFinal of any aggregate,
// whatever its name; Count; sorters; ephemeral tables of DISTINCT, window
// functions or IN lists; coroutines; virtual tables) is not on the list,
// so the program may need rows past the LIMIT.
var scanOpcodes = map[string]bool{
	"Init": true, "Transaction": true, "Goto": true, "Halt": true, "Noop": true, "Explain": true, "Trace": true,
	"OpenRead": true, "Rewind": true, "Next": true, "Column": true, "ResultRow": true,
	"Integer": true, "Int64": true, "Real": true, "String8": true, "String": true, "Null": true, "Blob": true,
	"DecrJumpZero": true, "IfPos": true, "OffsetLimit": true, "MustBeInt": true,
	"Function": true, "PureFunc": true, "Concat": true, "Cast": true, "Affinity": true, "RealAffinity": true, "TypeCheck": true,
	"Add": true, "Subtract": true, "Multiply": true, "Divide": true, "Remainder": true, "AddImm": true,
	"BitAnd": true, "BitOr": true, "BitNot": true, "ShiftLeft": true, "ShiftRight": true,
	"Not": true, "And": true, "Or": true, "If": true, "IfNot": true, "IsTrue": true, "IsNull": true, "NotNull": true,
	"ZeroOrNull": true, "Eq": true, "Ne": true, "Lt": true, "Le": true, "Gt": true, "Ge": true, "ElseEq": true,
	"Copy": true, "SCopy": true, "IntCopy": true, "Move": true, "CollSeq": true,
}

// Prover proves plain scans for the planner (plan.ScanProver) with
// PlainScan.
type Prover struct{}

// PlainScan is the package's PlainScan.
func (Prover) PlainScan(ctx context.Context, table string, cols []providers.Column, text string) (bool, error) {
	return PlainScan(ctx, table, cols, text)
}

// PlainScan reports whether SQLite runs text, a query over one table of
// the given columns, as a plain scan (see scanOpcodes), so that stopping
// the fetch after LIMIT rows cannot change its answer. It compiles text
// with EXPLAIN against an empty in-memory copy of the table's schema;
// nothing is executed and no row is read. A statement that does not
// compile is not a plain scan.
func PlainScan(ctx context.Context, table string, cols []providers.Column, text string) (bool, error) {
	if len(cols) == 0 {
		return false, nil
	}
	db, err := emptyDB(ctx, []TableSchema{{Name: table, Columns: cols}})
	if err != nil {
		return false, fmt.Errorf("plain-scan check: %w", err)
	}
	defer db.Close()
	ops, err := opcodes(ctx, db, text)
	if err != nil {
		return false, nil
	}
	for _, op := range ops {
		if !scanOpcodes[op] {
			return false, nil
		}
	}
	return len(ops) > 0, nil
}

// opcodes returns the opcode column of EXPLAIN text.
func opcodes(ctx context.Context, db *sql.DB, text string) ([]string, error) {
	rows, err := db.QueryContext(ctx, "EXPLAIN "+text)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	at := -1
	for i, c := range cols {
		if strings.EqualFold(c, "opcode") {
			at = i
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("EXPLAIN has no opcode column: %v", cols)
	}
	var out []string
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		switch v := vals[at].(type) {
		case string:
			out = append(out, v)
		case []byte:
			out = append(out, string(v))
		default:
			return nil, fmt.Errorf("EXPLAIN opcode of type %T", v)
		}
	}
	return out, rows.Err()
}

// TableSchema is one table of a statement's database: its name and
// columns, as the run creates it (CreateTable).
type TableSchema struct {
	Name    string
	Columns []providers.Column
}

// Compiles compiles text (EXPLAIN: nothing runs, no row is read) against
// an empty in-memory database of the given tables, so that what only
// SQLite catches (a column the tables lack, a misspelt function, a type
// of join it refuses) is an error before any request is sent, as it would
// be after them: a *QueryError, kind "sql".
func Compiles(ctx context.Context, tables []TableSchema, text string) error {
	db, err := emptyDB(ctx, tables)
	if err != nil {
		return fmt.Errorf("schema check: %w", err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "EXPLAIN "+text)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &QueryError{Err: err}
	}
	return rows.Close()
}

// emptyDB is an in-memory database (one connection) holding an empty
// table of each schema, for EXPLAIN: the statement is compiled against
// the tables' columns, nothing is run and no row is read. A table of no
// columns gets one, so that its name resolves.
func emptyDB(ctx context.Context, tables []TableSchema) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	for _, t := range tables {
		defs := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			defs[i] = QuoteIdent(c.Name) + " " + declType(c.Type)
		}
		if len(defs) == 0 {
			defs = []string{QuoteIdent("_") + " TEXT"}
		}
		if _, err := db.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS "+QuoteIdent(t.Name)+" ("+strings.Join(defs, ", ")+")"); err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}
