package pg

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/enginehq/engine/engine/result"
)

// The statement text a Postgres client sends is read here by a small
// lexer that knows what Postgres and SQLite agree on: quoted strings
// ('...', with '' inside and E'...' escapes), quoted identifiers
// ("..."), comments (-- and /* */), and the rest as words, numbers and
// punctuation. It does three things, each by token and never by
// searching the raw text: split a simple Query message into its
// statements, replace $N parameters with SQL literals, and qualify
// two-part table names with the connection's database (the provider).

type tokKind int

const (
	tokSpace tokKind = iota
	tokComment
	tokString // '...' (E'...' included)
	tokQuoted // "..." or `...`
	tokWord   // identifier or keyword
	tokNumber
	tokParam // $N
	tokPunct
)

type token struct {
	kind tokKind
	text string
}

// word is the token's identifier in lower case ("" for other tokens); a
// quoted identifier counts with its quotes removed.
func (t token) word() string {
	switch t.kind {
	case tokWord:
		return strings.ToLower(t.text)
	case tokQuoted:
		return strings.ReplaceAll(t.text[1:len(t.text)-1], `""`, `"`)
	}
	return ""
}

// lex splits text into tokens; an unterminated string, identifier or
// comment runs to the end (the engine's parser names the mistake).
func lex(text string) []token {
	var out []token
	i := 0
	for i < len(text) {
		c := text[i]
		start := i
		var k tokKind
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			for i < len(text) && strings.IndexByte(" \t\n\r\f", text[i]) >= 0 {
				i++
			}
			k = tokSpace
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			k = tokComment
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				i = len(text)
			} else {
				i += 2 + end + 2
			}
			k = tokComment
		case c == '\'' || ((c == 'E' || c == 'e') && i+1 < len(text) && text[i+1] == '\''):
			escapes := c != '\''
			if escapes {
				i++
			}
			i++
			for i < len(text) {
				if escapes && text[i] == '\\' && i+1 < len(text) {
					i += 2
					continue
				}
				if text[i] == '\'' {
					if i+1 < len(text) && text[i+1] == '\'' {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
			k = tokString
		case c == '"' || c == '`':
			i++
			for i < len(text) {
				if text[i] == c {
					if i+1 < len(text) && text[i+1] == c {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
			k = tokQuoted
		case c == '$' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9':
			i++
			for i < len(text) && text[i] >= '0' && text[i] <= '9' {
				i++
			}
			k = tokParam
		case isWordStart(c):
			for i < len(text) && isWordByte(text[i]) {
				i++
			}
			k = tokWord
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9'):
			for i < len(text) && (isWordByte(text[i]) || text[i] == '.') {
				i++
			}
			k = tokNumber
		case c == ':' && i+1 < len(text) && text[i+1] == ':':
			i += 2
			k = tokPunct
		case c == '!' && i+1 < len(text) && text[i+1] == '~':
			i += 2
			if i < len(text) && text[i] == '*' {
				i++
			}
			k = tokPunct
		case c == '~':
			i++
			if i < len(text) && text[i] == '*' {
				i++
			}
			k = tokPunct
		default:
			i++
			k = tokPunct
		}
		out = append(out, token{kind: k, text: text[start:i]})
	}
	return out
}

func isWordStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isWordByte(c byte) bool { return isWordStart(c) || c >= '0' && c <= '9' || c == '$' }

// significant drops spaces and comments.
func significant(toks []token) []token {
	out := make([]token, 0, len(toks))
	for _, t := range toks {
		if t.kind != tokSpace && t.kind != tokComment {
			out = append(out, t)
		}
	}
	return out
}

func join(toks []token) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.text)
	}
	return b.String()
}

// splitStatements splits a simple Query message at its semicolons; empty
// statements (only spaces and comments) are dropped.
func splitStatements(text string) []string {
	var out []string
	var cur []token
	flush := func() {
		if len(significant(cur)) > 0 {
			out = append(out, strings.TrimSpace(join(cur)))
		}
		cur = nil
	}
	for _, t := range lex(text) {
		if t.kind == tokPunct && t.text == ";" {
			flush()
			continue
		}
		cur = append(cur, t)
	}
	flush()
	return out
}

// maxParam is the highest $N of text (0: none).
func maxParam(text string) int {
	n := 0
	for _, t := range lex(text) {
		if t.kind == tokParam {
			if v, err := strconv.Atoi(t.text[1:]); err == nil && v > n {
				n = v
			}
		}
	}
	return n
}

// param is one bound parameter value: nil is NULL; the others are
// int64, float64, bool or string.
type param = any

// bindParams writes each $N of text as the SQL literal of params[N-1]. A
// string that follows LIMIT or OFFSET and reads as an integer is written
// as that integer (a client that sends every parameter as text, psql's
// \bind, means a number there).
func bindParams(text string, params []param) (string, error) {
	toks := lex(text)
	var b strings.Builder
	prev := ""
	for _, t := range toks {
		if t.kind == tokParam {
			n, err := strconv.Atoi(t.text[1:])
			if err != nil || n < 1 || n > len(params) {
				return "", fmt.Errorf("there is no parameter %s: the statement was bound with %d", t.text, len(params))
			}
			b.WriteString(literal(params[n-1], prev == "limit" || prev == "offset"))
		} else {
			b.WriteString(t.text)
		}
		if t.kind != tokSpace && t.kind != tokComment {
			prev = strings.ToLower(t.text)
		}
	}
	return b.String(), nil
}

// literal is v as a SQL literal that SQLite and the engine's front end
// read the same way.
func literal(v param, number bool) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case int64, float64:
		return result.Text(v)
	case bool:
		if v {
			return "TRUE"
		}
		return "FALSE"
	case string:
		if number {
			if _, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return strings.TrimSpace(v)
			}
		}
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	}
	return "NULL"
}

// fromEnd are the words that end a FROM list (ON and USING do not: a
// comma after a join condition goes on with the list).
var fromEnd = map[string]bool{"where": true, "group": true, "order": true, "limit": true, "offset": true, "having": true, "union": true, "except": true, "intersect": true, "window": true, "select": true}

// qualify rewrites the two-part table names of a FROM list (service.table,
// as a Postgres client writes schema.table) to the engine's three-part
// names, with the connection's database as the provider, when isTable says
// the service has that table. Names of one or three parts are left alone.
func qualify(text, database string, isTable func(service, table string) bool) string {
	toks := lex(text)
	type frame struct{ inFrom bool }
	stack := []frame{{}}
	var out strings.Builder
	prevSig, first := "", ""
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		top := &stack[len(stack)-1]
		switch {
		case t.kind == tokPunct && t.text == "(":
			stack = append(stack, frame{})
		case t.kind == tokPunct && t.text == ")":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case t.kind == tokWord:
			w := strings.ToLower(t.text)
			if w == "from" || w == "join" {
				top.inFrom = true
			} else if fromEnd[w] {
				top.inFrom = false
			}
		}
		// where a table name stands: FROM and JOIN lists, DESCRIBE, and
		// SHOW ... IN (a service or a table)
		showIn := first == "show" && prevSig == "in"
		afterFromWord := prevSig == "from" || prevSig == "join" || (prevSig == "," && top.inFrom) ||
			((first == "describe" || first == "desc") && (prevSig == "describe" || prevSig == "desc")) || showIn
		if afterFromWord && (t.kind == tokWord || t.kind == tokQuoted) {
			// a.b, and not a.b.c
			if i+2 < len(toks) && toks[i+1].text == "." && (toks[i+2].kind == tokWord || toks[i+2].kind == tokQuoted) &&
				(i+3 >= len(toks) || toks[i+3].text != ".") {
				if isTable(t.word(), toks[i+2].word()) {
					out.WriteString(database + ".")
				}
			} else if showIn && (i+1 >= len(toks) || toks[i+1].text != ".") && isTable(t.word(), "") {
				out.WriteString(database + ".") // SHOW TABLES IN repos: the service
			}
		}
		out.WriteString(t.text)
		if t.kind != tokSpace && t.kind != tokComment {
			prevSig = strings.ToLower(t.text)
			if first == "" {
				first = prevSig
			}
		}
	}
	return out.String()
}

// firstWords are the first n words of a statement in lower case.
func firstWords(text string, n int) []string {
	var out []string
	for _, t := range significant(lex(text)) {
		if len(out) == n {
			break
		}
		if t.kind != tokWord {
			break
		}
		out = append(out, strings.ToLower(t.text))
	}
	return out
}

// paramTypes are the types of a statement's n parameters as Describe
// reports them: bigint after LIMIT and OFFSET, else 0 (unspecified: the
// client sends the value as the text of its own type, which the
// statement reads as a string; SQLite compares a string with a number
// column as a number).
func paramTypes(text string, n int) []uint32 {
	out := make([]uint32, n)
	prev := ""
	for _, t := range significant(lex(text)) {
		if t.kind == tokParam {
			if v, err := strconv.Atoi(t.text[1:]); err == nil && v >= 1 && v <= n && (prev == "limit" || prev == "offset") {
				out[v-1] = oidInt8
			}
		}
		prev = strings.ToLower(t.text)
	}
	return out
}
