// Package engine is the query engine's entry point: Engine.Query takes one
// statement of text and returns a typed result or a typed *Error.
//
// The data path is parse (sqlfront), plan (plan), fetch and materialise
// (exec, store), run (store), each a package of its own. engine wires
// them to the provider catalog (registry sources, loaded lazily) and to one
// HTTP client per provider. It answers discovery statements (SHOW,
// DESCRIBE) from the catalog without any request.
//
// engine knows nothing of MCP, terminals or output formats; it must not
// import mcpsurface or cmd.
package engine
