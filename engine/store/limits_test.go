package store

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestValueLimit: SetMaxValueBytes bounds a value SQLite makes and a
// result row, with a LimitError of kind sql naming the setting.
func TestValueLimit(t *testing.T) {
	ctx := context.Background()
	open := func() *Store { // one store per statement, as the executor uses them
		st, err := Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		if err := st.SetMaxValueBytes(1000); err != nil {
			t.Fatal(err)
		}
		return st
	}
	for _, q := range []string{"SELECT hex(zeroblob(600))", "SELECT hex(zeroblob(300)) AS a, hex(zeroblob(300)) AS b"} {
		_, err := open().Query(ctx, q)
		var le *LimitError
		if !errors.As(err, &le) || le.ErrorKind() != "sql" || le.ErrorSetting() != SettingMaxValueBytes || !strings.Contains(err.Error(), "1000 bytes") {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if r, err := open().Query(ctx, "SELECT hex(zeroblob(400)) AS a"); err != nil || len(r.Rows) != 1 {
		t.Fatalf("%v", err)
	}
}
