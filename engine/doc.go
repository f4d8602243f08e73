// Package engine is the query engine's entry point: Engine.Query takes one
// statement of text and returns a typed result or a typed *Error.
//
// The data path is parse (sqlfront), plan (plan), fetch and materialise
// (exec, store), run (store), each a package of its own. engine wires
// them to the provider catalog (package catalog: sources loaded lazily,
// the compile cache of OpenAPI documents, origins, credentials) and to
// one HTTP client per provider. It answers discovery statements (SHOW,
// DESCRIBE) from the catalog's typed discovery without any request,
// phrasing the catalog's answers and errors as SQL.
//
// An engine is made on a catalog: New makes one from Options (Sources,
// Store), or takes Options.Catalog, made beforehand by NewCatalog, when
// the endpoints depend on the providers' definitions (engine check).
//
// engine knows nothing of MCP, terminals or output formats; it must not
// import mcpsurface or cmd.
package engine
