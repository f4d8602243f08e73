#!/usr/bin/env bash
# Installs what the tests need besides Go (Debian packages):
#   redis-server       the shared-state tests (test/orgscale, providers/sharedstate/redisstate)
#                      start it on a loopback port of their own; required.
#   postgresql-client  psql, and python3-psycopg2: real clients of `engine pg` (test/pg);
#   python3-psycopg2   without them those tests are skipped (the pgx client test always runs).
# Does nothing when everything is already here.
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v psql >/dev/null 2>&1 || missing+=(postgresql-client)
if [ -x /usr/bin/python3 ] && ! /usr/bin/python3 -c 'import psycopg2' >/dev/null 2>&1; then
  missing+=(python3-psycopg2)
fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
# Only redis-server is required; the Postgres clients are installed when
# possible, else their tests skip.
required=0
for p in "${missing[@]}"; do
  [ "$p" = redis-server ] && required=1
done
give_up() {
  if [ $required -eq 1 ]; then
    echo "testdeps: $1" >&2
    exit 1
  fi
  echo "testdeps: $1 (the tests that use them are skipped)" >&2
  exit 0
}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    give_up "missing: ${missing[*]}; install the Debian packages (apt-get install -y ${missing[*]}) as root"
  fi
  SUDO=sudo
fi
if ! command -v apt-get >/dev/null 2>&1; then
  give_up "missing: ${missing[*]}, and apt-get is not here; install them with your package manager"
fi
echo "testdeps: installing ${missing[*]} (Debian packages) for the tests" >&2
$SUDO apt-get update -qq
if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; then
  give_up "apt-get could not install ${missing[*]}"
fi
command -v redis-server >/dev/null
