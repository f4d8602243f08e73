package mcpsurface

import (
	"fmt"
	"strings"
	"testing"

	"github.com/enginehq/engine/engine/result"
)

func TestColStats(t *testing.T) {
	cols := []result.Column{{Name: "id", Type: "INTEGER"}, {Name: "score", Type: "REAL"}, {Name: "at", Type: "TEXT"}, {Name: "name", Type: "TEXT"}, {Name: "ok", Type: "BOOLEAN"}}
	cs := newColStats()
	for i := 0; i < 1500; i++ {
		var at any = fmt.Sprintf("2024-01-%02dT00:00:00Z", 1+i%28)
		if i%10 == 0 {
			at = nil
		}
		cs.add([]any{int64(i - 5), float64(i % 3), at, fmt.Sprintf("n%d", i%7), i%2 == 0})
	}
	cs.add([]any{nil, 1.0, "2023-12-31", "not a date", nil}) // 1.0 is not a new value of score
	st := cs.result(cols)
	want := []string{
		"{id 1 1000 true -5 1494}",
		"{score 0 3 false 0 2}",
		"{at 150 29 false 2023-12-31 2024-01-28T00:00:00Z}",
		"{name 0 8 false <nil> <nil>}",
		"{ok 1 2 false <nil> <nil>}",
	}
	for i, s := range st {
		if got := fmt.Sprint(s); got != want[i] {
			t.Errorf("column %d: %s, want %s", i, got, want[i])
		}
	}
	if line := statsLine(st, 1501); line != "column stats over all 1501 rows: id 1 null, 1000+ distinct, -5..1494; score 3 distinct, 0..2; at 150 null, 29 distinct, 2023-12-31..2024-01-28T00:00:00Z; name 8 distinct; ok 1 null, 2 distinct" {
		t.Errorf("line: %s", line)
	}
}

// BenchmarkColStats prints the cost of the statistics per row of five
// columns (they are taken while rows stream, for every row).
func BenchmarkColStats(b *testing.B) {
	cs := newColStats()
	rows := make([][]any, 1000)
	for i := range rows {
		rows[i] = []any{int64(i), fmt.Sprintf("repo-%07d", i), "2020-01-01T00:00:00Z", int64(i % 500), i%2 == 0}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cs.add(rows[i%len(rows)])
	}
}

func TestTokensEstimatedPastTheBound(t *testing.T) {
	small := "name\tprivate\nrepo-001\ttrue\n"
	if n, exact := Tokens(small); !exact || n < 5 || n > 20 {
		t.Fatalf("Tokens(%q) = %d, %t", small, n, exact)
	}
	big := strings.Repeat(small, 2*exactTokenBytes/len(small))
	n, exact := Tokens(big)
	one, _ := Tokens(small)
	if want := one * 2 * exactTokenBytes / len(small); exact || n < want*9/10 || n > want*11/10 {
		t.Fatalf("Tokens of %d bytes = %d (exact %t), want about %d", len(big), n, exact, want)
	}
	if f := tokenField(big); !strings.HasSuffix(f, " (estimated)") {
		t.Fatalf("tokenField: %q", f)
	}
}

// A wide result's statistics line names at most statsLineColumns
// columns that say more than "distinct in every row" and counts the
// others; a narrow one names every column.
func TestStatsLineOfAWideResult(t *testing.T) {
	var st []columnStats
	for i := range 30 {
		st = append(st, columnStats{Name: fmt.Sprintf("url%d", i), Distinct: 10}) // distinct in every row
	}
	for i := range 15 {
		st = append(st, columnStats{Name: fmt.Sprintf("flag%d", i), Distinct: 2})
	}
	line := statsLine(st, 10)
	if strings.Contains(line, "url") || strings.Count(line, "flag") != statsLineColumns ||
		!strings.HasSuffix(line, "; 30 more columns with a distinct value in every row; 3 more columns (column_stats has every column)") {
		t.Fatalf("wide: %q", line)
	}
	if narrow := statsLine(st[:3], 10); narrow != "column stats over all 10 rows: url0 10 distinct; url1 10 distinct; url2 10 distinct" {
		t.Fatalf("narrow: %q", narrow)
	}
}
