package result

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestInertText: what data text becomes in output. Sanitize shows
// terminal escapes, other controls, bidi marks and bad UTF-8 as escapes;
// SanitizeText keeps line breaks and tabs; MarkdownText makes HTML, links,
// images, mentions and issue references inert, and the text still reads
// the same; SpreadsheetSafe quotes OWASP's leading characters.
func TestInertText(t *testing.T) {
	inert(t, "SanitizeText", SanitizeText, map[string]string{"line 1\n\tline 2\r\x1b[2J": "line 1\n\tline 2\\r\\x1b[2J"})
	inert(t, "SpreadsheetSafe", SpreadsheetSafe, map[string]string{"=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@x": "'@x", "\tx": "'\tx", "\rx": "'\rx", "a=b": "a=b", "": ""})
	inert(t, "Sanitize", Sanitize, map[string]string{
		"plain text, é ✓":             "plain text, é ✓",
		"a\nb\r\tc":                   `a\nb\r\tc`,
		"\x1b]0;T\x07\x1b[2J":         `\x1b]0;T\x07\x1b[2J`,
		"del\x7f c1\u009b31m":         `del\x7f c1\u009b31m`,
		"bidi \u202eevil\u2066":       `bidi \u202eevil\u2066`,
		"bad \xff\xfe utf8":           `bad \xff\xfe utf8`,
		`back\slash \x1b stays as is`: `back\slash \x1b stays as is`,
	})
	inert(t, "MarkdownText", MarkdownText, map[string]string{
		`<img src="x">`:           `&lt;img src="x"&gt;`,
		`![a](http://b)`:          `![a\](http://b)`,
		`[a][r]`:                  `[a\][r\]`,
		`@team and a@b.c`:         `@&#8203;team and a@&#8203;b.c`,
		`fix #12, not #x`:         `fix #&#8203;12, not #x`,
		"<!-- x\n|y\\":            `&lt;!-- x\n\|y\\`,
		`&#64;`:                   `&amp;#&#8203;64;`,
		"plain text, 100% *bold*": "plain text, 100% *bold*",
	})
}

// inert compares f, named name, of each input in cases with its value.
func inert(t *testing.T, name string, f func(string) string, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%q) = %q, want %q", name, in, got, want)
		}
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
