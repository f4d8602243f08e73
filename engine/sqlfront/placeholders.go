package sqlfront

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// The placeholder notation: in the text handed to vitess, each occurrence
// of a provider table name is replaced by one back-quoted identifier, the
// dotted name and its occurrence index (TableRef.Index) joined by '#', e.g.
// `github.repos.repos#0`. placeholder writes it; placeholderRe reads it,
// both as a whole identifier (parsePlaceholder) and inside printed text
// (unplaceholder).
var placeholderRe = regexp.MustCompile("`?([^`#\\s]+)#([0-9]+)`?")

func placeholder(r *TableRef) string {
	return "`" + strings.Join(r.Parts, ".") + "#" + strconv.Itoa(r.Index) + "`"
}

// parsePlaceholder splits an identifier that is a whole placeholder into
// the dotted table name and the occurrence index.
func parsePlaceholder(ident string) (name string, index int, ok bool) {
	m := placeholderRe.FindStringSubmatch(ident)
	if m == nil || m[0] != ident {
		return "", 0, false
	}
	index, err := strconv.Atoi(m[2])
	return m[1], index, err == nil
}

// unplaceholder turns the placeholders in printed text (an expression, a
// parser error) back into the table names as written.
// Text without '#' holds none, and most expressions are such text.
func unplaceholder(text string) string {
	if !strings.Contains(text, "#") {
		return text
	}
	return placeholderRe.ReplaceAllString(text, "$1")
}

// exprText is an expression as written, table placeholders back to names
// and strings quoted as SQLite reads them: a quote inside doubled, a
// backslash as itself (vitess would print MySQL's backslash escapes).
func exprText(e sqlparser.Expr) string {
	buf := sqlparser.NewTrackedBuffer(func(buf *sqlparser.TrackedBuffer, node sqlparser.SQLNode) {
		if v, ok := node.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal {
			buf.WriteString("'" + strings.ReplaceAll(string(v.Val), "'", "''") + "'")
			return
		}
		node.Format(buf)
	})
	buf.Myprintf("%v", e)
	return unplaceholder(buf.String())
}

// qualName is how a qualifier or table identifier names a table in scope:
// the resource name of a placeholder, else the identifier, lower-cased.
func qualName(ident string) string {
	if name, _, ok := parsePlaceholder(ident); ok {
		parts := SplitLower(name)
		return parts[len(parts)-1]
	}
	return strings.ToLower(ident)
}

// findTables locates dotted provider table names in the token stream.
func findTables(text string, toks []token, isProvider func(string) bool) []*TableRef {
	var refs []*TableRef
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.typ != sqlparser.ID || (i > 0 && toks[i-1].typ == '.') {
			continue
		}
		// A back-quoted name with dots inside: `github.repos.repos`.
		if strings.Contains(t.val, ".") {
			parts := SplitLower(t.val)
			if len(parts) >= 3 && len(parts) <= 4 && isProvider(parts[0]) {
				refs = append(refs, &TableRef{Index: len(refs), Parts: parts, Span: [2]int{t.start, t.end}})
			}
			continue
		}
		if !isProvider(strings.ToLower(t.val)) {
			continue
		}
		parts, next, err := dottedName(text, toks, i)
		if err != nil || len(parts) < 3 || len(parts) > 4 {
			continue
		}
		refs = append(refs, &TableRef{Index: len(refs), Parts: parts, Span: [2]int{t.start, toks[next-1].end}})
		i = next - 1
	}
	return refs
}

// SplitLower splits a dotted name into lower-cased parts.
func SplitLower(s string) []string {
	parts := strings.Split(s, ".")
	for i := range parts {
		parts[i] = strings.ToLower(strings.TrimSpace(parts[i]))
	}
	return parts
}

// withPlaceholders returns text[start:end] as vitess reads it: each
// table name inside it replaced by its placeholder, and the other edits
// (see vitessEdits: negative LIMIT and OFFSET operands, GLOB) made.
func withPlaceholders(text string, refs []*TableRef, edits []textEdit, start, end int) string {
	var b strings.Builder
	pos := start
	edit := func(span [2]int, with string) {
		if span[0] < start || span[1] > end {
			return
		}
		b.WriteString(text[pos:span[0]])
		b.WriteString(with)
		pos = span[1]
	}
	// refs and edits are in text order: skip to the first inside
	// [start, end] and stop after the last, so that the texts of n
	// subqueries cost in all what their own tables cost, not n times
	// every table of the statement.
	refs = refs[sort.Search(len(refs), func(i int) bool { return refs[i].Span[0] >= start }):]
	edits = edits[sort.Search(len(edits), func(i int) bool { return edits[i].span[0] >= start }):]
	for _, r := range refs {
		if r.Span[0] >= end {
			break
		}
		for len(edits) > 0 && edits[0].span[0] < r.Span[0] {
			edit(edits[0].span, edits[0].with)
			edits = edits[1:]
		}
		edit(r.Span, placeholder(r))
	}
	for _, e := range edits {
		if e.span[0] >= end {
			break
		}
		edit(e.span, e.with)
	}
	b.WriteString(text[pos:end])
	return b.String()
}

// textEdit is a span of the statement that vitess reads as other text.
type textEdit struct {
	span [2]int
	with string
}

// vitessEdits are the edits of the text vitess parses, in text order:
// each negative LIMIT or OFFSET operand becomes noLimit (nolimit.go),
// and SQLite's GLOB operator, which MySQL's grammar lacks, REGEXP, an
// operator of the same shape (x [NOT] GLOB y) that no key binding and no
// filter reads, so the analysis of the statement is unchanged; SQLite
// runs the user's text, GLOB included.
func vitessEdits(toks []token, text string) []textEdit {
	var out []textEdit
	for _, n := range negativeLimits(toks) {
		out = append(out, textEdit{n, noLimit})
	}
	for i, t := range toks {
		if !strings.EqualFold(t.raw(text), "glob") || i == 0 || toks[i-1].typ == '.' {
			continue
		}
		if i+1 < len(toks) && (toks[i+1].typ == '(' || toks[i+1].typ == '.') {
			continue // the function glob(pattern, text), or a name
		}
		out = append(out, textEdit{[2]int{t.start, t.end}, "REGEXP"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].span[0] < out[j].span[0] })
	return out
}

func qualOfTable(tn sqlparser.TableName) string { return qualName(tn.Name.String()) }
