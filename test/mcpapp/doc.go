// Package mcpapp checks the MCP Apps view of results (docs/mcp.md,
// "Interactive view") in a real browser: a minimal host page loads the
// view that `engine mcp` serves, answers its bridge calls by calling the
// server over HTTP with the real SDK client, drives it (paging, sorting)
// and takes a screenshot. It needs headless Chromium (Debian: apt-get
// install chromium), so it runs only with the build tag uicheck
// (`make ui-check`), not in `make test`.
package mcpapp
