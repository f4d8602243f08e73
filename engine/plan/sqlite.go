package plan

import (
	"fmt"
	"sort"
	"strings"

	"github.com/enginehq/engine/engine/sqlfront"
)

// The SQLite text of a plan is the user's own statement, edited at the
// byte spans the front end recorded (sqlfront.Query.Span,
// TableRef.Span, Conjunct.Spans and SubSpan): regenerating SQL from the
// parser's tree would change SQLite's reading of it (sqlfront's package
// comment says why). Planning decides the edits; nothing here parses.

// edit replaces Text[start:end] with repl.
type edit struct {
	start, end int
	repl       string
}

// rewrite holds the edits that turn the statement into SQLite text.
type rewrite struct {
	q     *sqlfront.Query
	edits []edit
}

// newRewrite replaces each provider table by its materialised table
// (names, by TableRef.Index), keeping the name SQL refers to it by, and
// each consumed conjunct by 1.
//
// A conjunct is consumed when the API already applied it and the
// materialised rows cannot express it (a parameter whose name is also a
// response column, such as owner on repositories). Every occurrence of a
// consumed predicate must be consumed; otherwise the rewrite would be
// ambiguous and an error says so.
func newRewrite(q *sqlfront.Query, names map[int]string, consumed []*sqlfront.Conjunct) (*rewrite, error) {
	var edits []edit
	for _, r := range q.Tables {
		name, ok := names[r.Index]
		if !ok {
			return nil, fmt.Errorf("internal: no materialised table for %s", r)
		}
		repl := sqlfront.QuoteIdent(name)
		if r.Alias == "" {
			repl += " AS " + sqlfront.QuoteIdent(r.RefName())
		}
		edits = append(edits, edit{r.Span[0], r.Span[1], repl})
	}
	byText := map[string][]*sqlfront.Conjunct{}
	var texts []string
	for _, c := range consumed {
		if byText[c.Text] == nil {
			texts = append(texts, c.Text)
		}
		byText[c.Text] = append(byText[c.Text], c)
	}
	for _, text := range texts {
		same := byText[text]
		if c := same[0]; len(same) != c.Occurs || len(c.Spans) != c.Occurs {
			return nil, &sqlfront.Error{Pos: -1, Msg: fmt.Sprintf("the predicate %s is used both as an API parameter and as a row filter; write it once, at the top level of WHERE", text)}
		}
		for _, s := range same[0].Spans {
			edits = append(edits, edit{s[0], s[1], "1"})
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	for i := 1; i < len(edits); i++ {
		if edits[i].start < edits[i-1].end {
			return nil, fmt.Errorf("internal: overlapping rewrite at %d", edits[i].start)
		}
	}
	return &rewrite{q: q, edits: edits}, nil
}

// sql is the whole statement as SQLite runs it.
func (rw *rewrite) sql() string { return rw.apply(rw.q.Span) }

// subquery is the SQLite text of the IN subquery of a "subquery" conjunct.
func (rw *rewrite) subquery(c *sqlfront.Conjunct) (string, error) {
	if c.Op != sqlfront.OpSubquery || c.SubSpan[0] < 0 || c.SubSpan[1] <= c.SubSpan[0] {
		return "", &sqlfront.Error{Pos: -1, Msg: "cannot locate the text of the subquery in " + c.Text}
	}
	return rw.apply(c.SubSpan), nil
}

// apply is Text[span] with the edits inside span made.
func (rw *rewrite) apply(span [2]int) string {
	var b strings.Builder
	pos := span[0]
	for _, e := range rw.edits {
		if e.start < span[0] || e.end > span[1] {
			continue
		}
		b.WriteString(rw.q.Text[pos:e.start])
		b.WriteString(e.repl)
		pos = e.end
	}
	b.WriteString(rw.q.Text[pos:span[1]])
	return b.String()
}
