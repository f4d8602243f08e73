#!/usr/bin/env bash
# make ui-check: the MCP Apps view of results (docs/mcp.md, "Interactive
# view") in headless Chromium. A minimal host page loads the view that
# `engine mcp --transport http` serves against the fake GitHub, answers
# its bridge calls through the real SDK client, pages and sorts it, and
# writes a screenshot to docs/mcp-app.png (UI_SCREENSHOT to change or
# empty to skip). It installs nothing: it needs Chromium on PATH (or
# CHROMIUM=path), on Debian `apt-get install chromium`. Offline, loopback
# only; not part of `make test`.
set -euo pipefail
bin="${1:-bin/engine}"
shot="${UI_SCREENSHOT-docs/mcp-app.png}"
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then
  echo "ui-check needs Chromium: apt-get install chromium (Debian), or set CHROMIUM to the browser's path" >&2
  exit 2
fi
[ -n "$shot" ] && shot="$(cd "$(dirname "$shot")" && pwd)/$(basename "$shot")"
ENGINE_BIN="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" ENGINE_UI_SCREENSHOT="$shot" \
  go test -tags uicheck -count=1 -v -run TestApp ./test/mcpapp/ | grep -v '^=== '
