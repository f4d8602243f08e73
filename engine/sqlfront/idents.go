package sqlfront

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Identifiers the parser reads only in backticks: names that are not
// plain words (api-version, 2fa, full name) and reserved words of the
// dialect (key, ssl, order). Whether a word is reserved is asked of the
// parser itself, not of a list.

var (
	plainWord = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	reserved  sync.Map // lower-cased word -> bool
)

// NeedsBackticks reports whether name must be written `name` in a
// statement: it is not a plain word, or the parser reserves it.
func NeedsBackticks(name string) bool {
	if !plainWord.MatchString(name) {
		return true
	}
	l := strings.ToLower(name)
	if v, ok := reserved.Load(l); ok {
		return v.(bool)
	}
	_, err := parseSQL("SELECT " + name + " FROM t WHERE " + name + " = 1")
	reserved.Store(l, err != nil)
	return err != nil
}

// Ident writes name as the statement must: in backticks when
// NeedsBackticks, else as is.
func Ident(name string) string {
	if NeedsBackticks(name) {
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return name
}

var (
	errPos   = regexp.MustCompile(`at position ([0-9]+)`)
	wordSpan = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
)

// reservedHint explains a syntax error caused by a reserved word used as
// a name (SELECT ssl, WHERE key = ...): the word next to the error that,
// written in backticks, makes the statement parse; "" when none does.
func reservedHint(text, msg string) string {
	m := errPos.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	pos, err := strconv.Atoi(m[1])
	if err != nil {
		return ""
	}
	var cands [][]int
	for _, w := range wordSpan.FindAllStringIndex(text, -1) {
		if w[0] > pos {
			break
		}
		if w[0] > 0 && (text[w[0]-1] == '`' || text[w[0]-1] == '.' || text[w[0]-1] == '\'' || text[w[0]-1] == '"') {
			continue
		}
		cands = append(cands, w)
	}
	for i := len(cands) - 1; i >= 0 && i >= len(cands)-3; i-- {
		w := cands[i]
		word := text[w[0]:w[1]]
		if _, err := parseSQL(text[:w[0]] + "`" + word + "`" + text[w[1]:]); err == nil {
			return fmt.Sprintf(" (%s is a reserved word of the SQL dialect: write it in backticks, `%s`)", word, word)
		}
	}
	return ""
}
