package result

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestStreamTableSizesFromHeldRows: the table sizes its columns from the
// rows it holds (TableBufferRows); a later, wider cell is cut with "…" so
// that every line keeps the table's width, and the output of a held
// result is that of WriteTable.
func TestStreamTableSizesFromHeldRows(t *testing.T) {
	cols := []Column{{Name: "n", Type: ""}, {Name: "s", Type: TypeText}}
	var b bytes.Buffer
	st, err := NewStream(&b, "table", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Begin(cols); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < TableBufferRows+5; i++ {
		s := "ab"
		if i == TableBufferRows+2 {
			s = "a much wider cell"
		}
		if err := st.Row([]any{int64(i), s}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.End(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != TableBufferRows+5+4 || st.Rows() != TableBufferRows+5 {
		t.Fatalf("%d lines, %d rows", len(lines), st.Rows())
	}
	for _, l := range lines {
		if utf8.RuneCountInString(l) != utf8.RuneCountInString(lines[0]) {
			t.Fatalf("line %q is not as wide as %q", l, lines[0])
		}
	}
	if want := "|   0 | ab |"; lines[3] != want { // numeric column (typed by its values) aligned right
		t.Fatalf("first row %q, want %q", lines[3], want)
	}
	if want := "| 10… | a… |"; lines[3+TableBufferRows+2] != want {
		t.Fatalf("wide row %q, want %q", lines[3+TableBufferRows+2], want)
	}

	// A held result renders as WriteTable does.
	rows := [][]any{{int64(1), "x"}, {nil, "yy"}}
	var w1, w2 bytes.Buffer
	typed := []Column{{Name: "n", Type: TypeInteger}, {Name: "s", Type: TypeText}}
	if err := WriteTable(&w1, &Result{Columns: typed, Rows: rows}, 0); err != nil {
		t.Fatal(err)
	}
	if err := writeAll(&w2, &Result{Columns: typed, Rows: rows}, "table", 0); err != nil {
		t.Fatal(err)
	}
	if w1.String() != w2.String() {
		t.Fatalf("stream:\n%s\nWriteTable:\n%s", w2.String(), w1.String())
	}
}

// TestAppendJSONAsMarshal: the JSON writer's fast paths write what
// json.Marshal(JSONValue(...)) writes, for every kind of value.
func TestAppendJSONAsMarshal(t *testing.T) {
	vals := []any{nil, int64(0), int64(-9223372036854775808), 1.5, 1e21, 1e-7, true, false,
		"", "plain", `quote " and \ slash`, "tab\tnew\nline", "<b>&amp;</b>", "é ü 日本", "\u2028", "bad \xff utf8", "\x7f",
		`{"a": [1, 2,  3], "b": {"c": null}}`, `{"h": "<x>"}`, `[1, "\u2028"]`, `{"broken": `, `"just a string"`, ` 42 `}
	for _, typ := range []string{TypeText, TypeJSON, TypeInteger, ""} {
		col := Column{Name: "c", Type: typ}
		for _, v := range vals {
			want, err := json.Marshal(JSONValue(col, v))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := appendJSON(&b, col, v); err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("%s %#v: %s, want %s", typ, v, b.String(), want)
			}
		}
	}
}

// TestStreamOverflow: a table that cannot be fitted to its width (every
// column at its narrowest, 8) reports its width; one that fits, one
// without a width and the other formats report 0.
func TestStreamOverflow(t *testing.T) {
	cols := make([]Column, 12)
	row := make([]any, len(cols))
	for i := range cols {
		cols[i] = Column{Name: strings.Repeat("c", 20) + string(rune('a'+i)), Type: TypeText}
		row[i] = strings.Repeat("v", 30)
	}
	render := func(format string, width int, cols []Column, row []any) int {
		t.Helper()
		var b bytes.Buffer
		st, err := NewStream(&b, format, width)
		if err != nil {
			t.Fatal(err)
		}
		if st.Begin(cols) != nil || st.Row(row) != nil || st.End() != nil {
			t.Fatal("render failed")
		}
		if o := st.Overflow(); o > 0 {
			if line := strings.SplitN(b.String(), "\n", 2)[0]; utf8.RuneCountInString(line) != o {
				t.Errorf("overflow %d, the table's first line is %d wide", o, utf8.RuneCountInString(line))
			}
		}
		return st.Overflow()
	}
	if o := render("table", 80, cols, row); o != 12*11+1 {
		t.Errorf("12 columns of at least 8 in 80: overflow %d, want %d", o, 12*11+1)
	}
	if o := render("table", 80, cols[:3], row[:3]); o != 0 {
		t.Errorf("3 columns narrowed to fit 80: overflow %d", o)
	}
	if o := render("table", 0, cols, row); o != 0 {
		t.Errorf("no width: overflow %d", o)
	}
	if o := render("line", 80, cols, row); o != 0 {
		t.Errorf("line format: overflow %d", o)
	}
}

// TestLineShowsNull: the line format shows NULL as NULL, an empty string
// as nothing.
func TestLineShowsNull(t *testing.T) {
	var b bytes.Buffer
	st, _ := NewStream(&b, "line", 0)
	if st.Begin([]Column{{Name: "n", Type: TypeText}, {Name: "e", Type: TypeText}}) != nil || st.Row([]any{nil, ""}) != nil || st.End() != nil {
		t.Fatal("render failed")
	}
	if b.String() != "n = NULL\ne = \n" {
		t.Errorf("got %q", b.String())
	}
}
