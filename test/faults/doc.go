// Package faults is the cross-surface fault-injection suite: one matrix of
// the fake GitHub server's faults (every error status on page 1 and on the
// last page, connection reset, timeout, malformed, truncated and oversized
// bodies, a Link loop) run against `engine exec`, `engine mcp` over stdio
// (one long-lived server process for the whole matrix) and `engine check`,
// plus an in-process test that a cancelled query leaves no goroutines.
//
// It asserts only what a user of each surface sees (exit codes, error
// objects, row counts) and owns no production code; it must not be
// imported, and it must not change engine, providers, mcpsurface or cmd.
package faults
