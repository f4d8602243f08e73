// Package result holds the typed result of a statement (columns with
// types, rows, true total, request statistics) and its text encodings:
// aligned table, JSON (array of objects), CSV and TSV. Every surface (exec,
// shell, mcp, check) renders results through it.
//
// result must not import the planner, the executor, providers or MCP.
package result
