package openapi

import (
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/enginehq/engine/providers"
)

// maxDoc bounds a column description and a table summary, in bytes.
const maxDoc = 120

var (
	mdLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	spaces = regexp.MustCompile(`\s+`)
	// sentenceEnd is the end of a first sentence: a period, ! or ? then
	// a space and an upper-case letter or the end (not "e.g. x").
	sentenceEnd = regexp.MustCompile(`[.!?](\s+[A-Z\x60"(]|\s*$)`)
)

// FirstSentence is the first sentence of a description, markdown links
// reduced to their text, whitespace collapsed, at most maxDoc bytes (cut
// at a word, with "...").
func FirstSentence(s string) string {
	s = spaces.ReplaceAllString(mdLink.ReplaceAllString(s, "$1"), " ")
	s = strings.TrimSpace(strings.ReplaceAll(s, "**", ""))
	if loc := sentenceEnd.FindStringIndex(s); loc != nil {
		s = s[:loc[0]+1]
	}
	if len(s) > maxDoc {
		cut := strings.LastIndex(s[:maxDoc-3], " ")
		if cut < maxDoc/2 {
			cut = maxDoc - 3
		}
		s = strings.TrimRight(s[:cut], " ,;:") + "..."
	}
	return s
}

var detailWords = regexp.MustCompile(`(?i)\b(minimal|simple|full|nullable|public|private|base|short)\b\s*`)

// describeTable gives a table's summary and column descriptions: the
// entity (entityOf: "A GitHub user."), never one method's summary when
// the table has several (each method reads its own subset of the rows),
// the summary of its one method when it has one ("Actions cache usage.
// Get GitHub Actions cache usage for a repository."); a column's
// description is the first sentence of the first method's schema that
// describes it.
func describeTable(ms []*providers.Method, ops []*openapi3.Operation) (string, map[string]string) {
	docs := map[string]string{}
	best := -1
	entity := ""
	for i, m := range ms {
		op := ops[i]
		if best < 0 || len(m.Path) < len(ms[best].Path) {
			best = i
		}
		ref := itemSchemaRef(op, m)
		if ref == nil || ref.Value == nil {
			continue
		}
		if entity == "" {
			entity = entityOf(ref)
		}
		if ps := properties(ref.Value, 0); ps != nil {
			for _, n := range ps.names {
				if docs[n] != "" || m.Column(n) == nil {
					continue
				}
				for _, s := range ps.byName[n] {
					if s != nil && strings.TrimSpace(s.Description) != "" {
						docs[n] = FirstSentence(s.Description)
						break
					}
				}
			}
		}
	}
	for n, d := range docs {
		if d == "" {
			delete(docs, n)
		}
	}
	if len(docs) == 0 {
		docs = nil
	}
	summary := entity
	if len(ms) == 1 {
		// The one method says how every row is read.
		if s := strings.TrimSpace(ops[0].Summary); s != "" {
			if summary != "" {
				summary += " "
			}
			summary += FirstSentence(s)
		}
	}
	return summary, docs
}

// entityOf says what a row is from its item schema: its description
// when that is a sentence, else its title without detail-level words,
// else its name in the components ("actions-cache-usage" reads "Actions
// cache usage."), else "".
func entityOf(ref *openapi3.SchemaRef) string {
	d, t := ref.Value.Description, ref.Value.Title
	if strings.Count(strings.TrimSpace(d), " ") >= 2 && d != t {
		entity := FirstSentence(d)
		if !strings.HasSuffix(entity, ".") {
			entity += "."
		}
		return entity
	}
	if t == "" {
		if i := strings.LastIndex(ref.Ref, "/schemas/"); i >= 0 {
			t = strings.NewReplacer("-", " ", "_", " ").Replace(ref.Ref[i+len("/schemas/"):])
		}
	}
	t = strings.TrimSpace(detailWords.ReplaceAllString(t, ""))
	if t == "" {
		return ""
	}
	return strings.ToUpper(t[:1]) + t[1:] + "."
}
