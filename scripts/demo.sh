#!/usr/bin/env bash
# The README's first command: set up, build, make sample files with assay's own writers, and run
# assay over them so a newcomer sees real output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target assay
A=build/default/assay
S=build/samples
rm -rf "$S" && mkdir -p "$S"
echo "== assay make-samples $S"
$A make-samples "$S"
echo "== assay identify"
$A identify "$S"/* || true
for f in "$S"/*; do
  [ -f "$f" ] || continue
  echo "== assay info $f"; $A info "$f" || true
  echo "== assay list $f"; $A list "$f" | head -20 || true
  echo "== assay verify $f"; $A verify "$f" || true
done
