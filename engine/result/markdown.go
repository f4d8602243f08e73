package result

import (
	"bytes"
	"strings"
)

// markdown: a GitHub-flavoured Markdown table, for pasting into an issue
// or a pull request. Names and values are MarkdownText: inert text in a
// cell (no HTML, links, images, mentions or issue references from API
// data), one line (a newline shows as \n). NULL shows as NULL; numeric
// columns align right.
func init() {
	RegisterFormat(&Format{Name: "markdown", Description: "a GitHub-flavoured Markdown table", MIMEType: "text/markdown; charset=utf-8",
		NewEncoder: func(EncodeOptions) Encoder { return &markdownEncoder{} }})
}

type markdownEncoder struct {
	cols  int
	types []Column
}

func markdownCell(s string) string { return MarkdownText(s) }

// zwsp is a zero-width space as an HTML entity: invisible when rendered,
// it keeps GitHub from reading "@name" as a mention and "#12" as an issue
// reference (the way Renovate and Dependabot quote untrusted text).
const zwsp = "&#8203;"

// MarkdownText makes untrusted text (API data) inert in GitHub-flavoured
// Markdown, for a table cell of -o markdown or check's job summary:
//
//   - HTML does not render: &, < and > become &amp;, &lt; and &gt; (so no
//     <img src=...> beacon, no <!-- hiding the rest, no <https://...>
//     autolink);
//   - no link or image: ] is backslash-escaped, so [text](url),
//     ![alt](url) and [text][ref] stay text;
//   - no mention or issue reference: @ and a # before a digit are
//     followed by a zero-width space (@team, #12, owner/repo#12 notify
//     or cross-reference nobody);
//   - the cell holds: \ and | are backslash-escaped, and control
//     characters are Sanitized (a newline shows as \n).
//
// The rendered text reads as the value did; a bare URL stays visible
// text (GitHub may link it; it loads nothing).
func MarkdownText(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '|':
			b.WriteString(`\|`)
		case ']':
			b.WriteString(`\]`)
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '@':
			b.WriteString("@" + zwsp)
		case '#':
			b.WriteByte('#')
			if i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				b.WriteString(zwsp)
			}
		default:
			b.WriteByte(c)
		}
	}
	return Sanitize(b.String())
}

func (e *markdownEncoder) Begin(b *bytes.Buffer, cols []Column) error {
	e.cols = len(cols)
	e.types = cols
	if e.cols == 0 {
		return nil // a table needs a column
	}
	for _, c := range cols {
		b.WriteString("| ")
		b.WriteString(markdownCell(c.Name))
		b.WriteString(" ")
	}
	b.WriteString("|\n")
	for _, c := range cols {
		if c.Type == TypeInteger || c.Type == TypeReal {
			b.WriteString("| ---: ")
		} else {
			b.WriteString("| --- ")
		}
	}
	b.WriteString("|\n")
	return nil
}

func (e *markdownEncoder) Row(b *bytes.Buffer, row []any) error {
	for j, v := range row {
		c := "NULL"
		if v != nil {
			c = markdownCell(cellText(e.types, j, v))
		}
		b.WriteString("| ")
		b.WriteString(c)
		b.WriteString(" ")
	}
	if len(row) > 0 {
		b.WriteString("|\n")
	}
	return nil
}

func (e *markdownEncoder) End(*bytes.Buffer) error { return nil }
