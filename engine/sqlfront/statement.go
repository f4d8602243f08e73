package sqlfront

import (
	"fmt"
	"strings"

	"github.com/enginehq/engine/providers"
)

// MaxStatementBytes bounds the size of one statement.
const MaxStatementBytes = 256 << 10

// Kind says what a statement asks for.
type Kind int

// Statement kinds.
const (
	KindSelect Kind = iota + 1
	KindShowProviders
	KindShowServices
	KindShowResources
	KindShowMethods
	KindDescribe
	KindExplain
	KindCreateView
	KindDropView
	KindShowViews
)

func (k Kind) String() string {
	switch k {
	case KindSelect:
		return "SELECT"
	case KindShowProviders:
		return "SHOW PROVIDERS"
	case KindShowServices:
		return "SHOW SERVICES"
	case KindShowResources:
		return "SHOW RESOURCES"
	case KindShowMethods:
		return "SHOW METHODS"
	case KindDescribe:
		return "DESCRIBE"
	case KindExplain:
		return "EXPLAIN"
	case KindCreateView:
		return "CREATE VIEW"
	case KindDropView:
		return "DROP VIEW"
	case KindShowViews:
		return "SHOW VIEWS"
	}
	return "UNKNOWN"
}

// Statement is one parsed statement.
type Statement struct {
	Kind Kind
	Text string
	// Target is the dotted name a discovery statement is about
	// (provider, provider.service or provider.service.resource), split.
	Target []string
	// Like is the LIKE pattern of a SHOW statement, if any.
	Like    string
	HasLike bool
	// Query is the analysed query of a SELECT or EXPLAIN.
	Query *Query
	// View is the subject of a CREATE VIEW or DROP VIEW.
	View *ViewDef
}

// Parse reads one statement. isProvider tells which first name parts are
// provider names (so that dotted table names can be recognised).
func Parse(text string, isProvider func(string) bool) (*Statement, error) {
	if len(text) > MaxStatementBytes {
		return nil, &Error{Pos: -1, Msg: fmt.Sprintf("statement is %d bytes; the limit is %d", len(text), MaxStatementBytes)}
	}
	if strings.IndexByte(text, 0) >= 0 {
		return nil, &Error{Pos: strings.IndexByte(text, 0), Msg: "statement contains a NUL byte"}
	}
	if !validUTF8(text) {
		return nil, &Error{Pos: -1, Msg: "statement is not valid UTF-8"}
	}
	toks, err := statementCode(text)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, &Error{Pos: -1, Msg: "empty statement"}
	}
	st := &Statement{Text: text}
	first := strings.ToLower(toks[0].raw(text))
	switch first {
	case "show", "describe", "desc":
		if err := parseDiscovery(st, text, toks); err != nil {
			return nil, err
		}
		return st, nil
	case "explain":
		q, err := parseQuery(text, toks[1:], isProvider)
		if err != nil {
			return nil, err
		}
		st.Kind, st.Query = KindExplain, q
		return st, nil
	case "select", "with", "(":
		q, err := parseQuery(text, toks, isProvider)
		if err != nil {
			return nil, err
		}
		st.Kind, st.Query = KindSelect, q
		return st, nil
	case "create":
		if err := parseCreateView(st, text, toks, isProvider); err != nil {
			return nil, err
		}
		return st, nil
	case "drop":
		if err := parseDropView(st, text, toks); err != nil {
			return nil, err
		}
		return st, nil
	}
	if w := nearWord(first, statementWords); w != "" {
		return nil, &Error{Pos: toks[0].start, Msg: fmt.Sprintf("unknown statement %s: did you mean %s? Only read-only SELECT, SHOW, DESCRIBE and EXPLAIN run here (and CREATE VIEW, DROP VIEW)", strings.ToUpper(first), strings.ToUpper(w))}
	}
	return nil, &Error{Pos: toks[0].start, Msg: fmt.Sprintf("%s statements are not allowed: only read-only SELECT, SHOW, DESCRIBE and EXPLAIN run here (and CREATE VIEW, DROP VIEW, which the engine keeps itself)", strings.ToUpper(first))}
}

// statementWords are the words a statement that runs here starts with.
var statementWords = []string{"select", "with", "show", "describe", "explain"}

// nearWord is the word of words that w is a typo of (the one typo rule,
// providers.TypoFixes), or "". Statement words are not in words, nor
// anything within the rule's reach (DELETE is three edits from SELECT, a
// six-letter word's limit is two), so a write is never "meant" as a read.
func nearWord(w string, words []string) string {
	if len(w) < 3 || !isLetters(w) {
		return ""
	}
	if fix := providers.TypoFixes(w, words, 1); len(fix) == 1 {
		return fix[0]
	}
	return ""
}

func isLetters(s string) bool {
	for _, c := range s {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
