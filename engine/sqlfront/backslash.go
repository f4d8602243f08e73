package sqlfront

import (
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// Backslashes in strings. SQLite reads a backslash in a string as itself
// ('\d+' is three characters); MySQL's grammar, which vitess reads,
// takes it as an escape ('\d' is "d", '\'' a quote). So that what was
// validated is what runs, the text the vitess tokenizer and parser read
// has each backslash that stands inside a quoted string, by SQLite's
// reading of the statement, replaced by backslashMask: a byte of the
// same length, so every span the front end records holds for the
// user's text, which is what SQLite runs. The strings' values (tokens
// and the AST's literals) carry the backslash again. Quotes therefore
// end where SQLite ends them: 'a\' OR 1=1 is a string "a\" and an OR,
// to vitess as to SQLite. A backslash the masking does not reach (a
// text that already holds the mask byte) is refused as before
// (checkDialect).

// backslashMask stands for a backslash inside a string in the text
// vitess reads (SUB, a control character no statement needs).
const backslashMask = '\x1a'

// maskBackslashes returns text with each backslash inside a '...' or
// "..." run, as SQLite delimits them (after -- and /* */ comments and
// `...` and [...] names), replaced by backslashMask; text itself when it
// has no backslash or already holds the mask byte.
func maskBackslashes(text string) string {
	if !strings.Contains(text, `\`) || strings.IndexByte(text, backslashMask) >= 0 {
		return text
	}
	b := []byte(text)
	skipTo := func(i int, end string) int { // past end, or to the text's end
		if j := strings.Index(text[i:], end); j >= 0 {
			return i + j + len(end)
		}
		return len(b)
	}
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '-' && strings.HasPrefix(text[i:], "--"):
			i = skipTo(i+2, "\n")
		case c == '/' && strings.HasPrefix(text[i:], "/*"):
			i = skipTo(i+2, "*/")
		case c == '`':
			i = skipTo(i+1, "`") // a doubled `` reads as two names here, as one there: no backslash is masked either way
		case c == '[':
			i = skipTo(i+1, "]")
		case c == '\'' || c == '"':
			j := i + 1
			for ; j < len(b); j++ {
				if b[j] == c {
					if j+1 < len(b) && b[j+1] == c {
						j++ // a doubled quote stays inside
						continue
					}
					break
				}
				if b[j] == '\\' {
					b[j] = backslashMask
				}
			}
			i = j + 1
		default:
			i++
		}
	}
	return string(b)
}

// unmask puts the backslashes back in a value read from masked text.
func unmask(s string) string {
	if strings.IndexByte(s, backslashMask) < 0 {
		return s
	}
	return strings.ReplaceAll(s, string(rune(backslashMask)), `\`)
}

// unmaskLiterals puts the backslashes back in the AST's string values.
func unmaskLiterals(st sqlparser.SQLNode) {
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if v, ok := node.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal && strings.IndexByte(string(v.Val), backslashMask) >= 0 {
			v.Val = []byte(unmask(string(v.Val)))
		}
		return true, nil
	}, st)
}
