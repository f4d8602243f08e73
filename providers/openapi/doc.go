// Package openapi derives provider resources from an OpenAPI 3 document
// (loaded with kin-openapi, external $refs off) and turns them into a
// providers.Provider or an encoded index.
//
// Only GET operations become methods. No prose (summaries, descriptions)
// is copied out of the document.
//
// # Resource naming rule
//
// A resource is the set of GET operations that share a service and a
// resource name; its SQL name is provider.service.resource.
//
//   - Operations with an x-github extension holding category and
//     subcategory: service = snake_case(category), resource =
//     snake_case(subcategory) (e.g. "branches"/"branch-protection" gives
//     branches.branch_protection).
//   - Otherwise: service = snake_case(first tag), or, for untagged
//     operations, the first path segment. Path segments here are the
//     non-parameter segments of the path template in snake_case, with API
//     version prefixes ("v1", "v2beta", "api") skipped. The resource is the
//     first segment after the service's own segment (or, when the service
//     name does not occur in the path, the first segment) that differs from
//     the service name; when there is none, the resource is named after the
//     service. Example: tag "pets", GET /pets and GET /pets/{petId} give
//     pets.pets; GET /pets/{petId}/toys gives pets.toys.
//
// snake_case lower-cases, splits camelCase words and turns any run of
// characters other than letters and digits into one underscore.
//
// # Methods
//
// Method.Name is the part of the operationId after its last '/', in
// snake_case ("repos/list-for-org" gives "list_for_org"); without an
// operationId it is "get_" plus the path's segments, parameters written as
// "by_<name>". Clashes within one resource get suffixes _2, _3, ... in path
// order. Parameters are the path and query parameters (path-item level ones
// included, operation-level ones winning); path parameters are always
// required. page and per_page are not listed: their presence sets
// Paginated. Cursor parameters (before, after, cursor) stay ordinary
// optional parameters. Parameter types: string TEXT, integer INTEGER,
// number REAL, boolean BOOLEAN, anything else TEXT.
//
// # Shapes and columns
//
// The response used is 200, else the lowest other 2xx, with an
// application/json (else any *json) body:
//
//   - no 2xx JSON body (204, redirects, text): ShapeNone, no columns;
//   - an array, or a oneOf/anyOf whose alternatives are all arrays:
//     ShapeArray, columns from the item schema(s);
//   - an object with exactly one array-of-objects property and either a
//     total_count property, or no other array property and at most three
//     other properties, all scalars: ShapeWrapped with ItemKey = that
//     property, columns from its items (an object with more scalars, such
//     as a runner with its labels, is one item, not a wrapper);
//   - any other object: ShapeObject.
//
// allOf is merged; a top-level oneOf/anyOf contributes the union of its
// alternatives' properties. Column types: string TEXT, integer INTEGER,
// number REAL, boolean BOOLEAN, and JSON for objects, arrays, mixed or
// unknown types (a property whose alternatives disagree is JSON). Columns
// are sorted by name and unique. Items that are not objects (e.g. arrays of
// strings) yield no columns.
//
// # Provider header
//
// BaseURL is servers[0].url (may be empty; the user then supplies a base
// URL), Version is info.version. A GitHub document (provider name "github"
// or operations carrying x-github) gets Link pagination, the token
// variables GITHUB_TOKEN and GH_TOKEN and the Accept and
// X-GitHub-Api-Version headers. Other documents get Link pagination only
// when some method takes page/per_page.
//
// # Absent statuses
//
// Which HTTP statuses mean "no rows" is data, not code: an Overrides file
// (see ParseOverrides) committed next to the generator lists them per
// operationId, with a reason. 401, 403, 429 and 5xx are refused, as are
// statuses the operation does not document.
package openapi
