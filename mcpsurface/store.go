package mcpsurface

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the store's database driver

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/engine/store"
	"github.com/enginehq/engine/providers/defaults"
	"github.com/enginehq/engine/providers/sharedstate"
)

// StoreOptions bound the kept results.
type StoreOptions struct {
	// MaxResults is the most results kept (default 64).
	MaxResults int
	// MaxBytes bounds the encoded rows of all kept results (default 256 MiB);
	// a larger single result is not kept.
	MaxBytes int64
	// MaxRowBytes bounds one kept row, encoded: a result with a longer row
	// is not kept (like one past MaxBytes), so that reading a kept row back
	// (fetch_result_page, the result resource) holds at most this much of
	// it. Default DefaultMaxKeptRow; the server sets twice the engine's
	// value limit, so that a row with one value at that limit is kept.
	MaxRowBytes int64
	// TTL is how long a result is kept after it was made (default 30m).
	TTL time.Duration
	// Now is the clock (default time.Now); tests move it.
	Now func() time.Time
	// Shared, when set, shares the kept results with other replicas
	// (shared.go); Warnf says when it fails and when it is back.
	Shared SharedResults
	Warnf  func(format string, args ...any)
}

// ErrUnknownResult is returned for ids that were never kept, or were
// evicted or expired.
var ErrUnknownResult = errors.New("unknown or expired result")

// Store keeps complete results in an SQLite database of its own (a file in
// a private temp directory, removed by Close), bounded by count, bytes and
// age, evicting the least recently used first.
type Store struct {
	db   *sql.DB
	dir  string
	opts StoreOptions
	mu   sync.Mutex // serialises Put's insert+evict

	shared *sharedstate.Health // says when opts.Shared fails and when it is back
}

// KeptInfo describes a kept result.
type KeptInfo struct {
	ID       string
	Columns  []result.Column
	RowCount int
}

// Defaults of StoreOptions (the CLI's --keep-results, --keep-bytes and
// --keep-for take them as their defaults).
const (
	DefaultKeepResults = 64
	DefaultKeepBytes   = 256 << 20
	DefaultKeepFor     = 30 * time.Minute
)

// OpenStore creates an empty store.
func OpenStore(o StoreOptions) (*Store, error) {
	defaults.Set(&o.MaxResults, DefaultKeepResults)
	defaults.Set(&o.MaxBytes, DefaultKeepBytes)
	defaults.Set(&o.TTL, DefaultKeepFor)
	defaults.Set(&o.MaxRowBytes, DefaultMaxKeptRow)
	if o.Now == nil {
		o.Now = time.Now
	}
	dir, err := os.MkdirTemp("", "engine-mcp-results-")
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "results.db")+"?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)")
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	db.SetMaxOpenConns(1)
	_, err = db.Exec(`CREATE TABLE results(id TEXT PRIMARY KEY, columns TEXT NOT NULL, row_count INTEGER NOT NULL,
		bytes INTEGER NOT NULL, created INTEGER NOT NULL, used INTEGER NOT NULL, owner TEXT NOT NULL DEFAULT '',
		session TEXT NOT NULL DEFAULT '', whole INTEGER NOT NULL DEFAULT 0);
		CREATE TABLE rows(rid TEXT NOT NULL, idx INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY(rid, idx)) WITHOUT ROWID;`)
	if err != nil {
		db.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("result store: %w", err)
	}
	return &Store{db: db, dir: dir, opts: o, shared: &sharedstate.Health{
		Name:  "shared result store",
		Alone: "results made now stay on this replica, and only its own results can be paged here, until it answers again",
		Warnf: o.Warnf,
	}}, nil
}

// Close drops the database.
func (s *Store) Close() error {
	err := s.db.Close()
	os.RemoveAll(s.dir)
	return err
}

// Options returns the effective bounds.
func (s *Store) Options() StoreOptions { return s.opts }

func newID() string {
	var b [9]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand never fails
	return hex.EncodeToString(b[:])
}

// keepBatch is how many rows one INSERT of Keep carries (3 parameters
// each, well under SQLite's 32766).
const keepBatch = 200

// keepBatchBytes bounds the rows Keep holds for one INSERT.
const keepBatchBytes = 1 << 20

// Spool collects the rows of one result for keeping while the result is
// produced: each row is encoded and appended to a file in the store's
// private directory, never held in memory. Once the encoded rows pass
// MaxBytes the spool stops writing and drops what it has: the result is
// too large to keep. Close removes the file.
type Spool struct {
	// Owner is the principal the result is kept for (Info serves it to
	// that principal only); "" without authorization.
	Owner string
	// Session is the MCP session that made it: when the store is full,
	// the session holding the most results gives one up first (evict).
	Session string

	max    int64
	maxRow int64
	f      *os.File
	w      *bufio.Writer
	bytes  int64
	rows   int
	over   bool
	err    error
}

// NewSpool starts collecting one result.
func (s *Store) NewSpool() (*Spool, error) {
	f, err := os.CreateTemp(s.dir, "spool-")
	if err != nil {
		return nil, err
	}
	return &Spool{max: s.opts.MaxBytes, maxRow: s.opts.MaxRowBytes, f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// DefaultMaxKeptRow is StoreOptions.MaxRowBytes when it is not set:
// twice the engine's default value limit (store.DefaultMaxValueBytes).
const DefaultMaxKeptRow = 2 * store.DefaultMaxValueBytes

// Add appends one row (JSON array, one line, writeRow). The bounds are
// checked before the row is encoded, on the bytes its text alone takes (a
// lower bound of its encoding), and again once it is written: a row that
// cannot be kept is never encoded, and no row is encoded in memory.
func (sp *Spool) Add(row []any) {
	if sp.over || sp.err != nil {
		return
	}
	if est := int64(rowTextBytes(row)); est > sp.maxRow || sp.bytes+est > sp.max {
		sp.drop()
		return
	}
	n, err := writeRow(sp.w, row)
	if err != nil {
		sp.err = err
		return
	}
	sp.bytes += int64(n)
	if sp.bytes > sp.max || int64(n) > sp.maxRow {
		sp.drop()
		return
	}
	sp.w.WriteByte('\n') //nolint:errcheck // the first error sticks in w
	sp.rows++
}

// drop gives up keeping the result: the rows are too large.
func (sp *Spool) drop() {
	sp.over = true
	sp.w.Reset(sp.f)
	sp.err = sp.f.Truncate(0) // free the disk at once
}

// rowTextBytes is the bytes of a row's text values (their encoding takes
// at least that much).
func rowTextBytes(row []any) int {
	n := 0
	for _, v := range row {
		if s, ok := v.(string); ok {
			n += len(s)
		}
	}
	return n
}

// TooLarge reports whether the rows passed MaxBytes.
func (sp *Spool) TooLarge() bool { return sp.over }

// Close removes the spool's file.
func (sp *Spool) Close() {
	sp.f.Close()
	os.Remove(sp.f.Name())
}

// Keep stores a spool's rows under a new id; kept is false when they
// passed MaxBytes.
func (s *Store) Keep(ctx context.Context, sp *Spool, columns []result.Column) (id string, kept bool, err error) {
	if sp.err != nil {
		return "", false, sp.err
	}
	if sp.over {
		return "", false, nil
	}
	if err := sp.w.Flush(); err != nil {
		return "", false, err
	}
	if _, err := sp.f.Seek(0, io.SeekStart); err != nil {
		return "", false, err
	}
	cols, _ := json.Marshal(columns)
	id = newID()
	now := s.opts.Now().UnixNano()
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", false, err
	}
	defer tx.Rollback() //nolint:errcheck
	if _, err := tx.Exec(`INSERT INTO results(id, columns, row_count, bytes, created, used, owner, session) VALUES(?,?,?,?,?,?,?,?)`, id, string(cols), sp.rows, sp.bytes, now, now, sp.Owner, sp.Session); err != nil {
		return "", false, err
	}
	// Rows go in keepBatch to a statement: one Exec per row costs more
	// than SQLite's work for it.
	batch, err := tx.Prepare(`INSERT INTO rows VALUES(?,?,?)` + strings.Repeat(`,(?,?,?)`, keepBatch-1))
	if err != nil {
		return "", false, err
	}
	defer batch.Close()
	one, err := tx.Prepare(`INSERT INTO rows VALUES(?,?,?)`)
	if err != nil {
		return "", false, err
	}
	defer one.Close()
	r := bufio.NewReaderSize(sp.f, 64<<10)
	args := make([]any, 0, 3*keepBatch)
	held := 0 // bytes of the rows in args: a batch of large rows goes in early
	flush := func() error {
		if len(args) == cap(args) {
			if _, err := batch.Exec(args...); err != nil {
				return err
			}
		} else {
			for k := 0; k < len(args); k += 3 {
				if _, err := one.Exec(args[k : k+3]...); err != nil {
					return err
				}
			}
		}
		args, held = args[:0], 0
		return nil
	}
	var line []byte // reused: a large row is read once and bound once
	for i := 0; i < sp.rows; i++ {
		if line, err = readSpoolLine(r, line[:0]); err != nil {
			return "", false, fmt.Errorf("result store: reading the spool: %w", err)
		}
		if len(line) > keepBatchBytes {
			// A large row goes in alone, straight from the buffer
			// (SQLite copies it), without a string copy of its own.
			if err := flush(); err != nil {
				return "", false, err
			}
			if _, err := one.Exec(id, i, line); err != nil {
				return "", false, err
			}
			continue
		}
		args = append(args, id, i, string(line))
		held += len(line)
		if len(args) == cap(args) || held > keepBatchBytes {
			if err := flush(); err != nil {
				return "", false, err
			}
		}
	}
	if err := flush(); err != nil {
		return "", false, err
	}
	if err := s.evict(tx, id); err != nil {
		return "", false, err
	}
	if err := tx.Commit(); err != nil {
		return "", false, err
	}
	s.share(id, sp, columns, now)
	return id, true, nil
}

// readSpoolLine appends the next line of r (without its newline) to buf.
func readSpoolLine(r *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		frag, err := r.ReadSlice('\n')
		buf = append(buf, frag...)
		switch err {
		case nil:
			return buf[:len(buf)-1], nil
		case bufio.ErrBufferFull:
			continue
		default:
			return buf, err
		}
	}
}

// MarkWhole records that the client was shown every row of result id in
// the reply that made it: such a result is the first evicted.
func (s *Store) MarkWhole(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE results SET whole = 1 WHERE id = ?`, id)
	return err
}

// evict drops expired results, then, until the bounds hold (never keep,
// the one just added): the least recently used of the results the
// client was shown whole, then the least recently used of the session
// that holds the most results, so one busy session evicts its own
// results and not another's page.
func (s *Store) evict(tx *sql.Tx, keep string) error {
	cutoff := s.opts.Now().Add(-s.opts.TTL).UnixNano()
	if err := dropWhere(tx, `SELECT id FROM results WHERE created < ? AND id <> ?`, cutoff, keep); err != nil {
		return err
	}
	for {
		var n int
		var bytes int64
		if err := tx.QueryRow(`SELECT count(*), coalesce(sum(bytes),0) FROM results`).Scan(&n, &bytes); err != nil {
			return err
		}
		if n <= s.opts.MaxResults && bytes <= s.opts.MaxBytes {
			return nil
		}
		if err := dropWhere(tx, `SELECT id FROM results WHERE id <> ?1 ORDER BY whole DESC,
			(SELECT count(*) FROM results r2 WHERE r2.session = results.session AND r2.id <> ?1) DESC, used LIMIT 1`, keep); err != nil {
			return err
		}
	}
}

func dropWhere(tx *sql.Tx, query string, args ...any) error {
	rows, err := tx.Query(query, args...)
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if len(ids) == 0 && strings.Contains(query, "LIMIT 1") {
		return errors.New("result store: nothing left to evict")
	}
	for _, id := range ids {
		if _, err := tx.Exec(`DELETE FROM rows WHERE rid = ?`, id); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM results WHERE id = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

// Info returns a kept result's description and marks it used. A result
// kept for another owner is ErrUnknownResult, as an id never kept is.
func (s *Store) Info(ctx context.Context, id, owner string) (*KeptInfo, error) {
	var cols string
	var created int64
	k := &KeptInfo{ID: id}
	err := s.db.QueryRowContext(ctx, `SELECT columns, row_count, created FROM results WHERE id = ? AND owner = ?`, id, owner).Scan(&cols, &k.RowCount, &created)
	if errors.Is(err, sql.ErrNoRows) {
		// Another replica's result (shared.go)?
		if ok, ferr := s.fetchShared(ctx, id); ferr != nil {
			return nil, ferr
		} else if ok {
			err = s.db.QueryRowContext(ctx, `SELECT columns, row_count, created FROM results WHERE id = ? AND owner = ?`, id, owner).Scan(&cols, &k.RowCount, &created)
		}
	}
	if errors.Is(err, sql.ErrNoRows) || (err == nil && created < s.opts.Now().Add(-s.opts.TTL).UnixNano()) {
		return nil, ErrUnknownResult
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(cols), &k.Columns); err != nil {
		return nil, err
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE results SET used = ? WHERE id = ?`, s.opts.Now().UnixNano(), id); err != nil {
		return nil, err
	}
	return k, nil
}

// Each hands up to limit rows from offset (limit < 0: all) to f, one at
// a time, holding only the row f is given; f returns false to stop.
func (s *Store) Each(ctx context.Context, k *KeptInfo, offset, limit int, f func(row []any) (bool, error)) error {
	rows, err := s.db.QueryContext(ctx, `SELECT data FROM rows WHERE rid = ? AND idx >= ? ORDER BY idx LIMIT ?`, k.ID, offset, limit)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			return err
		}
		row, err := decodeRow(data, k.Columns)
		if err != nil {
			return err
		}
		more, err := f(row)
		if err != nil || !more {
			return err
		}
	}
	return rows.Err()
}

// decodeRow restores the result value types (int64, float64, string,
// bool, nil) of one encoded row.
func decodeRow(data string, cols []result.Column) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(data)))
	dec.UseNumber()
	var row []any
	if err := dec.Decode(&row); err != nil {
		return nil, fmt.Errorf("result store: %w", err)
	}
	for i, v := range row {
		n, ok := v.(json.Number)
		if !ok {
			continue
		}
		if i64, err := n.Int64(); err == nil && (i >= len(cols) || cols[i].Type != result.TypeReal) {
			row[i] = i64
		} else if f, err := n.Float64(); err == nil {
			row[i] = f
		}
	}
	return row, nil
}
