package check

import (
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
