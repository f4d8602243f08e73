#!/usr/bin/env bash
# make sarif-check: run the github pack against the fake GitHub's
# compliance organisations with -o sarif and validate each log with
# Microsoft's SARIF validator (npm @microsoft/sarif-multitool, whose
# package ships a native Linux binary: no dotnet needed) under the SARIF
# and GitHub code scanning rule kinds. Any error or warning fails; the
# validator's notes (suggestions such as versionControlProvenance or code
# snippets, which have no meaning for a finding about settings) are
# counted and printed. It needs the npm registry once; it is not part of
# the offline `make test`.
set -euo pipefail
bin="${1:-bin/engine}"
dir="${SARIF_CHECK_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/engine-sarif-check}"
pkg="@microsoft/sarif-multitool@${SARIF_MULTITOOL_VERSION:-5.7.0}"

mkdir -p "$dir"
tool="$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ ! -e "$tool" ]; then
  echo "installing $pkg into $dir"
  (cd "$dir" && npm install --no-audit --no-fund --silent "$pkg")
fi
chmod u+x "$tool"

work="$(mktemp -d)"
go build -o "$work/fakegithub" ./test/fakegithub/cmd/fakegithub
"$work/fakegithub" -addr 127.0.0.1:0 2>"$work/fake.log" &
fake=$!
trap 'kill $fake 2>/dev/null || true; rm -rf "$work"' EXIT
url=""
for _ in $(seq 100); do
  url="$(grep -o 'http://[^ ]*' "$work/fake.log" || true)"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "the fake GitHub did not start:"; cat "$work/fake.log"; exit 1; }

# A waiver for every control of the pack, for the suppressed results.
{
  echo "waivers:"
  "$bin" check --pack github --print | sed -n 's/^  - id: //p' | while read -r id; do
    printf '  - control: %s\n    reason: accepted (sarif-check)\n' "$id"
  done
} >"$work/waivers.yaml"

failed=0
# comply-fail: one result per offending row; comply-fail with every row
# waived: suppressed results; comply-denied: every control an error
# (toolExecutionNotifications, executionSuccessful false).
for run in comply-fail comply-fail-waived comply-denied; do
  org="${run%-waived}"
  extra=()
  [ "$run" != "$org" ] && extra=(--waivers "$work/waivers.yaml")
  log="$work/$run.sarif"
  set +e
  env -u GITHUB_TOKEN -u GH_TOKEN HOME="$work" ENGINE_BASE_URL_GITHUB="$url" ENGINE_NO_CACHE=1 \
    "$bin" check --pack github --var "org=$org" -o sarif "${extra[@]}" >"$log"
  code=$?
  set -e
  if [ "$code" -gt 2 ]; then
    echo "$run: engine check exited $code"; failed=1; continue
  fi
  out="$work/$run.txt"
  "$tool" validate --rule-kind "Sarif;Gh" --level "Error;Warning;Note" --output "$work/$run.validation.sarif" "$log" >"$out" 2>&1 || true
  errors="$(grep -cE ': error [A-Z]+[0-9]+' "$out" || true)"
  warnings="$(grep -cE ': warning [A-Z]+[0-9]+' "$out" || true)"
  notes="$(grep -oE ': note [A-Z]+[0-9]+' "$out" | sed 's/^: note //' | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}' || true)"
  if ! grep -q 'Analysis completed successfully' "$out"; then
    echo "$run: the validator did not complete:"; cat "$out"; failed=1; continue
  fi
  echo "$run (exit $code): $errors errors, $warnings warnings; notes: ${notes%, }"
  if [ "$errors" -ne 0 ] || [ "$warnings" -ne 0 ]; then
    grep -E ': (error|warning) [A-Z]+[0-9]+' "$out"
    failed=1
  fi
done
exit $failed
