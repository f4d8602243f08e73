package check

import (
	"strings"

	"github.com/enginehq/engine/engine/result"
	"github.com/enginehq/engine/providers"
)

// scrub removes secrets from text that leaves the process.
func scrub(s string, secrets []string) string {
	if len(secrets) == 0 {
		return s
	}
	return providers.Redact(s, secrets...)
}

// scrubRows returns the columns and rows with secrets scrubbed from every
// name and text value (copies: the result's own rows are not changed).
// An API can echo a credential in data as well as in errors, and every
// report format prints rows.
func scrubRows(cols []result.Column, rows [][]any, secrets []string) ([]result.Column, [][]any) {
	if len(secrets) == 0 {
		return cols, rows
	}
	outCols := make([]result.Column, len(cols))
	for i, c := range cols {
		c.Name = scrub(c.Name, secrets)
		outCols[i] = c
	}
	out := make([][]any, len(rows))
	for i, row := range rows {
		out[i] = make([]any, len(row))
		for j, v := range row {
			switch x := v.(type) {
			case string:
				v = scrub(x, secrets)
			case []byte:
				v = scrub(string(x), secrets)
			}
			out[i][j] = v
		}
	}
	return outCols, out
}

// oneLine makes text from a control file or an API one inert line for a
// human-facing report: whitespace runs become one space and every other
// control character is shown escaped (result.Sanitize), so a title or a
// message can neither move the terminal nor forge a report line or a
// GitHub workflow command.
func oneLine(s string) string {
	return result.Sanitize(providers.OneLine(s, 0))
}

// mdCell makes text (API data, error messages, the control file's words)
// inert inside a markdown table cell: one line, and result.MarkdownText
// (no HTML, links, images, mentions or issue references); backticks
// become quotes.
func mdCell(s string) string {
	return result.MarkdownText(strings.ReplaceAll(providers.OneLine(s, 0), "`", "'"))
}
