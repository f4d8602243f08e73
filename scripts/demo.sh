#!/usr/bin/env bash
# make demo: start the fake GitHub server from test/ on loopback and point
# the engine at it.
#
#   make demo                                  a short tour, then the shell (on a terminal)
#   echo "SELECT ...;" | make demo             runs the statements on stdin instead, and stops
#   make demo < queries.sql                    (exit 1 at the first error, as engine shell does)
#
# While the shell is open, other terminals can use the same fake: the
# script prints the variable and the commands. The fake stops when the
# script ends. FAKEGITHUB=PATH uses a built fake instead of building one.
set -euo pipefail
addr="${1:-127.0.0.1:8099}"
bin="${2:-bin/engine}"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
fakebin="${FAKEGITHUB:-}"
if [ -z "$fakebin" ]; then
  fakebin=bin/fakegithub
  go build -o "$fakebin" ./test/fakegithub/cmd/fakegithub
fi

# Statements piped in are what the user wants run (read before the fake
# starts, so that an empty stdin, e.g. </dev/null, means the tour).
sql=""
if [ ! -t 0 ]; then
  sql="$(cat)"
fi

"$fakebin" -addr "$addr" >/dev/null 2>&1 &
fake=$!
trap 'kill $fake 2>/dev/null && wait $fake 2>/dev/null; true' EXIT  # the port is free when the script returns
for _ in $(seq 50); do
  if (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null; then break; fi
  kill -0 $fake 2>/dev/null || break
  sleep 0.1
done
sleep 0.1
if ! kill -0 $fake 2>/dev/null; then
  echo "make demo: the fake GitHub server could not listen on $addr (in use?); try make demo ADDR=127.0.0.1:PORT" >&2
  exit 1
fi

export ENGINE_BASE_URL_GITHUB="http://$addr"
auth='{"github":{"type":"null_auth"}}'  # the fake needs no token; never send yours to it

if [ -n "${sql//[[:space:]]/}" ]; then
  printf '%s\n' "$sql" | "$bin" shell --auth "$auth"
  exit $?
fi

run() { echo; echo "engine> $1"; "$bin" exec --auth "$auth" "$1"; }
echo "fake GitHub on http://$addr (orgs 'acme' and 'tiny')"
run "SHOW SERVICES IN github LIKE 're%'"
run "SELECT language, count(*) AS repos, sum(private) AS private FROM github.repos.repos WHERE org = 'acme' GROUP BY language ORDER BY repos DESC"
run "SELECT name, visibility, archived FROM github.repos.repos WHERE org = 'acme' AND archived ORDER BY name LIMIT 5"
run "SELECT login FROM github.orgs.members WHERE org = 'acme' ORDER BY login LIMIT 5"
if [ -t 0 ] && [ -t 1 ]; then
  cat <<MSG

To use this fake GitHub from another terminal while the shell below is open:

  export ENGINE_BASE_URL_GITHUB=http://$addr
  $bin shell --auth '$auth'
  $bin exec --auth '$auth' "SELECT name FROM github.repos.repos WHERE org = 'tiny'"

It stops when you leave this shell. Opening the shell against it (Ctrl-D to leave).
MSG
  "$bin" shell --auth "$auth"
fi
