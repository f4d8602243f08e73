// Package pg is the Postgres endpoint (engine pg): the PostgreSQL v3
// wire protocol (jackc/pgx's pgproto3) over the engine and its catalog,
// a sibling of the MCP surface, so that psql, drivers (pgx, psycopg,
// JDBC, node-postgres) and BI tools query the providers' APIs.
//
// A connection's database is a provider (psql -d github): a two-part
// table name (repos.repos, a Postgres schema.table) is qualified with it
// (sqltext.go), and the pg_catalog and information_schema tables that
// clients read to browse a schema are answered from the provider catalog
// in a SQLite database of their own (system.go). Statements run through
// Engine.Query with its row callbacks: each row is written to the client
// as it comes, flushed every 64 KiB, so a result of any size streams in
// bounded memory (conn.go). Every engine error is an ErrorResponse with a
// SQLSTATE by kind and the engine's error fields in its detail
// (errors.go); nothing failed is ever an empty result.
//
// It imports no other surface; cmd/engine/pg.go starts it. docs/pg.md is
// the user's guide.
package pg
