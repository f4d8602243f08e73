// Package openapi derives provider resources from an OpenAPI 3 document
// (loaded with kin-openapi, external $refs off) and turns them into a
// providers.Provider or an encoded index.
//
// Only GET operations become methods. The only prose copied out of the
// document is each table's one-line summary and its columns' descriptions
// (see "Descriptions" below).
//
// # Downloads are not tables
//
// A GET whose documented success answers are only redirects (3xx other
// than 304) or bodies that are neither JSON nor text (text/*, or */* with
// a string schema that is not binary) is left out: its
// answer is an archive or a binary, not rows, and reading it would
// download the whole file to produce one row of WHERE values. A 2xx without
// a body (204, ShapeNone) or with plain text (ShapeText) stays. In GitHub's
// description (639 GETs) this leaves out 9, so the index has 630 methods:
//
//	actions/download-artifact                   302 to the archive
//	actions/download-job-logs-for-workflow-run  302 to the log
//	actions/download-workflow-run-attempt-logs  302 to the log archive
//	actions/download-workflow-run-logs          302 to the log archive
//	migrations/download-archive-for-org         302 to the archive
//	migrations/get-archive-for-authenticated-user  302 to the archive
//	repos/download-tarball-archive              302 to codeload
//	repos/download-zipball-archive              302 to codeload
//	meta/get-octocat                            application/octocat-stream
//
// # Resource naming rule
//
// A group is the set of GET operations that share a service and a
// resource name; it becomes one table per entity (below), whose SQL name
// is provider.service.resource.
//
//   - Operations with an x-github extension holding category and
//     subcategory: service = snake_case(category), resource =
//     snake_case(subcategory) (e.g. "branches"/"branch-protection" gives
//     branches.branch_protection).
//   - Otherwise: service = snake_case(first tag) without leading version
//     words (Twilio's tag "Api20100401Call" gives call), or, for untagged
//     operations, the first path segment. Path segments here are the
//     non-parameter segments of the path template in snake_case, with a
//     format suffix dropped (Calls.json is calls), a trailing read verb of
//     a dotted method name dropped (Slack's /conversations.list and
//     /conversations.history are conversations), and version segments
//     skipped: "v1", "v2beta1", "v2_1", numbers and dates ("3",
//     "2010-04-01"), "api", and "rest" when it opens the path (Jira's
//     /rest/api/3/issue gives issue, not rest). The resource is the first
//     segment after the service's own segment (or, when the service name
//     does not occur in the path, the first segment) that differs from the
//     service name, singular and plural counting as the same (tag
//     "Issues", segment "issue"); when there is none, the resource is
//     named after the service. Example: tag "pets", GET /pets and GET
//     /pets/{petId} give pets.pets; GET /pets/{petId}/toys gives pets.toys.
//   - A GET with no tag and no name segment (GET / or GET /{bucket}, as in
//     S3) is named after its operationId without a leading get/list/read/
//     fetch/describe/retrieve ("ListBuckets" gives buckets.buckets), else
//     after the document's title; it never refuses the document.
//   - A name part that would start with a digit gets the prefix "n" (tag
//     "3ds" gives n3ds), so that every name SHOW RESOURCES prints parses
//     back; reserved words are fine as the parts of a dotted name
//     (p.order.order).
//
// snake_case lower-cases, splits camelCase words and turns any run of
// characters other than letters and digits into one underscore; an
// acronym's plural stays one word ("floatingIPs" gives floating_ips,
// "VPCs" vpcs).
//
// # Side-effecting GETs are not tables
//
// A GET whose operation name says it changes state is left out and listed
// in the header's Skipped with the reason (engine registry list
// --verbose): the operationId after its last '/' or '.', in snake_case,
// starts with a change verb (delete, remove, create, update, revoke,
// uninstall, reset, send, trigger, cancel, archive, set, add, open, close,
// ...) or ends in an unambiguous one (auth_revoke, apps_uninstall,
// chat_delete), and the operationId holds no read word (get, list, read,
// fetch, describe, show, check, search, query, info, history, status, ...:
// Azure's Trigger_Get stays); or its RPC-style path ends in a dotted change verb
// (Slack's /dialog.open, /views.publish); or, when its operationId holds
// no read word, its summary starts with an unambiguous change verb
// ("Revokes a token."). Over APIs.guru's 2,639 descriptions this leaves
// out 61 of 57,535 GETs (Slack's auth.revoke, apps.uninstall,
// views.open; Etherpad's createGroup, deletePad; httpbin's
// /cookies/delete; ZoomConnect's /sms/send). GitHub operations
// (x-github) are not judged.
//
// # Entity tables
//
// The operations of one service/resource pair (a GitHub subcategory) are
// then split so that every table's rows are one entity: each method's
// entity is the component schema of one item of its answer (the array's
// items, the wrapped property's items, or the object itself), with detail
// levels merged by dropping the prefixes nullable-, minimal-, simple-,
// full-, public-, private-, basic-, base-, short-, organization- and the
// suffixes -simple, -full, -minimal, -short, -summary, -items, -detailed,
// -with-repository, -with-protection, -with-metadata, -with-state
// (minimal-repository, repository and full-repository are one table;
// simple-user and public-user likewise). A dotted component name is named
// after its last part (Kubernetes' io.k8s.api.core.v1.Pod gives pod; the
// whole name stays the entity's key). A named list of unnamed items
// (rule-suites) holds its singular (rule-suite). An item schema without a
// component name is its own entity, identified by its column names, and
// its table is named after its method without a leading get_/list_ and a
// trailing _for_org, _for_repo, _for_user, _for_authenticated_user ...
// (github.activity.stargazer_count), or, on a clash, the method's name.
//
// Methods that answer without a JSON body (204 checks such as
// repos/check-collaborator, or text such as meta/get-zen) are each a table
// of their own, named after the method (github.collaborators.check_collaborator):
// their one row of bound parameters means "GitHub answered 2xx", which is
// not a row of any entity. Such a method without parameters (GET /ping
// answering 204) has the one column ok (true), added by the engine. Items that are not objects with properties
// (string lists, free-form maps) are likewise a table per method, with the
// column "value". Downloads are not tables at all (above).
//
// Names: the table holding the group's main entity keeps the group's name
// (github.repos.repos, github.orgs.members, github.pulls.pulls). The main
// entity is the one the overrides name, else the one whose name is the
// group's name (singular or plural), else the one with most methods (ties:
// the shortest path). Other tables are named for their entity: the plural
// of its snake_case name without the words that repeat the service and
// without _search_result_item (github.repos.contributors,
// github.search.repos, github.search.code, github.orgs.invitations); a
// name already taken in the service gets the group's name as a prefix. The
// overrides file (TableNames, section "tables") gives the exceptions with
// a reason each: which entity is the main one (orgs.members: the users,
// not the invitations), entity base names and single table names; an
// entry that matches nothing is an error, and so is a clash the rule
// cannot resolve. docs/tables.md lists every table. A document without an
// overrides file (--provider) is never refused for a clash: the later
// table gets a suffix _2, _3, ...
//
// # Identifiers
//
// Parameters and columns keep the API's spelling: their SQL name is the
// name as written (subscriptionId, AccountSid, createdAt), which SQL binds
// and reads ignoring case (WHERE subscriptionid = ... binds
// subscriptionId; the URL and the JSON key read from items use the API's
// spelling). Within one table, names equal ignoring case but spelled
// differently (columns organizerKey and OrganizerKey, a parameter id and
// a column Id) are told apart: in a fixed order (parameters before
// columns, then byte order of the spelling) the first keeps its name and
// each other gets a suffix _2, _3, ... (OrganizerKey, organizerKey_2,
// Id_2); Param.API and Column.API then hold the API's spelling, and
// DESCRIBE and the MCP describe_resource tool say "API name: ...". A
// parameter and a column spelled exactly alike stay one name (the bound
// value is the column). A query parameter spelled like a path parameter
// of the same method is one name with it: the value goes in the path and
// in the query (Trello's /tokens/{token}?token=). Names that are not
// plain SQL identifiers (2fa, full-name) and reserved words (key, ssl)
// are read with backticks; the engine's hints and errors write them so
// (WHERE `api-version` = '...'), and a syntax error at a reserved word
// says to.
//
// # Methods
//
// Method.Name is the part of the operationId after its last '/', in
// snake_case ("repos/list-for-org" gives "list_for_org"); without an
// operationId it is "get_" plus the path's segments, parameters written as
// "by_<name>". Clashes within one resource get suffixes _2, _3, ... in path
// order. Parameters are the path, query and header parameters (path-item
// level ones included, operation-level ones winning; not the transport's
// own headers such as Accept or Authorization); path parameters are
// always required; header parameters are bound from WHERE like query
// parameters and sent as headers. page and per_page together are not
// listed: they set Paginated (Link headers). A page without per_page is
// left to the paging inference (paging.go): the engine sends only
// parameters the method declares. Cursor parameters (before, after,
// cursor) stay ordinary optional parameters unless a paging owns them. Parameter types: string TEXT, integer INTEGER,
// number REAL, boolean BOOLEAN, anything else TEXT.
//
// # Shapes and columns
//
// The response used is 200, else the lowest other 2xx, with an
// application/json (else any *json) body:
//
//   - no 2xx body (204, redirects): ShapeNone, no columns;
//   - a text body (text/*, or */* with a non-binary string schema, as
//     Kubernetes declares a pod's log) and no JSON one: ShapeText, the
//     whole text in the value column (TEXT);
//   - an array, or a oneOf/anyOf whose alternatives are all arrays:
//     ShapeArray, columns from the item schema(s);
//   - an object with exactly one array-of-objects property that the
//     operation shows to be a list (listKey in derive.go): a paging
//     parameter (page, per_page, limit, offset, cursor, page_token,
//     starting_after, maxResults, ...); an operation named list
//     (/users.list, listUsers, users/list-for-org); the path's last named
//     segment naming the array, singular or plural (/git/trees/{sha} and
//     its tree); a path ending in a name, not a parameter, with the array
//     named like rows (items, data, results, values, records, entries,
//     ...); a paging field in the answer (has_more, next_cursor,
//     next_page_token, nextLink, isLast, total_pages, total_records, ...,
//     at its top or in an object beside the array: Slack's
//     response_metadata.next_cursor); a total_count; or nothing but
//     paging and metadata beside the array (links, meta, metadata,
//     response_metadata, ok, kind, apiVersion, object, url, href, self,
//     total, count, page, page_size, start, end, offset, limit, ...: see
//     envelopeFields), except on one entity's path (ending in a
//     parameter) where such tags beside an array not named like rows
//     are the entity itself (Kubernetes' ComponentStatus {apiVersion,
//     kind, metadata, conditions} at /componentstatuses/{name} is one
//     row); or, beside the array, only such fields and properties named
//     like the operation's query parameters, which echo the request
//     (Zoom's {dates, year, month} for ?year=&month=). ShapeWrapped with
//     ItemKey = that property, columns
//     from its items. DigitalOcean {droplets, links, meta}, Slack {ok,
//     members, cache_ts, response_metadata}, Kubernetes {items, metadata,
//     kind, apiVersion}, Jira {values, isLast, startAt, maxResults,
//     total}, Stripe {object, data, has_more, url}, Twilio {calls, page,
//     page_size, uri, next_page_uri, ...}, Zoom {from, to,
//     next_page_token, users} all give one row per item. The counts of
//     sibling scalars do not decide: an item at /categories/{id} with its
//     icons and a name, or a branch's status-check policy with its
//     checks, is one row;
//   - an object whose only property beside envelope fields is an object
//     that is a list by the rule above: ShapeWrapped with a dotted ItemKey
//     (Spotify {categories: {items, next, total, ...}} gives
//     "categories.items"); on an operation with a paging parameter,
//     scalars may sit beside that object when it holds nothing but its
//     array and paging or metadata (Spotify {message, playlists: {href,
//     items, limit, next, offset, previous, total}} gives
//     "playlists.items");
//   - an operation named in the profile's tables.rows: the shape given
//     there (object, array, or wrapped with a dotted key);
//   - any other object: ShapeObject.
//
// allOf is merged; a top-level oneOf/anyOf contributes the union of its
// alternatives' properties. A schema without a type is read by its
// keywords: properties, additionalProperties or required make an object;
// items alone an array, except items holding alternatives of objects
// (items: {anyOf: [A, B]}, Swagger 2's items: [A, B] as converters write
// it, Slack's objs_conversation), which is one value, A or B. Column types: string TEXT, integer INTEGER,
// number REAL, boolean BOOLEAN, and JSON for objects, arrays, mixed or
// unknown types (a property whose alternatives disagree is JSON). Columns
// are sorted by name and unique. Items that are not objects (e.g. arrays of
// strings, a plain string body) yield no columns: the engine stores each
// whole in a value column whose type (Method.ValueType) is the items'
// scalar type when the schema declares one, else JSON.
//
// Method.Accept is the Accept header of a method whose success answer is
// not declared as application/json: its +json media types
// (application/jwk-set+json), else its text/* types; a method whose
// answer is one string also accepts the text/* types declared beside
// JSON (Kubernetes serves a pod's log as text/plain).
//
// # Descriptions
//
// Resource.Summary is the entity, written as its item schema's description when that is a
// sentence (else its title without detail-level words such as Minimal or
// Simple, else the schema's name in the components): "A GitHub user.".
// A table of several methods is never described by one of them (each
// reads its own subset of the rows: "List repositories for the
// authenticated user"); a table of one method adds its summary.
// Method.Summary is the operation's own summary. Resource.Docs maps each
// column to its schema description (first method describing it wins).
// Summaries and descriptions are cut to the first sentence, markdown links reduced to their
// text, at most 120 bytes. DESCRIBE and the MCP describe_resource tool
// show them; the GitHub index stays under 1 MB with them.
//
// Param.Enum and Param.Default are a parameter's enum (scalar strings or
// integers, nulls dropped; enums on array items, of booleans or of mixed
// types are not kept) and its scalar default, as the API reads them: the
// planner refuses a literal outside the enum, DESCRIBE shows both.
//
// # Provider header
//
// BaseURL is servers[0].url (may be empty; the user then supplies a base
// URL), Version is info.version. Nothing here is GitHub's: headers, token
// variables, rate-limit headers, error fields and pagination come from the
// provider's profile (profile.go; GitHub's is registry/profiles/github.json,
// compiled in by cmd/indexgen). Only a built-in profile (BuildIndex) sets
// the token variables: a document loaded with --provider, with a profile
// or not, x-github or not, gets credentials only from --auth for its name.
// Header.Profile.ErrorMessage is the
// error field the document's error schemas agree on, unless the profile
// names one.
//
// # Pagination
//
// page and per_page make a method Paginated (Link headers). Other styles
// (providers.Paging: cursor, next URL, offset, numbered pages) are
// inferred where the document shows a request parameter and the response
// property feeding it (paging.go), or declared in the profile per
// operation or as a default; their parameters are then sent by the
// client, not listed as method parameters.
//
// # External references
//
// A $ref to a file the document does not include is not followed; the
// GETs whose parameters or success answers reach one are left out and
// listed in the header's Skipped with the reference (extrefs.go), and the
// rest of the document loads.
//
// # Compiling at run time
//
// Compile turns a document (plain or gzip, at most 512 MiB once
// decompressed) and an optional profile (a profile file (ProfileFile)) into the same
// encoded index cmd/indexgen writes, refusing a document that derives no
// table. Only the built-in provider's own description (`engine registry
// pull github`) gets the token variables; --provider and `engine registry
// add` documents get credentials from --auth only, with or without a
// profile. The engine stores the result (registry.Store) under a key that
// includes CompilerID, the identity of this code, so an index is only
// reused by an engine that would have compiled the same one.
//
// # Absence, redirects and partial answers
//
// Which answers mean "no rows" is data, not code: a profile file (ProfileFile) (see
// ParseProfileFile) committed next to the generator gives, per operationId,
// one status and the exact message (or a message pattern) the provider
// sends for "absent", with a reason; a status alone is refused, as are
// 401, 403, 429, 5xx and statuses the operation does not document. The
// file also records the operations reviewed and left without a rule
// (not_absent, with the reason), advice for operations answered with a
// redirect (redirects), the provider's "partial answer" flag
// (incomplete: every method whose 2xx JSON response declares that boolean
// property gets Method.IncompleteFlag), and its cap on the results of one
// query with, per operation, how a query is split into date ranges
// (result_cap: Method.Cap).
package openapi
