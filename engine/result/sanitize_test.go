package result

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, é ✓":             "plain text, é ✓",
		"a\nb\r\tc":                   `a\nb\r\tc`,
		"\x1b]0;T\x07\x1b[2J":         `\x1b]0;T\x07\x1b[2J`,
		"del\x7f c1\u009b31m":         `del\x7f c1\u009b31m`,
		"bidi \u202eevil\u2066":       `bidi \u202eevil\u2066`,
		"bad \xff\xfe utf8":           `bad \xff\xfe utf8`,
		`back\slash \x1b stays as is`: `back\slash \x1b stays as is`,
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := SanitizeText("line 1\n\tline 2\r\x1b[2J"); got != "line 1\n\tline 2\\r\\x1b[2J" {
		t.Errorf("SanitizeText: %q", got)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\x1b]0;T\x07", "\u009b\u202e\xff", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Sanitize(s), SanitizeText(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
			}
			for _, r := range out {
				if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
					t.Fatalf("control %U left in %q (from %q)", r, out, s)
				}
			}
		}
		if strings.ContainsAny(Sanitize(s), "\n\t") {
			t.Fatalf("Sanitize left a line break or tab: %q", s)
		}
	})
}

func TestTableAndLinesInert(t *testing.T) {
	r := &Result{Columns: []Column{{Name: "n\x1b[1m", Type: TypeText}, {Name: "d", Type: TypeText}},
		Rows: [][]any{{"x", "v\nn = forged\x1b]0;T\x07"}}}
	for _, f := range []string{"table", "line"} {
		var b bytes.Buffer
		if err := Write(&b, r, f, 0); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "\nn = forged") || !strings.Contains(out, `v\nn = forged\x1b]0;T\x07`) {
			t.Errorf("%s:\n%s", f, out)
		}
	}
}
