// Package plan turns an analysed query into a Plan: for each provider table
// the method to call, the parameter values bound from WHERE and ON
// predicates, the columns the materialised table will have, the SQLite
// text to run (sqlite.go: the user's text edited at the spans the front end
// recorded; plan never calls back into the front end), and the request
// estimate. A Plan is a value: it prints
// (EXPLAIN) and can be tested without any network.
//
// Method choice follows stackql's rule, and the way steampipe tables
// declare key columns: a method qualifies when every required parameter
// is bound by an equality or IN predicate; among those the one binding the
// most required parameters wins, then the one with the most optional
// parameters bound, then a method with a JSON body over one without, then
// the shortest path. A four-part name (github.repos.repos.list_for_user)
// forces a method.
//
// Before anything is sent, Build refuses what cannot be right: a column
// reference that can only mean a table (sqlfront.TableRef.ColumnRefs) but
// that its chosen method does not return (the error names the nearest
// columns by edit distance or by the words they hold), a key of a JSON
// column read as a name part (p.user.login: TableRef.PathRefs; the error
// says p.user ->> 'login'), an unbound parameter read as a column, and a
// parameter bound from a literal that SQLite reads differently from the
// API (double-quoted strings, TRUE/FALSE for non-boolean parameters,
// floats, integers not written as SQLite prints them).
//
// A Plan is final when Build returns it: Scan.Limit, the LIMIT pushdown,
// is kept only when Options.Prover (store.Prover: SQLite's EXPLAIN of the
// statement, since only SQLite knows which of its functions aggregate)
// proves a plain scan, and the literal request estimate is checked
// against Options.MaxRequests. Plan.Requests carries the same arithmetic
// into the run, for the fan-outs whose bindings come from other tables.
//
// plan must not perform I/O itself: no HTTP, and SQLite only through
// Options.Prover.
package plan
