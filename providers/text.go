package providers

import (
	"strconv"
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

// ElideMiddle bounds s to about max bytes by cutting out its middle, at
// character boundaries, and marking the cut: "head…[N bytes elided]…tail".
// The head keeps two thirds of the bound, the tail one third, so that a
// long URL keeps its origin and path and the end of its query. Text of at
// most max bytes, or max <= 0, is returned as is. Callers redact secrets
// first: a secret cut in two would no longer be found.
func ElideMiddle(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	head := TruncateUTF8(s, max*2/3)
	t := len(s) - (max - len(head))
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	return head + "…[" + strconv.Itoa(len(s)-len(head)-(len(s)-t)) + " bytes elided]…" + s[t:]
}
