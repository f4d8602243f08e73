package sqlfront

import (
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// parseDiscovery reads the stackql-style discovery statements:
//
//	SHOW PROVIDERS [LIKE 'p']
//	SHOW SERVICES [IN|FROM provider] [LIKE 'p']
//	SHOW RESOURCES|TABLES [IN|FROM provider[.service]] [LIKE 'p']
//	SHOW METHODS IN|FROM provider.service.resource
//	DESCRIBE|DESC [EXTENDED] provider.service.resource
//	SHOW COLUMNS|FIELDS IN|FROM provider.service.resource (DESCRIBE)
func parseDiscovery(st *Statement, text string, toks []token) error {
	word := func(i int) string {
		if i < len(toks) {
			return strings.ToLower(toks[i].raw(text))
		}
		return ""
	}
	i := 1
	switch word(0) {
	case "describe", "desc":
		if word(1) == "extended" {
			i++
		}
		return describe(st, text, toks, i)
	}
	switch word(1) {
	case "providers":
		st.Kind = KindShowProviders
	case "services":
		st.Kind = KindShowServices
	case "resources", "tables": // SHOW TABLES, as MySQL says it
		st.Kind = KindShowResources
	case "methods":
		st.Kind = KindShowMethods
	case "views":
		st.Kind = KindShowViews
		i = 2
		if word(i) == "like" {
			if i+1 >= len(toks) || toks[i+1].typ != sqlparser.STRING {
				return &Error{Pos: toks[i].start, Msg: "LIKE takes a quoted pattern, e.g. LIKE '%repo%'"}
			}
			st.Like, st.HasLike = toks[i+1].val, true
			i += 2
		}
		return expectEnd(text, toks, i)
	case "columns", "fields": // SHOW COLUMNS FROM t, as MySQL says it: DESCRIBE t
		if w := word(2); w != "in" && w != "from" {
			return &Error{Pos: toks[0].start, Msg: "SHOW COLUMNS takes FROM provider.service.resource, e.g. SHOW COLUMNS FROM github.repos.repos (or DESCRIBE github.repos.repos)"}
		}
		return describe(st, text, toks, 3)
	default:
		dym := ""
		if w := nearWord(word(1), showWords); w != "" {
			dym = " (did you mean SHOW " + strings.ToUpper(w) + "?)"
		}
		return &Error{Pos: toks[0].start, Msg: "unknown SHOW statement" + dym + "; use SHOW PROVIDERS, SHOW SERVICES IN <provider>, SHOW RESOURCES IN <provider>.<service>, SHOW METHODS IN <provider>.<service>.<resource>, DESCRIBE <provider>.<service>.<resource>"}
	}
	i = 2
	if w := word(i); w == "in" || w == "from" {
		if st.Kind == KindShowProviders {
			return &Error{Pos: toks[i].start, Msg: "SHOW PROVIDERS takes no IN clause"}
		}
		name, next, err := dottedName(text, toks, i+1)
		if err != nil {
			return err
		}
		st.Target = name
		i = next
	}
	switch st.Kind {
	case KindShowServices:
		if len(st.Target) > 1 {
			return &Error{Pos: toks[0].start, Msg: "SHOW SERVICES IN takes a provider, e.g. SHOW SERVICES IN github"}
		}
	case KindShowResources:
		if len(st.Target) > 2 {
			return &Error{Pos: toks[0].start, Msg: "SHOW RESOURCES IN takes provider or provider.service, e.g. SHOW RESOURCES IN github.repos"}
		}
	case KindShowMethods:
		if len(st.Target) != 3 {
			return &Error{Pos: toks[0].start, Msg: "SHOW METHODS IN takes provider.service.resource, e.g. SHOW METHODS IN github.repos.repos"}
		}
	}
	if word(i) == "like" {
		if i+1 >= len(toks) || toks[i+1].typ != sqlparser.STRING {
			return &Error{Pos: toks[i].start, Msg: "LIKE takes a quoted pattern, e.g. LIKE '%repo%'"}
		}
		st.Like, st.HasLike = toks[i+1].val, true
		i += 2
	}
	return expectEnd(text, toks, i)
}

// showWords are the words after SHOW that are statements here.
var showWords = []string{"providers", "services", "resources", "methods", "tables", "columns", "views"}

// describe reads the table name of a DESCRIBE (or SHOW COLUMNS FROM) at
// token i, the statement's last.
func describe(st *Statement, text string, toks []token, i int) error {
	st.Kind = KindDescribe
	name, next, err := dottedName(text, toks, i)
	if err != nil {
		return err
	}
	if (len(name) < 3 || len(name) > 4) && (len(name) != 1 || !ValidViewName(name[0])) {
		return &Error{Pos: toks[i].start, Msg: "DESCRIBE takes provider.service.resource or a view's name, e.g. DESCRIBE github.repos.repos"}
	}
	st.Target = name
	return expectEnd(text, toks, next)
}

// dottedName reads word(.word)* starting at token i.
func dottedName(text string, toks []token, i int) ([]string, int, error) {
	if i >= len(toks) || !toks[i].isWord(text) {
		pos := len(text)
		if i < len(toks) {
			pos = toks[i].start
		}
		return nil, i, &Error{Pos: pos, Msg: "expected a name such as github.repos.repos"}
	}
	var parts []string
	for {
		if toks[i].typ == sqlparser.ID {
			parts = append(parts, strings.ToLower(toks[i].val))
		} else {
			parts = append(parts, strings.ToLower(toks[i].raw(text)))
		}
		// A back-quoted `a.b.c` is one token holding the whole name.
		if strings.Contains(parts[len(parts)-1], ".") {
			last := parts[len(parts)-1]
			parts = append(parts[:len(parts)-1], strings.Split(last, ".")...)
		}
		i++
		if i+1 < len(toks) && toks[i].typ == '.' && toks[i+1].isWord(text) {
			i++
			continue
		}
		return parts, i, nil
	}
}

func expectEnd(text string, toks []token, i int) error {
	if i < len(toks) {
		return &Error{Pos: toks[i].start, Msg: "unexpected " + quoteExcerpt(toks[i].raw(text)) + " at the end of the statement"}
	}
	return nil
}
