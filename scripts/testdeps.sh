#!/usr/bin/env bash
# Installs what the tests need besides Go: redis-server (Debian package),
# which the shared-state tests (test/orgscale, providers/sharedstate/redisstate) start on
# a loopback port of their own. Does nothing when it is already on PATH.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "testdeps: redis-server is missing; install the Debian package redis-server (apt-get install -y redis-server) as root" >&2
    exit 1
  fi
  SUDO=sudo
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "testdeps: redis-server is missing and apt-get is not here; install redis-server with your package manager" >&2
  exit 1
fi
echo "testdeps: installing redis-server (Debian package) for the shared-state tests" >&2
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
command -v redis-server >/dev/null
