// Package engine is the query engine's entry point: Engine.Prepare takes
// one statement of text and returns a Prepared statement (its kind, its
// plan's text, Run), or a typed *Error; Engine.Query prepares and runs in
// one call. A prepared plan is final (the LIMIT pushdown proved, the
// request estimate checked) and Run runs exactly it, so a statement
// validated by Prepare (engine check) is the one that runs.
//
// The data path is parse (sqlfront), plan (plan), fetch and materialise
// (exec, store), run (store), each a package of its own. engine wires
// them to the provider catalog (package catalog: sources loaded lazily,
// the compile cache of OpenAPI documents, origins, credentials) and to
// one HTTP client per provider, which is the runner's exec.Fetcher
// (Options.Fetch replaces it in the in-process harness, enginetest). It
// answers discovery statements (SHOW, DESCRIBE) from the catalog's typed
// discovery without any request, phrasing the catalog's answers and
// errors as SQL; before planning a SELECT, it reads each FROM name of one
// or two parts (Query.ShortNames) with the catalog (Catalog.ShortName),
// so that FROM github.repos says which three-part names it may mean.
//
// An engine is made on a catalog: New makes one from Options (Sources,
// Store), or takes Options.Catalog, made beforehand by NewCatalog, when
// the endpoints depend on the providers' definitions (engine check).
//
// engine knows nothing of MCP, terminals or output formats; it must not
// import mcpsurface or cmd.
package engine
