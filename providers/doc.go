// Package providers owns the provider model (providers, services, resources,
// methods, parameters and columns), its compact index encoding, the typed
// ProviderError, and (in sub-packages) OpenAPI derivation and the HTTP
// client that executes methods.
//
// The model is deliberately SQL-agnostic: a Method says which parameters it
// requires and which columns its items have; the engine decides how a SQL
// statement binds them. providers must not import engine, mcpsurface or cmd.
//
// Resource naming rule (GitHub and any OpenAPI document): a resource is the
// set of GET operations that share a service and a resource name. For
// documents with x-github extensions the service is the x-github category
// and the resource its subcategory, both in snake_case. For other documents
// the service is the operation's first tag (or the first path segment when
// untagged) and the resource is the first non-parameter path segment after
// the service's own segment that differs from the service name (or the
// service itself); version segments ("v1", "v2_1", "2010-04-01", Jira's
// "rest/api/3") are skipped, acronym plurals stay one word (floating_ips),
// a GET at "/" or "/{param}" is named after its operationId or the
// document's title, and GETs whose operation name says they change state
// (auth.revoke) are not tables but listed in Header.Skipped. Parameters and
// columns keep the API's spelling as their SQL name and are matched
// ignoring case (Method.Param, Method.Column); names of one table equal
// ignoring case get a suffix, and Param.API / Column.API keep the API's
// spelling (Param.Key, Column.Key). Each such
// group is then split into one resource per entity (the item schema, detail
// levels merged), so that all methods of a resource return rows of one
// shape. Package openapi documents the rule in full.
package providers
