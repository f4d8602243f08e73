// Package orgscale holds the end-to-end tests of shared state (--state
// redis://...; docs/orgscale.md): several engine processes on one
// credential against a fake GitHub that models its limiter, sharing the
// governor's windows and slots, the response cache and MCP kept results
// through a redis-server each test starts itself (testutil.StartRedis; a
// machine without redis-server fails, naming .ci/run's install). The
// figures they measure are logged (go test -v); assertions are counts.
package orgscale
