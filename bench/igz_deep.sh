#!/usr/bin/env bash
# CLI-level `assay verify --deep` over a synthetic igArchive of 2,000 igz files, 1 thread vs 2,
# in one run (docs/PERFORMANCE.md#igz). Usage: bench/igz_deep.sh [BUILD_DIR] (default build/default)
set -euo pipefail
build=${1:-build/default}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bench/bench_igz" --write-archive="$tmp/deep.bld"
run() {  # best of 3 wall-clock seconds
  local best=
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N)
    "$build/assay" --quiet verify --deep --threads "$1" "$tmp/deep.bld" > "$tmp/out.txt" || true
    e=$(date +%s.%N)
    best=$(echo "$s $e ${best:-1e9}" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  echo "$best"
}
t1=$(run 1)
t2=$(run 2)
tail -1 "$tmp/out.txt"  # "<archive>: ok (0 errors, N warnings)"
echo "$t1 $t2" | awk '{printf "RATIO assay verify --deep, 2,000 igz: 1 thread %.3f s, 2 threads %.3f s: %.2fx\n", $1, $2, $1/$2}'
