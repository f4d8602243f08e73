package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// envParse says how an environment variable's value sets its flag.
type envParse int

const (
	// envValue: the value is parsed as the flag's own (a number, a
	// duration, a rate); an empty value counts as unset.
	envValue envParse = iota
	// envBool: a boolean, true/1/on/yes or false/0/off/no in any case
	// (parseBool, the config file's rule too); any other value is an
	// error naming the variable.
	envBool
)

// envVar binds a flag to an environment variable.
type envVar struct {
	cmd   string // the subcommand whose flag it is, "" for the global flags
	flag  string
	name  string
	parse envParse
}

// envTable is the one table of flags and their environment variables.
// Precedence: command line, then environment, then config file, then the
// flag's default. Help text shows each variable after its flag's usage.
// (ENGINE_BASE_URL_<NAME>, one variable per provider, is read where the
// base URLs are: globalFlags.engineOptions.)
var envTable = []envVar{
	{"", "config", "ENGINE_CONFIG", envValue},
	{"", "max-pages", "ENGINE_MAX_PAGES", envValue},
	{"", "concurrency", "ENGINE_CONCURRENCY", envValue},
	{"", "max-requests", "ENGINE_MAX_REQUESTS", envValue},
	{"", "retry-max", "ENGINE_RETRY_MAX", envValue},
	{"", "max-retry-wait", "ENGINE_MAX_RETRY_WAIT", envValue},
	{"", "request-timeout", "ENGINE_REQUEST_TIMEOUT", envValue},
	{"", "query-timeout", "ENGINE_QUERY_TIMEOUT", envValue},
	{"", "max-body-bytes", "ENGINE_MAX_BODY_BYTES", envValue},
	{"", "max-value-bytes", "ENGINE_MAX_VALUE_BYTES", envValue},
	{"", "cache-ttl", "ENGINE_CACHE_TTL", envValue},
	{"", "no-cache", "ENGINE_NO_CACHE", envBool},
	{"", "cache-dir", "ENGINE_CACHE_DIR", envValue},
	{"", "cache-max-bytes", "ENGINE_CACHE_MAX_BYTES", envValue},
	{"", "rate", "ENGINE_RATE", envValue},
	{"", "search-rate", "ENGINE_SEARCH_RATE", envValue},
	{"", "code-search-rate", "ENGINE_CODE_SEARCH_RATE", envValue},
	{"", "governor", "ENGINE_GOVERNOR", envBool},
	{"", "max-concurrency", "ENGINE_MAX_CONCURRENCY", envValue},
	{"", "state", "ENGINE_STATE", envValue},
	{"", "debug", "ENGINE_DEBUG", envBool},
	{"mcp", "max-rows", "ENGINE_MCP_MAX_ROWS", envValue},
	{"mcp", "max-cell-bytes", "ENGINE_MCP_MAX_CELL_BYTES", envValue},
	{"mcp", "max-bytes", "ENGINE_MCP_MAX_BYTES", envValue},
	{"mcp", "max-resource-bytes", "ENGINE_MCP_MAX_RESOURCE_BYTES", envValue},
	{"mcp", "keep-results", "ENGINE_MCP_KEEP_RESULTS", envValue},
	{"mcp", "keep-bytes", "ENGINE_MCP_KEEP_BYTES", envValue},
	{"mcp", "keep-for", "ENGINE_MCP_KEEP_FOR", envValue},
	{"mcp", "max-tasks", "ENGINE_MCP_MAX_TASKS", envValue},
	{"mcp", "max-sessions", "ENGINE_MCP_MAX_SESSIONS", envValue},
	{"mcp", "session-idle", "ENGINE_MCP_SESSION_IDLE", envValue},
	{"mcp", "http-read-timeout", "ENGINE_MCP_HTTP_READ_TIMEOUT", envValue},
	{"mcp", "http-write-timeout", "ENGINE_MCP_HTTP_WRITE_TIMEOUT", envValue},
	{"mcp", "http-idle-timeout", "ENGINE_MCP_HTTP_IDLE_TIMEOUT", envValue},
	{"mcp", "max-connections", "ENGINE_MCP_MAX_CONNECTIONS", envValue},
	{"mcp", "oauth-issuer", "ENGINE_MCP_OAUTH_ISSUER", envValue},
	{"mcp", "oauth-resource", "ENGINE_MCP_OAUTH_RESOURCE", envValue},
	{"mcp", "oauth-jwks-url", "ENGINE_MCP_OAUTH_JWKS_URL", envValue},
	{"mcp", "oauth-scope", "ENGINE_MCP_OAUTH_SCOPE", envValue},
	{"mcp", "tokens-file", "ENGINE_MCP_TOKENS_FILE", envValue},
	{"check", "allow-file-credentials", "ENGINE_ALLOW_FILE_CREDENTIALS", envBool},
}

// envNameOf is the environment variable of flag, "" when it has none.
func envNameOf(flag string) string {
	for _, v := range envTable {
		if v.flag == flag {
			return v.name
		}
	}
	return ""
}

// envFlag finds the flag of an envTable entry in the command tree of root.
func envFlag(root *cobra.Command, v envVar) *pflag.Flag {
	if v.cmd == "" {
		return root.PersistentFlags().Lookup(v.flag)
	}
	c, _, err := root.Find(strings.Fields(v.cmd))
	if err != nil || c == root {
		return nil
	}
	return c.Flags().Lookup(v.flag)
}

// documentEnv appends "(env NAME)" to the usage of every flag in
// envTable. A table entry whose flag does not exist is a programming
// error: it panics, and so fails every test.
func documentEnv(root *cobra.Command) {
	for _, v := range envTable {
		f := envFlag(root, v)
		if f == nil {
			panic(fmt.Sprintf("envTable: no flag --%s of %q", v.flag, v.cmd))
		}
		f.Usage += " (env " + v.name + ")"
	}
}

// applyEnv sets, from the environment, each flag of cmd (the command
// being run) that the command line did not give. It returns the flags
// whose variable is set (even to ""), which the config file does not
// override.
func applyEnv(cmd *cobra.Command, lookup func(string) (string, bool)) (given map[string]bool, err error) {
	given = map[string]bool{}
	path := commandPath(cmd)
	for _, v := range envTable {
		if v.cmd != "" && v.cmd != path {
			continue
		}
		f := cmd.Flags().Lookup(v.flag)
		val, ok := lookup(v.name)
		if f == nil || !ok {
			continue
		}
		given[v.flag] = true
		if f.Changed || val == "" {
			continue
		}
		if v.parse == envBool {
			on, ok := parseBool(val)
			if !ok {
				return nil, fmt.Errorf("%s=%q: not a boolean; use %s (or unset it)", v.name, val, boolWords)
			}
			val = strconv.FormatBool(on)
		}
		if err := cmd.Flags().Set(v.flag, strings.TrimSpace(val)); err != nil {
			return nil, fmt.Errorf("%s=%q: not a valid --%s (%v); fix or unset it", v.name, val, v.flag, cutFlagError(err))
		}
	}
	return given, nil
}

// cutFlagError keeps the reason of a pflag parse error without its
// `invalid argument "x" for "--flag" flag:` preamble.
func cutFlagError(err error) string {
	s := err.Error()
	if _, after, ok := strings.Cut(s, " flag: "); ok {
		return after
	}
	return s
}
