// Package result holds the typed result of a statement (columns with
// types, rows, true total, request statistics) and its text encodings:
// aligned table, JSON (array of objects), CSV, TSV, line and Markdown.
// Every surface (exec, shell, mcp, check) renders results through it.
//
// The encodings are one registry of Formats (format.go): each has a name,
// a description, a MIME type, whether it is an exact machine format, and
// an Encoder. exec's and the shell's -o, the shell's .mode, the help text
// of every command and the MCP result resource's formats are derived from
// it; a new format is one file that calls RegisterFormat (markdown.go).
//
// Stream renders a result row by row as it is produced (exec and the
// shell), holding one row (the table format: its first TableBufferRows
// rows, to size the columns); Write renders a held Result through the
// same code.
//
// Human-facing encodings (table, line, markdown) and the surfaces' error text pass
// values through Sanitize/SanitizeText, which show control characters as
// escapes so that API data cannot drive a terminal or forge lines; the
// machine encodings (JSON, CSV, TSV: Format.Exact) keep values exact.
//
// result must not import the planner, the executor, providers or MCP.
package result
