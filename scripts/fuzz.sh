#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 600) and prints a table:
# target, runs, coverage (cov:), features (ft:), corpus size, findings and artifact paths.
#
#   scripts/fuzz.sh [SECONDS]
#
# Environment:
#   ASSAY_FUZZ_BUILD   build folder (default build/fuzz, the `fuzz` preset); configured with the
#                      preset's settings (clang, ASan + UBSan + libFuzzer, -fno-sanitize-recover)
#                      and built when a target is missing or older than the sources.
#   ASSAY_FUZZ_JOBS    targets run at once (default 2), each under `nice -n 19`.
#   ASSAY_FUZZ_TARGETS space-separated target names to run (default: every fuzz/*.cc).
#   ASSAY_FUZZ_NO_BUILD=1  run the binaries as they are (no rebuild check).
#   ASSAY_FUZZ_TABLE_ONLY=1  only print the table of the last run (no build, no run).
# The committed seeds (fuzz/corpus/<name>/) are read only; new inputs go to
# $BUILD/fuzz-work/<name>/corpus, findings to $BUILD/fuzz-work/<name>/ (crash-*, leak-*,
# timeout-*, oom-*). A finding stops that target (UBSan halts: -fno-sanitize-recover=all and
# halt_on_error=1), so its run is shorter than SECONDS. Exit 1 when any target has findings.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
build=${ASSAY_FUZZ_BUILD:-build/fuzz}
jobs=${ASSAY_FUZZ_JOBS:-2}
targets=${ASSAY_FUZZ_TARGETS:-$(for f in fuzz/*.cc; do n=$(basename "$f" .cc); [ "$n" = replay_main ] || echo "$n"; done)}

# ---- build (only when needed) ----
table_only=${ASSAY_FUZZ_TABLE_ONLY:-}
need_build=0
[ -n "${ASSAY_FUZZ_NO_BUILD:-}$table_only" ] || for t in $targets; do
  bin="$build/fuzz/fuzz_$t"
  if [ ! -x "$bin" ] || [ -n "$(find src include fuzz -newer "$bin" \( -name '*.cc' -o -name '*.h' \) -print -quit)" ]; then
    need_build=1
  fi
done
if [ "$need_build" = 1 ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    export CCACHE_NOHASHDIR=1 CCACHE_BASEDIR="$PWD"
  fi
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake --preset fuzz -B "$build" "${launcher[@]}" >/dev/null
  fi
  nice -n 19 cmake --build "$build" -j "$jobs" --target $(for t in $targets; do echo "fuzz_$t"; done)
fi

# ---- run ----
work="$build/fuzz-work"
mkdir -p "$work"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:silence_unsigned_overflow=1"
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:allocator_may_return_null=1"
run_one() {
  local t=$1 secs=$2 build=$3 work=$4
  local dir="$work/$t"
  mkdir -p "$dir/corpus"
  # -timeout: a single input taking longer is a finding (hang, exponential backtracking);
  # -rss_limit_mb/-malloc_limit_mb: an allocation bomb is a finding.
  nice -n 19 "$build/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=60 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$dir/" \
    "$dir/corpus" "fuzz/corpus/$t" >"$dir/log.txt" 2>&1 || true
}
export -f run_one
if [ -z "$table_only" ]; then
  date -u +"start %Y-%m-%dT%H:%M:%SZ, $secs s per target, $jobs at once, build $build"
  printf '%s\n' $targets | xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} "$secs" "$build" "$work"
  date -u +"end   %Y-%m-%dT%H:%M:%SZ"
fi

# ---- table ----
found=0
printf '| %-20s | %10s | %6s | %7s | %6s | %8s | %s |\n' target runs cov ft corpus findings artifacts
printf '|%s|%s|%s|%s|%s|%s|%s|\n' ---------------------- ------------ -------- --------- -------- ---------- ---------
for t in $targets; do
  log="$work/$t/log.txt"
  # runs: the DONE line when the run ended normally, else the final stats (after a finding)
  runs=$(grep -ao '#[0-9]*[[:space:]]*DONE' "$log" 2>/dev/null | grep -ao '[0-9]*' | tail -1 || true)
  [ -n "$runs" ] || runs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" 2>/dev/null | grep -ao '[0-9]*$' | tail -1 || true)
  cov=$(grep -ao ' cov: [0-9]*' "$log" 2>/dev/null | tail -1 | grep -ao '[0-9]*' || true)
  ft=$(grep -ao ' ft: [0-9]*' "$log" 2>/dev/null | tail -1 | grep -ao '[0-9]*' || true)
  corp=$(find "$work/$t/corpus" -type f 2>/dev/null | wc -l)
  arts=$(find "$work/$t" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'slow-unit-*' \) | sort | tr '\n' ' ')
  n=$(echo "$arts" | wc -w)
  [ "$n" -gt 0 ] && found=1
  printf '| %-20s | %10s | %6s | %7s | %6s | %8s | %s |\n' "$t" "${runs:--}" "${cov:--}" "${ft:--}" "$corp" "$n" "${arts:--}"
done
exit $found
