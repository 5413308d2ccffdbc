#!/usr/bin/env bash
# The project stands alone: a clone with nothing beside it (no ../shared) sets up, configures,
# builds the CLI and runs the demo (the README's first command). Run by .ci/run after the tests,
# so ccache (same preset, paths relative to the source folder) compiles next to nothing again.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d /tmp/assay-standalone.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
git clone -q --no-hardlinks . "$tmp/assay"
[ ! -e "$tmp/shared" ] || { echo "standalone: $tmp/shared exists" >&2; exit 1; }
echo "== standalone: a clone with nothing beside it ($tmp/assay): demo"
log="$tmp/demo.log"
if ! (cd "$tmp/assay" && bash scripts/demo.sh) >"$log" 2>&1; then
  tail -40 "$log" >&2
  echo "standalone: FAILED: scripts/demo.sh in a plain clone" >&2
  exit 1
fi
# Every demo command must succeed (demo.sh prints "(exit N)" after a command that did not).
if grep -n '^(exit ' "$log" >&2; then
  echo "standalone: FAILED: a demo command exited non-zero (above)" >&2
  exit 1
fi
grep -q '^demo: samples in' "$log" || { echo "standalone: FAILED: demo did not finish" >&2; exit 1; }
echo "standalone: passed ($(grep -c '^\$ assay' "$log") demo commands)"
