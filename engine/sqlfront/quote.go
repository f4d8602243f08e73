package sqlfront

import (
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// QuoteIdent quotes an SQLite identifier: the one identifier quoter of
// the engine (the planner's and the store's SQL use it too).
func QuoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// QuoteString writes s as an SQL string literal.
func QuoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// identText is an identifier's name without back quotes.
func identText(text string, t token) string {
	if t.typ == sqlparser.ID {
		return t.val
	}
	return t.raw(text)
}
