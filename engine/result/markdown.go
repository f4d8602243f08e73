package result

import (
	"bytes"
	"strings"
)

// markdown: a GitHub-flavoured Markdown table, for pasting into an issue
// or a pull request. In names and values the characters that would end a
// cell or escape the next one (| and \) are backslash-escaped, then they
// are Sanitized as in the table format (a newline shows as \n, so a cell
// stays on its row). NULL shows as NULL; numeric columns align right.
func init() {
	RegisterFormat(&Format{Name: "markdown", Description: "a GitHub-flavoured Markdown table", MIMEType: "text/markdown; charset=utf-8",
		NewEncoder: func(EncodeOptions) Encoder { return &markdownEncoder{} }})
}

type markdownEncoder struct {
	cols  int
	types []Column
}

var markdownEscaper = strings.NewReplacer(`\`, `\\`, `|`, `\|`)

func markdownCell(s string) string { return Sanitize(markdownEscaper.Replace(s)) }

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
