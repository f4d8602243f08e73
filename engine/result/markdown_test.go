package result

import (
	"bytes"
	"strings"
	"testing"
)

// TestMarkdown: a GitHub-flavoured table whose cells cannot break out:
// | and \ are escaped, newlines and terminal escapes are Sanitized, NULL
// is NULL, numbers align right; streamed and held renderings agree.
func TestMarkdown(t *testing.T) {
	r := &Result{
		Columns: []Column{{Name: "name|x", Type: TypeText}, {Name: "n", Type: TypeInteger}, {Name: "note", Type: TypeText}},
		Rows: [][]any{
			{"a|b", int64(1), "two\nlines"},
			{`back\|slash`, nil, "\x1b[2Jclear"},
		},
	}
	want := "| name\\|x | n | note |\n" +
		"| --- | ---: | --- |\n" +
		"| a\\|b | 1 | two\\nlines |\n" +
		"| back\\\\\\|slash | NULL | \\x1b[2Jclear |\n"
	var b bytes.Buffer
	if err := Write(&b, r, "markdown", 0); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if n := strings.Count(strings.ReplaceAll(line, `\\`, ""), "|") - strings.Count(strings.ReplaceAll(line, `\\`, ""), `\|`); n != 4 {
			t.Fatalf("line %q has %d cell borders, want 4", line, n)
		}
	}
	b.Reset()
	s, err := NewStream(&b, "markdown", 80)
	if err != nil {
		t.Fatal(err)
	}
	s.Begin(r.Columns)
	for _, row := range r.Rows {
		s.Row(row)
	}
	if err := s.End(); err != nil || b.String() != want {
		t.Fatalf("streamed: %v\n%s", err, b.String())
	}
	f, err := LookupFormat("markdown")
	if err != nil || f.Exact || !strings.HasPrefix(f.MIMEType, "text/markdown") || !strings.HasSuffix(FormatNames(", "), ", markdown") {
		t.Fatalf("registry: %+v %v %s", f, err, FormatNames(", "))
	}
	// No columns: nothing (a Markdown table needs a column).
	b.Reset()
	if err := Write(&b, &Result{}, "markdown", 0); err != nil || b.Len() != 0 {
		t.Fatalf("no columns: %v %q", err, b.String())
	}
}

// TestSpreadsheetSafe: numbers are not text and keep their sign (text's
// quote: TestInertText).
func TestSpreadsheetSafe(t *testing.T) {
	if safeCell(nil, 0, int64(-5), true) != "-5" || safeCell(nil, 0, -2.5, true) != "-2.5" || safeCell(nil, 0, "-5", true) != "'-5" || safeCell(nil, 0, "-5", false) != "-5" {
		t.Error("numbers must keep their sign, text gets the quote")
	}
}
