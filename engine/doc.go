// Package engine is the query engine's entry point: Engine.Prepare takes
// one statement of text and returns a Prepared statement (its kind, its
// plan's text, Run), or a typed *Error; Engine.Query prepares and runs in
// one call. A prepared plan is final (the LIMIT pushdown proved, the
// request estimate checked) and Run runs exactly it, so a statement
// validated by Prepare (engine check) is the one that runs.
//
// The data path is parse (sqlfront), plan (plan), fetch and materialise
// (exec, store), run (store), each a package of its own. engine wires
// them to the provider catalog (registry sources, loaded lazily) and to one
// HTTP client per provider, which is the runner's exec.Fetcher
// (Options.Fetch replaces it in the in-process harness, enginetest). It answers discovery statements (SHOW,
// DESCRIBE) from the catalog without any request.
//
// A provider defined by an OpenAPI document (--provider, or kept by
// `engine registry add` / `pull`) is compiled once: its index is stored in
// Options.Store under a key made of the hashes of the document and its
// profile, the provider name and the compiling code's identity, and later
// loads decode that index instead of parsing the document (compiled.go).
// A stored index that is corrupt, foreign or of another format is ignored
// and rebuilt; ProviderOrigin tells how each index was obtained.
//
// engine knows nothing of MCP, terminals or output formats; it must not
// import mcpsurface or cmd.
package engine
