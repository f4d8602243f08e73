// Package result holds the typed result of a statement (columns with
// types, rows, true total, request statistics) and its text encodings:
// aligned table, JSON (array of objects), CSV and TSV. Every surface (exec,
// shell, mcp, check) renders results through it. Stream renders a result
// row by row as it is produced (exec and the shell), holding one row (the
// table format: its first TableBufferRows rows, to size the columns);
// Write renders a held Result through the same code.
//
// Human-facing encodings (table, line) and the surfaces' error text pass
// values through Sanitize/SanitizeText, which show control characters as
// escapes so that API data cannot drive a terminal or forge lines; the
// machine encodings (JSON, CSV, TSV) keep values exact.
//
// result must not import the planner, the executor, providers or MCP.
package result
