// Package store materialises provider items into an embedded SQLite
// database (modernc.org/sqlite, pure Go) and runs the user's query there.
//
// One Store is one private database on one connection, made for one
// statement: a temporary file (so memory stays bounded by the page cache)
// that is unlinked as soon as it is open, so nothing is left in TMPDIR
// however the process ends. Items become rows: one column per top-level property,
// nested objects and arrays as JSON text (so json_extract works), booleans
// as 0/1 integers (so WHERE NOT private works). A JSON column holds the
// JSON text of every value, a string with its quotes, so that every value
// keeps its JSON type and SQLite's JSON functions read every row; an
// integer beyond 64 bits keeps its digits (see cell and number in
// values.go). Rows go in through a
// prepared statement inside one transaction per table; a table loaded in
// parts (Table.Part: a fan-out's calls, whose pages arrive in any order)
// keys each row by its part and its place in it, so the rows read back in
// part order, then insertion order.
//
// Query collects a result; QueryRows hands each row on as SQLite produces
// it, for callers that must not hold a whole result (exec, the shell and
// the MCP surface).
//
// A value SQLite cannot hold faithfully (a number beyond a 64-bit float,
// JSON nested deeper than MaxJSONDepth) is a DecodeError: the response is
// at fault, and the executor reports it as a provider decode error.
//
// PlainScan compiles a statement with EXPLAIN against an empty in-memory
// copy of a table and tells whether its program is a plain scan (an
// allowlist of opcodes), which is when a LIMIT may stop the fetch early.
//
// store must not know about HTTP, providers' HTTP clients or MCP.
package store
