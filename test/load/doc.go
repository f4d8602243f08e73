// Package load is the load test of the MCP HTTP transport: 64 concurrent
// run_select_query calls against `engine mcp --transport http` (the real
// binary, once as built normally and once built with -race) while the fake
// GitHub server answers about one request in ten with 503 or 429. Every
// call must end in its exact result or a retryable error with the injected
// status; the server's peak RSS must stay bounded; the figures (successes,
// retryable errors, latency percentiles, peak RSS) are logged.
//
// It owns no production code, must not be imported, and must not change
// engine, providers, mcpsurface or cmd.
package load
