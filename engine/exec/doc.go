// Package exec runs a Plan: it fetches every scan through the provider's
// HTTP client (fanning IN lists out concurrently, bounded), materialises
// the items into a store as the pages arrive (a fan-out's calls take turns
// at the table; each row's rowid keeps call order then page order, so the
// result does not depend on the timing of the answers), then runs the
// plan's SQLite text and returns the typed result (or streams its rows to
// Options.Rows).
//
// A dependent scan's requests are counted before they are built: its
// literal combinations by arithmetic and its source tuples by count(*) in
// SQLite, so --max-requests refuses a fan-out of millions in constant
// memory.
//
// Any failed request of any scan fails the whole statement: a result is
// never returned from partial data. exec must not parse SQL or know MCP.
package exec
