// Package catalog is the provider catalog: the provider definitions
// (registry sources) by name, each loaded on first use (an index decodes
// only its header; a resource is decoded when asked for), the compile
// cache of OpenAPI documents (compiled.go: an index stored under a key of
// the document's and profile's hashes, the provider name and the
// compiling code's identity; Origin tells how it was obtained), which
// definitions may name credential variables (trust.go), the credentials a
// provider's requests would carry (Credentials), and typed discovery
// (discovery.go: providers, services, tables, describe) with the one
// default-provider rule (DefaultProvider), and the closest names of what
// it does not have (suggest.go: *NotFound's suggestions, ShortName for a
// table name of one or two parts).
//
// Every surface reads the catalog through these: SQL SHOW / DESCRIBE
// (engine), the MCP discovery tools (mcpsurface), shell completion, error
// advice and check. Each surface phrases the catalog's errors (*Error,
// *NotFound) in its own terms (a SQL statement, a tool to call).
//
// The catalog knows nothing of SQL text, plans, requests or output: it
// must not import the other engine packages (sqlfront, plan, exec, store,
// result) nor make HTTP requests; it reads definitions and the compiled
// index store, nothing else.
package catalog
