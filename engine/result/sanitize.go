package result

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Human-facing output (tables, -o line, the shell, error text, check
// reports) must be inert on a terminal: values come from APIs, and a value
// such as "\x1b]0;TITLE\x07\x1b[2J" would retitle or clear the terminal,
// and a raw newline could forge lines of output. Sanitize and SanitizeText
// show every control character as a visible escape instead, as the GitHub
// CLI does for API data. Machine formats (json, csv, tsv) keep values
// exact and do not use them.

// Sanitize makes s one inert line: newline, carriage return and tab
// become \n, \r and \t; other C0 controls, DEL and C1 controls
// (U+0080-U+009F) become \xNN or \u00NN; the bidirectional-text overrides
// (U+202A-U+202E, U+2066-U+2069) become \uNNNN; bytes that are not UTF-8
// become \xNN. Everything else, backslashes included, is unchanged.
func Sanitize(s string) string { return sanitize(s, false) }

// SanitizeText is Sanitize for multi-line text such as error messages: it
// keeps newlines and tabs and escapes everything else Sanitize does
// (carriage returns too, which could overwrite a line).
func SanitizeText(s string) string { return sanitize(s, true) }

func sanitize(s string, keepLines bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// MapText replaces, in place, every column name and every text value
// (string or []byte) of r with f of it. The engine uses it to scrub
// credentials that an API echoed into data.
func (r *Result) MapText(f func(string) string) {
	for i := range r.Columns {
		r.Columns[i].Name = f(r.Columns[i].Name)
	}
	for _, row := range r.Rows {
		MapRowText(row, f)
	}
}

// MapRowText replaces, in place, each text value of row with f of it.
func MapRowText(row []any, f func(string) string) {
	for j, v := range row {
		switch x := v.(type) {
		case string:
			if y := f(x); y != x {
				row[j] = y
			}
		case []byte:
			if y := f(string(x)); y != string(x) {
				row[j] = []byte(y)
			}
		}
	}
}
