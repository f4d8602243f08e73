// Package exec runs a Plan: it fetches every scan through the provider's
// Fetcher (the HTTP client, *client.Client; engine/enginetest's fake in
// the in-process harness), fanning IN lists out concurrently, bounded,
// materialises the items into a store as the pages arrive (each call of a
// fan-out loads its own store.Part, so the table reads in call order then
// page order whatever the timing of the answers), then runs the plan's
// SQLite text and returns the typed result (or streams its rows to
// Options.Rows). It runs the plan as built: it changes nothing in it.
//
// A dependent scan's requests are counted before they are built: its
// literal combinations by arithmetic and its source tuples by count(*) in
// SQLite, so --max-requests refuses a fan-out of millions in constant
// memory (the plan's Requests does the arithmetic and phrases the
// refusal).
//
// Any failed request of any scan fails the whole statement: a result is
// never returned from partial data. A fan-out's call refused for its own
// key (403, 404, 410, 422, 451; keyed.go) lets the other calls finish so
// that the error names every failing key (KeyedError); any other failure
// stops the statement at once. Options.Failed receives what a failed
// statement cost. exec must not parse SQL or know MCP.
package exec
