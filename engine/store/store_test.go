package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/enginehq/engine/providers"
)

// TestTempFileUnlinkedWhileInUse: the database file is gone from TMPDIR
// as soon as Open returns, and the store still takes and answers far more
// rows than its page cache holds.
func TestTempFileUnlinkedWhileInUse(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx := context.Background()
	s, err := Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("TMPDIR holds %v while the store is open", entries)
	}
	tb, err := s.CreateTable(ctx, "t", []providers.Column{{Name: "id", Type: "integer"}, {Name: "body", Type: "string"}})
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("x", 500)
	const n = 150_000 // ~75 MB of rows, past the 16 MiB page cache
	for i := 0; i < n; i++ {
		if err := tb.Insert(ctx, map[string]any{"id": i, "body": pad}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.Commit(); err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(ctx, `SELECT count(*), sum(id) FROM t`)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Rows[0][0]; got != int64(n) {
		t.Fatalf("count %v, want %d", got, n)
	}
	if m, _ := filepath.Glob(filepath.Join(tmp, "*")); len(m) != 0 {
		t.Fatalf("TMPDIR holds %v", m)
	}
}

// TestKeyOrdersRows: rows inserted out of order with Key read back in key
// order by a plain scan, also when a column is named rowid (the key then
// goes through another name of the rowid), and rows without a Key append.
func TestKeyOrdersRows(t *testing.T) {
	ctx := context.Background()
	for _, col := range []string{"name", "rowid"} {
		t.Run(col, func(t *testing.T) {
			s, err := Open(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tb, err := s.CreateTable(ctx, "t", []providers.Column{{Name: col, Type: "string"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []struct {
				key int64
				v   string
			}{{1<<32 | 1, "c"}, {1, "a"}, {2<<32 | 1, "d"}, {2, "b"}, {0, "e"}} {
				tb.Key = r.key
				if err := tb.Insert(ctx, map[string]any{col: r.v}, nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := tb.Commit(); err != nil {
				t.Fatal(err)
			}
			res, err := s.Query(ctx, `SELECT group_concat("`+col+`", '') FROM (SELECT * FROM t)`)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Rows[0][0]; got != "abcde" {
				t.Fatalf("rows in order %v, want abcde", got)
			}
		})
	}
}
