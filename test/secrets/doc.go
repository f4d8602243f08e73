// Package secrets runs every surface of the engine binary (exec in every
// output format, errors, EXPLAIN and discovery, --debug logging; mcp over
// stdio, every tool, error results and result resources; check in every
// report format with the GitHub job summary; registry list; the response
// cache on disk) with GITHUB_TOKEN set to a distinctive value, including a
// provider whose error bodies echo the token back, and asserts that the
// value appears in none of the outputs while the fake server did receive it.
//
// It owns no production code; it must not be imported and must not change
// engine, providers, mcpsurface or cmd.
package secrets
