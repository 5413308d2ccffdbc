#!/bin/sh
# The Warriors: verify and classify of a synthetic 10,701-entry disc of at least 1 GiB (our
# writer), against sha256sum of the same WAD measured in the same run. Not part of ctest.
# Usage: bench/warriors_disc.sh [BUILD_DIR]   (needs bench_warriors_disc and assay built there)
# Writes ~1.2 GB under ${TMPDIR:-/tmp}/warriors-bench and deletes it at the end.
set -eu
BUILD=${1:-build/warriors}
GEN="$BUILD/bench/bench_warriors_disc"
ASSAY="$BUILD/assay"
WORK=${TMPDIR:-/tmp}/warriors-bench
trap 'rm -rf "$WORK"' EXIT
rm -rf "$WORK"
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }

"$GEN" generate "$WORK/big" 1 >/dev/null
"$GEN" generate "$WORK/half" 2 >/dev/null
"$GEN" generate "$WORK/small" 64 >/dev/null
BIG=$(stat -c %s "$WORK/big/WARRIORS.WAD"); HALF=$(stat -c %s "$WORK/half/WARRIORS.WAD"); SMALL=$(stat -c %s "$WORK/small/WARRIORS.WAD")
echo "WAD: big $BIG bytes, half $HALF bytes, small $SMALL bytes, 10701 entries each (same headers)"
cat "$WORK/big/WARRIORS.WAD" "$WORK/half/WARRIORS.WAD" "$WORK/small/WARRIORS.WAD" > /dev/null  # same cache state below
# measure CMD...: prints "wall cpu" (seconds; cpu = user + sys), best of two runs
measure() {
  best=""
  for _ in 1 2; do
    /usr/bin/time -f '%e %U %S' -o "$WORK/t" "$@" > /dev/null
    r=$(awk '{printf "%.3f %.3f", $1, $2 + $3}' "$WORK/t")
    if [ -z "$best" ] || [ "$(echo "${r%% *} < ${best%% *}" | bc -l)" = 1 ]; then best=$r; fi
  done
  echo "$best"
}
SHA=$(measure sha256sum "$WORK/big/WARRIORS.WAD")
VERIFY=$(measure "$ASSAY" -q verify "$WORK/big")
CBIG=$(measure "$ASSAY" -q warriors classify "$WORK/big")
CSMALL=$(measure "$ASSAY" -q warriors classify "$WORK/small")
KBIG=$("$GEN" classify-cpu "$WORK/big" 5); KHALF=$("$GEN" classify-cpu "$WORK/half" 5); KSMALL=$("$GEN" classify-cpu "$WORK/small" 5)
HBIG=$("$GEN" heap "$WORK/big"); HSMALL=$("$GEN" heap "$WORK/small")
w() { echo "${1%% *}"; }
c() { echo "${1##* }"; }

printf 'sha256sum of the big WAD: wall %s s, cpu %s s\n' "$(w "$SHA")" "$(c "$SHA")"
printf 'verify of the big disc: wall %s s, cpu %s s\n' "$(w "$VERIFY")" "$(c "$VERIFY")"
printf 'verify / sha256sum (wall): %.3f (must be < 2)\n' "$(echo "$(w "$VERIFY") / $(w "$SHA")" | bc -l)"
printf 'classify: big wall %s s cpu %s s; small wall %s s cpu %s s\n' "$(w "$CBIG")" "$(c "$CBIG")" "$(w "$CSMALL")" "$(c "$CSMALL")"
printf 'classify big / small (WAD %.1fx larger): wall %.2f\n' \
  "$(echo "$BIG / $SMALL" | bc -l)" "$(echo "$(w "$CBIG") / $(w "$CSMALL")" | bc -l)"
printf 'verify / sha256sum (cpu): %.3f\n' "$(echo "$(c "$VERIFY") / $(c "$SHA")" | bc -l)"
printf 'classify cpu (single thread, in process; s, page faults): big %s, half %s, small %s\n' "$KBIG" "$KHALF" "$KSMALL"
printf 'classify cpu big / half (WAD 2x larger, same pages touched): %.2f\n' "$(echo "$(w "$KBIG") / $(w "$KHALF")" | bc -l)"
printf 'classify cpu big / small (WAD 32x larger; small entries share pages): %.2f\n' "$(echo "$(w "$KBIG") / $(w "$KSMALL")" | bc -l)"
printf 'load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'heap after verify+classify, big / small: %s / %s bytes = %.3f\n' "$HBIG" "$HSMALL" "$(echo "$HBIG / $HSMALL" | bc -l)"
