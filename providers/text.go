package providers

import (
	"strings"
	"unicode/utf8"
)

// OneLine puts provider text (an error message, a title) on one line:
// every whitespace run becomes one space, and text longer than max bytes
// is cut at a character boundary and marked "...". max <= 0: no limit.
func OneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if max > 0 && len(s) > max {
		s = TruncateUTF8(s, max) + "..."
	}
	return s
}

// TruncateUTF8 cuts s to at most n bytes without splitting a character.
func TruncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
