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
// entity (its schema's description when that is a sentence, else its
// title without detail-level words), then the summary of the method with
// the shortest path (e.g. "A GitHub user. List organization members."); a column's description is the first sentence of the
// first method's schema that describes it.
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
			d, t := ref.Value.Description, ref.Value.Title
			if strings.Count(strings.TrimSpace(d), " ") >= 2 && d != t {
				entity = FirstSentence(d)
				if !strings.HasSuffix(entity, ".") {
					entity += "."
				}
			} else if t != "" {
				entity = strings.TrimSpace(detailWords.ReplaceAllString(t, "")) + "."
			}
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
	if best >= 0 {
		if s := strings.TrimSpace(ops[best].Summary); s != "" {
			if summary != "" {
				summary += " "
			}
			summary += FirstSentence(s)
		}
	}
	return summary, docs
}
