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
	pad := strings.Repeat("x", 4000)
	const n = 20_000 // ~80 MB of rows, past the 16 MiB page cache (few rows: the cost is per row)
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

// TestKeyOrdersRows: rows of parts inserted out of order read back in part
// order by a plain scan, also when a column is named rowid (the key then
// goes through another name of the rowid), and rows outside parts append.
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
			parts := []*Part{tb.Part(0), tb.Part(1), tb.Part(2)}
			for _, r := range []struct {
				part int
				v    string
			}{{1, "c"}, {0, "a"}, {2, "d"}, {0, "b"}} {
				if err := parts[r.part].Insert(ctx, map[string]any{col: r.v}, nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := tb.Insert(ctx, map[string]any{col: "e"}, nil); err != nil {
				t.Fatal(err)
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

// TestValuesKeepTheirJSONType: a JSON column holds valid JSON for every
// value (strings with their quotes), so json_extract into a string is
// NULL, not an error, and a string that looks like JSON stays a string;
// booleans keep their type outside BOOLEAN columns; an integer beyond 64
// bits keeps its digits.
func TestValuesKeepTheirJSONType(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cols := []providers.Column{{Name: "j", Type: providers.TypeJSON}, {Name: "t", Type: providers.TypeText},
		{Name: "i", Type: providers.TypeInteger}, {Name: "r", Type: providers.TypeReal}}
	tb, err := s.CreateTable(ctx, "x", cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range []string{
		`{"j": "cus_1", "t": true, "i": 123456789012345678901234567890, "r": 18446744073709551616}`,
		`{"j": {"email": "a@example.com"}, "t": "x", "i": 7, "r": 1.5}`,
		`{"j": "42", "t": false}`, `{"j": "null"}`, `{"j": true}`, `{"j": 12345678901234567890123}`, `{"j": null}`,
		`{"j": "{\"a\": 1}"}`,
	} {
		if err := tb.InsertJSON(ctx, []byte(item), nil); err != nil {
			t.Fatalf("%s: %v", item, err)
		}
	}
	if err := tb.Commit(); err != nil {
		t.Fatal(err)
	}
	res, err := s.Query(ctx, `SELECT j, json_extract(j, '$.email'), json_type(j), t, i, r FROM x`)
	if err != nil {
		t.Fatalf("json_extract over a JSON column: %v", err)
	}
	want := [][]any{
		{`"cus_1"`, nil, "text", "true", "123456789012345678901234567890", "18446744073709551616"},
		{`{"email": "a@example.com"}`, "a@example.com", "object", "x", int64(7), 1.5},
		{`"42"`, nil, "text", "false", nil, nil},
		{`"null"`, nil, "text", nil, nil, nil},
		{`true`, nil, "true", nil, nil, nil},
		{`12345678901234567890123`, nil, "integer", nil, nil, nil},
		{nil, nil, nil, nil, nil, nil},
		{`"{\"a\": 1}"`, nil, "text", nil, nil, nil},
	}
	for i, row := range res.Rows {
		for j := range row {
			if row[j] != want[i][j] {
				t.Errorf("row %d column %s: %#v, want %#v", i, res.Columns[j].Name, row[j], want[i][j])
			}
		}
	}
}
