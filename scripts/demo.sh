#!/usr/bin/env bash
# The README's first command: set up, build, make sample files with assay's own writers (no game
# data), and run assay over them so a newcomer sees real output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target assay
A=build/default/assay
S=build/samples
rm -rf "$S" build/samples-out && mkdir -p "$S"
run() { echo; echo "\$ assay $*"; "$A" "$@" || echo "(exit $?)"; }
run make-samples "$S"
run identify "$S"/*.bld "$S"/*.arc "$S"/*.igz "$S"/*.txd "$S"/*.dff "$S"/*.dat "$S/warriors"
# Alchemy igArchive and igz
run info "$S/demo_v8_lzma.bld"
run list "$S/demo_v8_lzma.bld"
run verify "$S/demo_v8_lzma.bld" "$S/demo_v11_be_deflate.arc"
run extract "$S/demo_v8_lzma.bld" -o build/samples-out/bld
run list "$S/sample_v9_be.igz"
run verify "$S/sample_v9_be.igz" "$S/sample_v8_le64.igz"
# RenderWare
run rw tree "$S/rw_ps2.txd"
run list "$S/rw_ps2.txd"
run extract "$S/rw_ps2.txd" -o build/samples-out/textures
run verify "$S/rw_ps2.txd" "$S/rw_pc_dxt1.txd" "$S/rw_model.dff"
# The Warriors
run list "$S/warriors"
run warriors classify "$S/warriors"
run verify "$S/warriors"
# Oni
run list "$S/level0_Final.dat"
run oni check "$S/level0_Final.dat" "$S/level1_X.dat" --layouts "$S/oni-layouts.txt"
echo
echo "demo: samples in $S, extracted files in build/samples-out"
