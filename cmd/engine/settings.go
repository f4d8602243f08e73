package main

// settings is the one inventory of the command line's settings: each
// flag's subcommand, its environment variable and how the variable's
// value is read, and, for a numeric setting, which values it takes (the
// rule in limits.go). Precedence: command line, then environment, then
// config file, then the flag's default; help text shows each variable
// after its flag's usage. (ENGINE_BASE_URL_<NAME>, one variable per
// provider, is read where the base URLs are:
// globalFlags.engineOptions.) An entry whose flag does not exist panics
// at start (documentEnv), and so fails every test.
type setting struct {
	cmd  string // the subcommand whose flag it is, "" for the global flags
	flag string
	// env is the flag's environment variable, "" when it has none.
	env   string
	parse envParse
	// numeric: a bound that is a positive number (checkBounds).
	numeric bool
	// lift: -1 means "no bound".
	lift bool
	// zeroMeans is what 0 means when it means something, else "".
	zeroMeans string
	// positive: a duration whose 0 means nothing (each other duration
	// says in its help what 0 means: --query-timeout 0, none).
	positive bool
}

var settings = []setting{
	{flag: "config", env: "ENGINE_CONFIG"},
	{flag: "max-pages", env: "ENGINE_MAX_PAGES", numeric: true, lift: true},
	{flag: "concurrency", env: "ENGINE_CONCURRENCY", numeric: true, zeroMeans: "as many as --max-concurrency"},
	{flag: "max-requests", env: "ENGINE_MAX_REQUESTS", numeric: true, lift: true},
	{flag: "retry-max", env: "ENGINE_RETRY_MAX", numeric: true, zeroMeans: "no retry"},
	{flag: "max-retry-wait", env: "ENGINE_MAX_RETRY_WAIT", positive: true},
	{flag: "request-timeout", env: "ENGINE_REQUEST_TIMEOUT", positive: true},
	{flag: "query-timeout", env: "ENGINE_QUERY_TIMEOUT"},
	{flag: "max-body-bytes", env: "ENGINE_MAX_BODY_BYTES", numeric: true},
	{flag: "max-value-bytes", env: "ENGINE_MAX_VALUE_BYTES", numeric: true},
	{flag: "cache-ttl", env: "ENGINE_CACHE_TTL"},
	{flag: "no-cache", env: "ENGINE_NO_CACHE", parse: envBool},
	{flag: "cache-dir", env: "ENGINE_CACHE_DIR"},
	{flag: "cache-max-bytes", env: "ENGINE_CACHE_MAX_BYTES", numeric: true},
	{flag: "rate", env: "ENGINE_RATE"},
	{flag: "search-rate", env: "ENGINE_SEARCH_RATE"},
	{flag: "code-search-rate", env: "ENGINE_CODE_SEARCH_RATE"},
	{flag: "governor", env: "ENGINE_GOVERNOR", parse: envBool},
	{flag: "max-concurrency", env: "ENGINE_MAX_CONCURRENCY", numeric: true, lift: true},
	{flag: "state", env: "ENGINE_STATE"},
	{flag: "state-timeout", env: "ENGINE_STATE_TIMEOUT", positive: true},
	{flag: "state-cache-max-bytes", env: "ENGINE_STATE_CACHE_MAX_BYTES", numeric: true},
	{flag: "debug", env: "ENGINE_DEBUG", parse: envBool},
	{cmd: "mcp", flag: "max-rows", env: "ENGINE_MCP_MAX_ROWS", numeric: true, lift: true},
	{cmd: "mcp", flag: "max-cell-bytes", env: "ENGINE_MCP_MAX_CELL_BYTES", numeric: true, lift: true},
	{cmd: "mcp", flag: "max-bytes", env: "ENGINE_MCP_MAX_BYTES", numeric: true, lift: true},
	{cmd: "mcp", flag: "max-resource-bytes", env: "ENGINE_MCP_MAX_RESOURCE_BYTES", numeric: true},
	{cmd: "mcp", flag: "keep-results", env: "ENGINE_MCP_KEEP_RESULTS", numeric: true},
	{cmd: "mcp", flag: "keep-bytes", env: "ENGINE_MCP_KEEP_BYTES", numeric: true},
	{cmd: "mcp", flag: "keep-for", env: "ENGINE_MCP_KEEP_FOR", positive: true},
	{cmd: "mcp", flag: "max-tasks", env: "ENGINE_MCP_MAX_TASKS", numeric: true},
	{cmd: "mcp", flag: "max-sessions", env: "ENGINE_MCP_MAX_SESSIONS", numeric: true, lift: true},
	{cmd: "mcp", flag: "session-idle", env: "ENGINE_MCP_SESSION_IDLE"},
	{cmd: "mcp", flag: "session-grace", env: "ENGINE_MCP_SESSION_GRACE", positive: true},
	{cmd: "mcp", flag: "http-read-timeout", env: "ENGINE_MCP_HTTP_READ_TIMEOUT"},
	{cmd: "mcp", flag: "http-write-timeout", env: "ENGINE_MCP_HTTP_WRITE_TIMEOUT"},
	{cmd: "mcp", flag: "http-idle-timeout", env: "ENGINE_MCP_HTTP_IDLE_TIMEOUT"},
	{cmd: "mcp", flag: "max-connections", env: "ENGINE_MCP_MAX_CONNECTIONS", numeric: true},
	{cmd: "mcp", flag: "oauth-issuer", env: "ENGINE_MCP_OAUTH_ISSUER"},
	{cmd: "mcp", flag: "oauth-resource", env: "ENGINE_MCP_OAUTH_RESOURCE"},
	{cmd: "mcp", flag: "oauth-jwks-url", env: "ENGINE_MCP_OAUTH_JWKS_URL"},
	{cmd: "mcp", flag: "oauth-scope", env: "ENGINE_MCP_OAUTH_SCOPE"},
	{cmd: "mcp", flag: "tokens-file", env: "ENGINE_MCP_TOKENS_FILE"},
	{cmd: "pg", flag: "listen", env: "ENGINE_PG_LISTEN"},
	{cmd: "pg", flag: "password-file", env: "ENGINE_PG_PASSWORD_FILE"},
	{cmd: "pg", flag: "tls-cert", env: "ENGINE_PG_TLS_CERT"},
	{cmd: "pg", flag: "tls-key", env: "ENGINE_PG_TLS_KEY"},
	{cmd: "pg", flag: "max-connections", env: "ENGINE_PG_MAX_CONNECTIONS", numeric: true},
	{cmd: "pg", flag: "idle-timeout", env: "ENGINE_PG_IDLE_TIMEOUT"},
	{cmd: "check", flag: "allow-file-credentials", env: "ENGINE_ALLOW_FILE_CREDENTIALS", parse: envBool},
	{cmd: "check", flag: "run-timeout", env: "ENGINE_RUN_TIMEOUT"},
	{cmd: "exec", flag: "run-timeout", env: "ENGINE_RUN_TIMEOUT"},
	{flag: "page-concurrency", numeric: true, zeroMeans: "as many as --max-concurrency"},
	{cmd: "mcp", flag: "max-body", numeric: true},
	{cmd: "check", flag: "parallel", numeric: true},
	{cmd: "check", flag: "max-rows", numeric: true},
}
