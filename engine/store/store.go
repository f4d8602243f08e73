package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/buger/jsonparser"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/sqlfront"
	"github.com/enginehq/engine/providers"
)

// Store is a private SQLite database in a temporary file. A file (rather
// than memory) bounds the process's memory by the page cache however many
// rows a statement materialises; with journaling and syncing off it costs
// little more than memory.
//
// The file is unlinked as soon as the store's one connection has it open
// (where the OS allows: everywhere but Windows), so nothing is left in
// TMPDIR whatever ends the process (SIGTERM, SIGKILL, a crash); where it
// cannot be unlinked early, Close removes it.
type Store struct {
	db       *sql.DB
	conn     *sql.Conn
	path     string
	unlinked bool
	maxValue int // SetMaxValueBytes (limits.go); 0: SQLite's default
}

// CacheKiB is SQLite's page cache per store. Each cached page costs
// about twice its size in RSS (the pure-Go SQLite allocates a 4 KiB page
// plus its header from a power-of-two size class), so 16 MiB of cache is
// about 32 MB of RSS; a 100k-row SELECT * read at 32 MiB peaked at 103 MB,
// at 16 MiB at about 70 MB, in the same time.
const CacheKiB = 16 << 10

// Open makes a new, empty database.
func Open(ctx context.Context) (*Store, error) {
	f, err := os.CreateTemp("", "engine-*.db")
	if err != nil {
		return nil, fmt.Errorf("temporary database: %w", err)
	}
	path := f.Name()
	f.Close()
	dsn := "file:" + path + "?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)&_pragma=temp_store(FILE)&_pragma=cache_size(-" + strconv.Itoa(CacheKiB) + ")"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	db.SetMaxOpenConns(1)
	// The one connection is held until Close and never returned to the
	// pool, so the database is never reopened by name.
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	conn, err := db.Conn(ctx)
	if err == nil {
		// Make SQLite open the file now (connections open lazily).
		_, err = conn.ExecContext(ctx, "PRAGMA user_version")
	}
	if err != nil {
		if conn != nil {
			conn.Close()
		}
		db.Close()
		os.Remove(path)
		return nil, err
	}
	s := &Store{db: db, conn: conn, path: path}
	s.unlinked = os.Remove(path) == nil
	return s, nil
}

// Close releases the database and removes its file (if still there).
func (s *Store) Close() error {
	s.conn.Close()
	err := s.db.Close()
	if !s.unlinked {
		os.Remove(s.path)
	}
	return err
}

// declType is the SQLite declared type of a column type. JSON is declared
// JSONTEXT so that it gets TEXT affinity and is still recognisable.
func declType(t string) string {
	switch t {
	case providers.TypeInteger:
		return "INTEGER"
	case providers.TypeReal:
		return "REAL"
	case providers.TypeBoolean:
		return "BOOLEAN"
	case providers.TypeJSON:
		return "JSONTEXT"
	}
	return "TEXT"
}

// resultType maps a declared type back to a result column type.
func resultType(decl string) string {
	switch strings.ToUpper(decl) {
	case "INTEGER":
		return result.TypeInteger
	case "REAL":
		return result.TypeReal
	case "BOOLEAN":
		return result.TypeBoolean
	case "JSONTEXT":
		return result.TypeJSON
	case "TEXT":
		return result.TypeText
	}
	return ""
}

// QuoteIdent quotes an SQLite identifier (sqlfront.QuoteIdent).
func QuoteIdent(s string) string { return sqlfront.QuoteIdent(s) }

// Table is a materialised table being loaded. A Table is not safe for
// concurrent use: loaders of one table take turns.
type Table struct {
	s     *Store
	name  string
	cols  []providers.Column
	index map[string]int // by SQL name (parameter columns)
	keys  map[string]int // by the items' JSON key (Column.Key)
	tx    *sql.Tx
	stmt  *sql.Stmt
	Rows  int
	vals  []any // vals[0] is the rowid, then one value per column
	row   []any // vals[1:]
	keyed bool  // the statement sets the rowid (vals[0])
}

// CreateTable creates the table and opens a loading transaction.
func (s *Store) CreateTable(ctx context.Context, name string, cols []providers.Column) (*Table, error) {
	defs := make([]string, len(cols))
	marks := make([]string, len(cols))
	index := make(map[string]int, len(cols))
	keys := make(map[string]int, len(cols))
	for i, c := range cols {
		defs[i] = QuoteIdent(c.Name) + " " + declType(c.Type)
		marks[i] = "?"
		index[c.Name] = i
		keys[c.Key()] = i
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("internal: table %s has no columns", name)
	}
	if _, err := s.conn.ExecContext(ctx, "CREATE TABLE "+QuoteIdent(name)+" ("+strings.Join(defs, ", ")+")"); err != nil {
		return nil, fmt.Errorf("create table %s: %w", name, err)
	}
	tx, err := s.conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = QuoteIdent(c.Name)
	}
	key := rowidName(index)
	text := "INSERT INTO " + QuoteIdent(name) + " (" + strings.Join(names, ", ") + ") VALUES (" + strings.Join(marks, ", ") + ")"
	if key != "" {
		text = "INSERT INTO " + QuoteIdent(name) + " (" + key + ", " + strings.Join(names, ", ") + ") VALUES (?, " + strings.Join(marks, ", ") + ")"
	}
	stmt, err := tx.PrepareContext(ctx, text)
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	vals := make([]any, len(cols)+1)
	return &Table{s: s, name: name, cols: cols, index: index, keys: keys, tx: tx, stmt: stmt, vals: vals, row: vals[1:], keyed: key != ""}, nil
}

// rowidName is a name of the rowid that no column of the table shadows.
func rowidName(cols map[string]int) string {
	for _, n := range []string{"rowid", "_rowid_", "oid"} {
		shadowed := false
		for c := range cols {
			if strings.EqualFold(c, n) {
				shadowed = true
			}
		}
		if !shadowed {
			return n
		}
	}
	return "" // every name is a column: rows are appended (Key is ignored)
}

func (t *Table) insertItem(ctx context.Context, key int64, item map[string]any, fixed map[string]any) error {
	clear(t.row)
	for k, v := range item {
		if i, ok := t.keys[k]; ok {
			t.row[i] = v
		}
	}
	return t.insert(ctx, key, fixed)
}

func (t *Table) insertJSON(ctx context.Context, key int64, raw []byte, fixed map[string]any) error {
	clear(t.row)
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return fmt.Errorf("item is not a JSON object: %.40q", raw)
	}
	var convErr error
	err := jsonparser.ObjectEach(raw, func(key, v []byte, typ jsonparser.ValueType, _ int) error {
		i, ok := t.keys[string(key)]
		if !ok {
			return nil
		}
		x, err := cell(v, typ, t.cols[i].Type)
		if err != nil {
			if de, ok := err.(*DecodeError); ok {
				de.Property = string(key)
			}
			convErr = err
			return convErr
		}
		t.row[i] = x
		return nil
	})
	if convErr != nil {
		return convErr
	}
	if err != nil {
		return fmt.Errorf("item is not a valid JSON object: %w", err)
	}
	return t.insert(ctx, key, fixed)
}

// insert sets the parameter columns and inserts the row held in t.vals,
// with rowid key (0: SQLite appends).
func (t *Table) insert(ctx context.Context, key int64, fixed map[string]any) error {
	for k, v := range fixed {
		if i, ok := t.index[k]; ok {
			t.row[i] = v
		}
	}
	args := t.row
	if t.keyed {
		t.vals[0], args = nil, t.vals
		if key != 0 {
			t.vals[0] = key
		}
	}
	if _, err := t.stmt.ExecContext(ctx, args...); err != nil {
		if le := t.s.limitError(err, t.name); le != err {
			return le
		}
		return fmt.Errorf("materialise %s: %w", t.name, err)
	}
	t.Rows++
	return nil
}

// Part is the rows of one part of a table loaded in parts (the calls of a
// fan-out, in call order), which may be loaded in any interleaving: a row's
// rowid is its part's index (high 32 bits) then its place in the part, so
// a full scan of the table, which reads rows in rowid order, reads the
// parts one after the other, each in insertion order. A Part shares its
// Table: it is not safe for concurrent use either.
type Part struct {
	t    *Table
	base int64
	n    int64
}

// Part returns the loader of part i (0-based) of the table.
func (t *Table) Part(i int) *Part { return &Part{t: t, base: int64(i) << 32} }

// Rows is the number of rows the part has received.
func (p *Part) Rows() int64 { return p.n }

// Insert adds one row of the part from a decoded item. fixed holds the
// values of parameter columns (by column name).
func (p *Part) Insert(ctx context.Context, item map[string]any, fixed map[string]any) error {
	p.n++
	return p.t.insertItem(ctx, p.base|p.n, item, fixed)
}

// InsertJSON adds one row of the part from a JSON object item in a single
// pass, decoding only the properties that are columns of the table. fixed
// holds the values of parameter columns (by column name).
func (p *Part) InsertJSON(ctx context.Context, raw []byte, fixed map[string]any) error {
	p.n++
	return p.t.insertJSON(ctx, p.base|p.n, raw, fixed)
}

// Commit ends loading.
func (t *Table) Commit() error {
	t.stmt.Close()
	return t.tx.Commit()
}

// Abort discards the loading transaction.
func (t *Table) Abort() {
	t.stmt.Close()
	t.tx.Rollback()
}

// readOnlyQuery runs text with the read-only authorizer set and returns
// its rows with their column types; the authorizer stays set (Values
// resets it, QueryRows keeps it).
func (s *Store) readOnlyQuery(ctx context.Context, text string) (*sql.Rows, []*sql.ColumnType, error) {
	auth := &readOnly{}
	if err := s.setAuthorizer(auth.fn); err != nil {
		return nil, nil, err
	}
	rows, err := s.conn.QueryContext(ctx, text)
	if err != nil {
		if le := s.limitError(err, ""); le != err {
			return nil, nil, le
		}
		return nil, nil, queryError(err, auth)
	}
	cts, err := rows.ColumnTypes()
	if err != nil {
		rows.Close()
		return nil, nil, &QueryError{Err: err}
	}
	return rows, cts, nil
}

// Values runs a read-only query during loading (e.g. to compute the
// parameter values of a dependent scan) and returns its raw rows.
func (s *Store) Values(ctx context.Context, text string) ([][]any, error) {
	defer s.setAuthorizer(nil)
	rows, cts, err := s.readOnlyQuery(ctx, text)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out, err := scanRows(rows, len(cts), nil)
	if err != nil {
		if le := s.limitError(err, ""); le != err {
			return nil, le
		}
		return nil, &QueryError{Err: err}
	}
	return out, nil
}

// scanRows reads every row; blobs become strings, and integer columns
// whose type is BOOLEAN (per types, when given) become bools.
func scanRows(rows *sql.Rows, n int, types []result.Column) ([][]any, error) {
	var out [][]any
	err := eachRow(rows, n, types, func(row []any) error {
		out = append(out, row)
		return nil
	})
	return out, err
}

// eachRow is scanRows handing each row to f instead of collecting it.
func eachRow(rows *sql.Rows, n int, types []result.Column, f func([]any) error) error {
	for rows.Next() {
		vals := make([]any, n)
		ptrs := make([]any, n)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			switch x := v.(type) {
			case []byte:
				vals[i] = string(x)
			case int64:
				if types != nil && types[i].Type == result.TypeBoolean {
					vals[i] = x != 0
				}
			}
		}
		if err := f(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Query runs a read-only statement and collects the typed result.
//
// The statement runs under a read-only authorizer (see readOnly) with the
// connection in query_only mode; a refused operation is a QueryError that
// names it.
func (s *Store) Query(ctx context.Context, text string) (*result.Result, error) {
	var rows [][]any
	res, err := s.QueryRows(ctx, text, nil, func(row []any) error {
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Rows = rows
	return res, nil
}

// QueryRows runs a read-only statement like Query but hands each row to
// emit as SQLite produces it, holding none: the memory of a 10-million-row
// result is that of one row. The returned result has the columns and no
// rows. An expression column (no declared type) takes the type of its
// first non-NULL value, as in Query. begin, when set, is called with the
// columns before the first row (an expression column's Type is "" there:
// it is known only from its values). An error from begin or emit stops
// the query and is returned as is.
func (s *Store) QueryRows(ctx context.Context, text string, begin func(cols []result.Column) error, emit func(row []any) error) (*result.Result, error) {
	if _, err := s.conn.ExecContext(ctx, "PRAGMA query_only = 1"); err != nil {
		return nil, err
	}
	rows, cts, err := s.readOnlyQuery(ctx, text)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	res := &result.Result{Columns: make([]result.Column, len(cts))}
	var untyped []int // expression columns: typed by their first value
	for i, ct := range cts {
		res.Columns[i] = result.Column{Name: ct.Name(), Type: resultType(ct.DatabaseTypeName())}
		if res.Columns[i].Type == "" {
			untyped = append(untyped, i)
		}
	}
	types := res.Columns
	if begin != nil {
		if err := begin(append([]result.Column(nil), res.Columns...)); err != nil {
			return nil, err
		}
	}
	var emitErr error
	err = eachRow(rows, len(cts), types, func(row []any) error {
		for k := 0; k < len(untyped); {
			i := untyped[k]
			if t := result.ValueType(row[i]); t != "" {
				res.Columns[i].Type = t
				untyped = append(untyped[:k], untyped[k+1:]...)
				continue
			}
			k++
		}
		if s.maxValue > 0 && rowBytes(row) > s.maxValue {
			emitErr = &LimitError{Limit: s.maxValue}
			return emitErr
		}
		if err := emit(row); err != nil {
			emitErr = err
			return err
		}
		return nil
	})
	if emitErr != nil {
		return nil, emitErr
	}
	if err != nil {
		if le := s.limitError(err, ""); le != err {
			return nil, le
		}
		return nil, &QueryError{Err: err}
	}
	for _, i := range untyped {
		res.Columns[i].Type = result.TypeText // no value says otherwise
	}
	return res, nil
}

func queryError(err error, auth *readOnly) error {
	if why := auth.reason(); why != "" {
		return &QueryError{Err: fmt.Errorf("not allowed: %s (statements may only read the query's tables)", why)}
	}
	return &QueryError{Err: err}
}

// QueryError is an error SQLite raised while running the user's query.
type QueryError struct{ Err error }

func (e *QueryError) Error() string {
	msg := e.Err.Error()
	msg = strings.TrimPrefix(msg, "SQL logic error: ")
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		msg = msg[:i] // SQLite's numeric result code
	}
	if strings.HasPrefix(msg, "no such column") {
		msg += " (DESCRIBE the table to list its columns and WHERE keys)"
	}
	if strings.HasPrefix(msg, "no such table") {
		msg += " (provider tables have three-part names, provider.service.resource: SHOW RESOURCES lists them)"
	}
	return msg
}

func (e *QueryError) Unwrap() error { return e.Err }

// ErrorKind is "sql": SQLite refused the user's statement.
func (e *QueryError) ErrorKind() string { return "sql" }

// ErrorPrefix is put before the message when the error is classified.
func (e *QueryError) ErrorPrefix() string { return "SQL error" }
