#!/usr/bin/env bash
# make demo: start the fake GitHub server from test/ on loopback, point the
# engine at it, run a short tour, then open the shell (when on a terminal).
set -euo pipefail
addr="${1:-127.0.0.1:8099}"
bin="${2:-bin/engine}"
go build -o bin/fakegithub ./test/fakegithub/cmd/fakegithub
./bin/fakegithub -addr "$addr" >/dev/null 2>&1 &
fake=$!
trap 'kill $fake 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  if curl -fsS "http://$addr/rate_limit" >/dev/null 2>&1 || (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null; then break; fi
  sleep 0.1
done
export ENGINE_BASE_URL_GITHUB="http://$addr"
export ENGINE_AUTH='{"github":{"type":"null_auth"}}'
run() { echo; echo "engine> $1"; "$bin" exec --auth "$ENGINE_AUTH" "$1"; }
echo "fake GitHub on http://$addr (org 'acme')"
run "SHOW SERVICES IN github LIKE 're%'"
run "SELECT language, count(*) AS repos, sum(private) AS private FROM github.repos.repos WHERE org = 'acme' GROUP BY language ORDER BY repos DESC"
run "SELECT name, visibility, archived FROM github.repos.repos WHERE org = 'acme' AND archived ORDER BY name LIMIT 5"
run "SELECT login FROM github.orgs.members WHERE org = 'acme' ORDER BY login LIMIT 5"
if [ -t 0 ] && "$bin" shell --help >/dev/null 2>&1; then
  echo; echo "opening the shell against the fake server (Ctrl-D to leave)"
  "$bin" shell --auth "$ENGINE_AUTH"
fi
