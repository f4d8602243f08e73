// Package hostile runs a corpus of hostile statements (writes, ATTACH,
// PRAGMA writes, extension loading, file functions, CTE bombs, oversized,
// deeply nested, NUL and invalid UTF-8 statements, comment and escape
// tricks, injection through parameter values) through `engine exec` and
// through one long-lived `engine mcp` server, asserting a clear error of
// the expected kind for each, no file written anywhere the process could
// write (private TMPDIR, HOME and working directory, all empty
// afterwards), and that the server still answers a normal query.
//
// terminal_test.go serves hostile data instead (terminal escapes and
// forged lines in a row value and in an API error message, a control
// file whose title forges GitHub workflow commands; HTML, links, images,
// mentions and references for the markdown outputs) and asserts that
// human-facing output is inert and machine formats exact.
//
// It owns no production code; it must not be imported and must not change
// engine, providers, mcpsurface or cmd.
package hostile
