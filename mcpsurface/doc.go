// Package mcpsurface owns the engine's MCP server: its tools
// (run_select_query, fetch_result_page and the discovery tools list_providers,
// list_services, list_resources, describe_resource), the result resource
// template engine://results/{id}, the row and byte caps, the TSV rendering
// of results, the mapping of engine errors to MCP error results, the store
// of kept results (an SQLite database of the server's own) and the stdio and
// streamable HTTP transports with their protections (HTTP: browser origins
// only from loopback or --allow-origin, loopback Host on loopback, bounded
// bodies, at most --max-sessions sessions with idle expiry, the least
// recently used idle one closed to make room, and, optionally, bearer-token
// authorization (auth.go: an OAuth 2.1 resource server or static tokens)
// with kept results served only to the principal that made them).
//
// Memory does not grow with a result: run_select_query takes the rows as
// they stream out of SQLite (engine.QueryOptions.Rows), keeps in memory
// only those the caps could show, and spools every row to a file in the
// result store's private directory, which is loaded into the store
// (Store.Keep) when the statement ends, unless it passed --keep-bytes.
// A cell longer than --max-cell-bytes is cut, with a marker, in the reply
// only. Protocol 2026-07-28 is served over HTTP statelessly, next to the
// sessions of older versions.
//
// For a client that declares the MCP Apps extension, run_select_query
// links an interactive view of its result (app.go: the ui:// resource, an
// HTML page embedded from app/); other clients see nothing of it.
//
// Contracts are the "MCP contract" of docs/architecture.md: a success is isError false with
// columns, rows, the true row_count and a TSV text block; a failure is
// isError true with {"error": engine.ErrorBody}, never empty rows.
//
// Every tool is registered in one way (tool.go): addTool for a tool with
// typed structured output (mcp.AddTool[In, Out], the output schema
// inferred from Out, its error an optional field) or addTextTool for a
// text-only tool, both over one wrapper that maps errors to isError
// results and logs each result. Handlers take the request's context and
// return (reply, error). Adding a tool is its handler and one add call in
// one file, plus its schema snapshot in testdata/toolsnaps (go test
// ./mcpsurface -run TestToolSnaps -update). Bad arguments are kind usage,
// those the input schema refuses included (argumentErrors, a receiving
// middleware: the SDK checks the schema before the handler runs).
//
// For a client that declares the tasks extension, run_select_query runs
// as a task (tasks.go: a receiving middleware, since the SDK has none):
// the call answers at once, tasks/get reports status, progress and the
// result, tasks/cancel cancels the statement's own context; at most
// Config.MaxTasks run at once, and each belongs to its principal.
//
// The server declares the tools and resources capabilities and the tasks
// extension, and serves nothing else (capabilities.go answers the methods the SDK would serve
// regardless, prompts and logging, "method not found"). Progress
// notifications carry a total when the plan knows the first-page
// requests (engine.QueryOptions.Estimate). See docs/mcp.md, "Protocol".
//
// mcpsurface imports engine (and engine/result, providers for discovery);
// it must not import cmd, and engine must never import it.
package mcpsurface
