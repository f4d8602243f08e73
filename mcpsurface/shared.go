package mcpsurface

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers/sharedstate"
)

// SharedResults is a store of kept results shared by several replicas of
// the server (--state; providers/sharedstate/redisstate implements it), so that any
// replica answers fetch_result_page and engine://results/{id} for a result
// another one made. It bounds its bytes and expires each result after the
// store's TTL itself. With one set, Keep also writes the result there, and
// Info fetches an id this replica does not hold into its own store. A call
// that fails (each is bounded) leaves the replica on its own results; the
// store says so once (StoreOptions.Warnf), and once when it is back
// (docs/orgscale.md, "When Redis is down").
type SharedResults interface {
	sharedstate.Blobs
}

// MaxSharedResultBytes is the largest result (encoded rows) written to the
// shared store; a larger one stays on the replica that made it.
const MaxSharedResultBytes = 32 << 20

// sharedHeader is the first line of a shared result.
type sharedHeader struct {
	Columns  []result.Column `json:"columns"`
	RowCount int             `json:"row_count"`
	Created  int64           `json:"created"`
	Owner    string          `json:"owner,omitempty"` // the principal it is kept for (Info)
}

// A shared result is streamed in chunks, never held whole in memory
// (docs/mcp.md): the stream (its header line, then its rows as encoded)
// is written as values ID.0, ID.1, ... of at most SharedChunkBytes each,
// then ID itself, the manifest, which says how many there are. A reader
// reads the manifest, then one chunk at a time; a missing chunk (evicted
// by the store's bound) makes the result unknown here.

// SharedChunkBytes is the largest chunk of a shared result.
const SharedChunkBytes = 1 << 20

// sharedManifest is the value of a shared result's id.
type sharedManifest struct {
	Chunks int   `json:"chunks"`
	Bytes  int64 `json:"bytes"`
}

func chunkKey(id string, i int) string { return fmt.Sprintf("%s.%d", id, i) }

// share writes a kept result (its spool, rows as encoded) to the shared
// store, one chunk at a time.
func (s *Store) share(id string, sp *Spool, columns []result.Column, created int64) {
	if s.opts.Shared == nil || sp.bytes > MaxSharedResultBytes {
		return
	}
	head, err := json.Marshal(sharedHeader{Columns: columns, RowCount: sp.rows, Created: created, Owner: sp.Owner})
	if err != nil {
		return
	}
	if _, err := sp.f.Seek(0, io.SeekStart); err != nil {
		return
	}
	stream := io.MultiReader(bytes.NewReader(append(head, '\n')), sp.f)
	var total int64
	n := 0
	for {
		buf := make([]byte, SharedChunkBytes) // a store may keep what it is given
		k, err := io.ReadFull(stream, buf)
		if k > 0 {
			chunk := buf[:k]
			if s.shared.Do(context.Background(), int64(k), func(ctx context.Context) error {
				return s.opts.Shared.Put(ctx, chunkKey(id, n), chunk)
			}) != nil {
				return // said by s.shared
			}
			n++
			total += int64(k)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return
		}
	}
	m, _ := json.Marshal(sharedManifest{Chunks: n, Bytes: total})
	s.shared.Do(context.Background(), 0, func(ctx context.Context) error { //nolint:errcheck // said by s.shared
		return s.opts.Shared.Put(ctx, id, m)
	})
}

// chunks reads a shared result's chunks one at a time.
type chunks struct {
	s    *Store
	id   string
	n, i int
	cur  []byte
	err  error
}

func (c *chunks) Read(p []byte) (int, error) {
	for len(c.cur) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if c.i == c.n {
			return 0, io.EOF
		}
		var ok bool
		err := c.s.shared.Do(context.Background(), 0, func(ctx context.Context) (err error) {
			c.cur, ok, err = c.s.opts.Shared.Get(ctx, chunkKey(c.id, c.i))
			return err
		})
		if err == nil && !ok {
			err = fmt.Errorf("chunk %d of %d is gone", c.i, c.n)
		}
		if err != nil {
			c.err = err
			return 0, err
		}
		c.i++
	}
	k := copy(p, c.cur)
	c.cur = c.cur[k:]
	return k, nil
}

// fetchShared copies a result another replica kept into this store; ok is
// false when the shared store has no such result.
func (s *Store) fetchShared(ctx context.Context, id string) (bool, error) {
	if s.opts.Shared == nil || !validResultID(id) {
		return false, nil
	}
	var data []byte
	var ok bool
	err := s.shared.Do(context.Background(), 0, func(ctx context.Context) (err error) {
		data, ok, err = s.opts.Shared.Get(ctx, id)
		return err
	})
	if err != nil || !ok {
		return false, nil
	}
	var m sharedManifest
	if json.Unmarshal(data, &m) != nil || m.Chunks <= 0 || m.Bytes <= 0 {
		return false, nil
	}
	r := bufio.NewReaderSize(&chunks{s: s, id: id, n: m.Chunks}, 64<<10)
	line, err := readSpoolLine(r, nil)
	if err != nil {
		return false, nil
	}
	var h sharedHeader
	if json.Unmarshal(line, &h) != nil || h.RowCount < 0 {
		return false, nil
	}
	if h.Created < s.opts.Now().Add(-s.opts.TTL).UnixNano() {
		return false, nil
	}
	cols, _ := json.Marshal(h.Columns)
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback() //nolint:errcheck
	if _, err := tx.Exec(`INSERT OR IGNORE INTO results(id, columns, row_count, bytes, created, used, owner) VALUES(?,?,?,?,?,?,?)`, id, string(cols), h.RowCount, m.Bytes, h.Created, s.opts.Now().UnixNano(), h.Owner); err != nil {
		return false, err
	}
	one, err := tx.Prepare(`INSERT OR IGNORE INTO rows VALUES(?,?,?)`)
	if err != nil {
		return false, err
	}
	defer one.Close()
	for i := 0; i < h.RowCount; i++ {
		if line, err = readSpoolLine(r, line[:0]); err != nil {
			// A chunk evicted or unreadable: unknown here (the rows read
			// so far are rolled back).
			return false, nil
		}
		if _, err := one.Exec(id, i, string(line)); err != nil {
			return false, err
		}
	}
	if err := s.evict(tx, id); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// validResultID reports whether id has newID's form.
func validResultID(id string) bool { return sharedstate.ValidID(id, 18) }
