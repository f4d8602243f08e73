package sqlfront

import (
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// token is one lexical token with its byte span in the original text.
type token struct {
	typ        int
	val        string
	start, end int
	// escape: a string whose text, as vitess reads it, still holds a
	// backslash (see maskBackslashes); checkDialect refuses it.
	escape bool
}

func (t token) raw(text string) string { return text[t.start:t.end] }

// isWord reports whether the token's raw text is a bare or back-quoted
// word: an identifier or a keyword (after a dot, MySQL keywords are names).
func (t token) isWord(text string) bool {
	if t.typ == sqlparser.ID {
		return true
	}
	r := t.raw(text)
	if r == "" {
		return false
	}
	for i, c := range r {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// tokenize scans the whole text, comments included.
func tokenize(text string) ([]token, error) {
	masked := maskBackslashes(text)
	tkn := sqlparser.NewStringTokenizer(masked)
	tkn.AllowComments = true
	var out []token
	prevEnd := 0
	for {
		typ, val := tkn.Scan()
		if typ == 0 {
			return out, nil
		}
		s := tkn.OldPosition - 1
		if s < 0 {
			s = 0
		}
		for s < len(text) && isSpace(text[s]) {
			s++
		}
		e := tkn.Position - 1
		if e > len(text) {
			e = len(text)
		}
		for e > s && isSpace(text[e-1]) {
			e--
		}
		if typ == sqlparser.LEX_ERROR {
			// Report the error where the unreadable token starts (an
			// unterminated string or quoted name runs to the end).
			if s < prevEnd {
				s = prevEnd
			}
			for s < len(text) && isSpace(text[s]) {
				s++
			}
			return nil, &Error{Pos: s, Msg: lexErrorMsg(text[s:])}
		}
		if !plausible(text, typ, string(val), s, e, prevEnd) {
			// The tokenizer reports stale positions for tokens it read
			// ahead (NOT NULL, FOR UPDATE): those are plain words, so
			// find them after the previous token.
			s = prevEnd
			for s < len(text) && isSpace(text[s]) {
				s++
			}
			// Compare only len(val) bytes: lower-casing the whole rest of
			// the text for each such token made long statements quadratic.
			if len(val) == 0 || len(text)-s < len(val) || !strings.EqualFold(text[s:s+len(val)], string(val)) {
				// Only MySQL's executable comments (/*! ... */) are
				// scanned out of order otherwise; SQLite ignores them.
				return nil, &Error{Pos: prevEnd, Msg: "'/*!' version comments are not supported"}
			}
			e = s + len(val)
		}
		prevEnd = e
		t := token{typ: typ, val: string(val), start: s, end: e}
		if typ == sqlparser.STRING {
			t.val = unmask(t.val)
			t.escape = strings.Contains(masked[s:e], `\`)
		}
		out = append(out, t)
	}
}

// lexErrorMsg explains a token the tokenizer cannot read, starting at rest.
func lexErrorMsg(rest string) string {
	if strings.HasPrefix(rest, "\ufeff") {
		// a file saved "UTF-8 with BOM" pasted or joined into a statement:
		// name the mark, which a terminal does not show
		return "a byte-order mark (U+FEFF, the bytes EF BB BF) is not SQL: remove it (editors saving \"UTF-8 with BOM\" write one at the start of a file)"
	}
	if rest != "" {
		switch rest[0] {
		case '\'':
			return "unterminated string starting at " + quoteExcerpt(rest) + ": close it with ' (write a quote inside a string as '')"
		case '"':
			return "unterminated quoted name starting at " + quoteExcerpt(rest) + ": close it with \""
		case '`':
			return "unterminated quoted name starting at " + quoteExcerpt(rest) + ": close it with `"
		}
		if strings.HasPrefix(rest, "/*") {
			return "unterminated comment starting at " + quoteExcerpt(rest) + ": close it with */"
		}
	}
	return "cannot read the statement near " + quoteExcerpt(rest) + ": check quotes and special characters"
}

// plausible checks a token's reported span against its value.
func plausible(text string, typ int, val string, s, e, prevEnd int) bool {
	if s < prevEnd || e < s {
		return false
	}
	switch typ {
	case sqlparser.STRING, sqlparser.COMMENT, sqlparser.HEX, sqlparser.HEXNUM, sqlparser.BIT_LITERAL, sqlparser.VALUE_ARG, sqlparser.LIST_ARG:
		return true
	}
	if val == "" {
		return true
	}
	raw := text[s:e]
	if strings.EqualFold(raw, val) {
		return true
	}
	return typ == sqlparser.ID && strings.HasPrefix(raw, "`")
}

func quoteExcerpt(s string) string {
	if len(s) > 24 {
		s = s[:24] + "..."
	}
	return "'" + strings.ReplaceAll(s, "\n", " ") + "'"
}

// checkDialect refuses constructs that MySQL's grammar and SQLite read
// differently, so that what was validated is what runs.
func checkDialect(text string, toks []token) error {
	for _, t := range toks {
		raw := t.raw(text)
		switch {
		case t.typ == sqlparser.COMMENT && strings.HasPrefix(raw, "#"):
			return &Error{Pos: t.start, Msg: "'#' comments are not supported; use -- or /* */"}
		case t.typ == sqlparser.COMMENT && strings.HasPrefix(raw, "/*!"):
			return &Error{Pos: t.start, Msg: "'/*!' version comments are not supported"}
		case t.typ == sqlparser.NULL_SAFE_EQUAL:
			return &Error{Pos: t.start, Msg: "'<=>' is MySQL's null-safe equality, which SQLite does not read; write coalesce(x, v) = w, or x IS NULL OR x = w"}
		case t.escape:
			return &Error{Pos: t.start, Msg: "backslash escapes in strings are not supported (SQLite reads them literally); write a quote inside a string as ''"}
		}
	}
	return nil
}

// trimStatement drops the trailing semicolons and comments, and refuses
// tokens that hold more than one statement.
func trimStatement(toks []token) ([]token, error) {
	// Drop trailing semicolons and comments.
	end := len(toks)
	for end > 0 && (toks[end-1].typ == ';' || toks[end-1].typ == sqlparser.COMMENT) {
		end--
	}
	for _, t := range toks[:end] {
		if t.typ == ';' {
			return nil, &Error{Pos: t.start, Msg: "only one statement per call; split the statements and run them one by one"}
		}
	}
	return toks[:end], nil
}

// statementCode is the code of one statement (its tokens without
// comments): text tokenized, checked for what the dialect refuses, its
// trailing semicolons and comments dropped, and refused when it holds a
// second statement.
func statementCode(text string) ([]token, error) {
	all, err := tokenize(text)
	if err != nil {
		return nil, err
	}
	if err := checkDialect(text, all); err != nil {
		return nil, err
	}
	if all, err = trimStatement(all); err != nil {
		return nil, err
	}
	return code(all), nil
}

// code returns the tokens without comments.
func code(toks []token) []token {
	out := make([]token, 0, len(toks))
	for _, t := range toks {
		if t.typ != sqlparser.COMMENT {
			out = append(out, t)
		}
	}
	return out
}

// Token is one lexical token of a statement, comments included, with its
// byte span. Callers compare statement structures with it (check's --var
// substitution: a value must land as exactly one string literal).
type Token struct {
	Start, End int
	// String is set for a quoted string literal ('...' or "...").
	String bool
	// Comment is set for a comment.
	Comment bool
	// Text is the token as written.
	Text string
}

// Tokens splits text into tokens with the same tokenizer Parse uses.
func Tokens(text string) ([]Token, error) {
	toks, err := tokenize(text)
	if err != nil {
		return nil, err
	}
	out := make([]Token, len(toks))
	for i, t := range toks {
		out[i] = Token{Start: t.start, End: t.end, String: t.typ == sqlparser.STRING, Comment: t.typ == sqlparser.COMMENT, Text: t.raw(text)}
	}
	return out, nil
}

// Piece is one statement of a script: its text (without the ';' that
// ends it) and the byte offset where it starts in the script.
type Piece struct {
	Text  string
	Start int
}

// Split cuts a script into its statements at each ';' outside strings,
// quoted names and comments, with the tokenizer Parse uses, so that a
// ';' inside a string or a comment does not split. Pieces that hold only
// comments are left out. A script that cannot be tokenized (a string left
// open), or that holds a NUL byte or is not UTF-8, is an error: Parse
// says it of the whole text.
func Split(text string) ([]Piece, error) {
	if i := strings.IndexByte(text, 0); i >= 0 {
		return nil, &Error{Pos: i, Msg: "statement contains a NUL byte"}
	}
	if !validUTF8(text) {
		return nil, &Error{Pos: -1, Msg: "statement is not valid UTF-8"}
	}
	toks, err := tokenize(text)
	if err != nil {
		return nil, err
	}
	var out []Piece
	first, last := -1, -1 // code tokens of the current statement
	flush := func() {
		if first >= 0 {
			out = append(out, Piece{Text: text[toks[first].start:toks[last].end], Start: toks[first].start})
		}
		first, last = -1, -1
	}
	for i, t := range toks {
		switch {
		case t.typ == ';':
			flush()
		case t.typ == sqlparser.COMMENT:
			if first >= 0 {
				last = i // a comment inside a statement stays in it
			}
		default:
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	flush()
	return out, nil
}
