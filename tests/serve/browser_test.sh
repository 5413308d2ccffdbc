#!/bin/bash
# usage: browser_test.sh ASSAY CHROMIUM OUTDIR [SAMPLES]  (see browser.cmake)
# Serves the make-samples output (plus nest.pak: an igArchive holding an igz, an igArchive and a
# text file, packed here) and, when SAMPLES (../shared/samples) exists, the real samples too.
# 1. Two deep links opened with --dump-dom, the DOM checked:
#   ss/demo_v8_lzma.bld: the entry table has the archive's 3 rows (JAPANESE.pak, levels.txt,
#     readme.txt, as make-samples writes them);
#   ss/rw_ps2.txd::ramp_pal8: the preview <img> decoded a 64-pixel-wide PNG (data-loaded="1",
#     data-width="64": the page copies naturalWidth after the browser decoded the image).
# 2. browser_click.py (through chromedriver) clicks through files, rows, tabs, Oni links and
#    containers inside containers in ONE page, as a person would (issue 29 item 1), then follows
#    deep links into the real samples, and opens models in the Model tab (WebGL canvas read back).
#    Screenshots: OUTDIR/serve.png, OUTDIR/serve-clicks.png, OUTDIR/serve-zap.png,
#    OUTDIR/serve-model.png (OUTDIR/serve-failed.png when a step fails).
set -u
assay=$1 chromium=${2:-} outdir=$3 samples=${4:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
if [[ -z "$chromium" || ! -x "$chromium" ]]; then
  [[ "${CI:-}" == "true" || "${CI:-}" == "1" ]] && fail "chromium is missing (required in CI)"
  echo "SKIP: chromium not installed"; exit 77
fi
tmp=$(mktemp -d)
server= server2=
cleanup() {
  for s in $server $server2; do kill "$s" 2>/dev/null && wait "$s" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
"$assay" make-samples "$tmp/ss" >/dev/null 2>&1 || fail "make-samples"
mkdir -p "$tmp/nest/actors"
cp "$tmp/ss/sample_v9_be.igz" "$tmp/nest/actors/zap.igz"
cp "$tmp/ss/demo_v11_be_deflate.arc" "$tmp/nest/inner.arc"
echo "a text file: not a container" >"$tmp/nest/notes.txt"
"$assay" pack igarchive --case-insensitive -o "$tmp/ss/nest.pak" "$tmp/nest" >/dev/null 2>&1 || fail "pack nest.pak"
roots=("$tmp/ss")
[[ -n "$samples" && -d "$samples/alchemy" ]] && roots+=("$samples") || samples=
# The Oni sound goldens (a level of SNDDs) for the Sound tab, served as the root "sounds".
sounds=
[[ -n "$samples" && -d "$(dirname "$samples")/goldens/oni/sounds" ]] && sounds="$(dirname "$samples")/goldens/oni/sounds" && roots+=("$sounds")
# The Oni character goldens (ONCCchar4 and its two TRAMs) for the animation picker, the root "characters".
characters=
[[ -n "$samples" && -d "$(dirname "$samples")/goldens/oni/characters" ]] && characters="$(dirname "$samples")/goldens/oni/characters" && roots+=("$characters")
"$assay" serve --no-open --port 0 "${roots[@]}" >"$tmp/url" 2>"$tmp/serve.err" &
server=$!
for _ in $(seq 100); do [[ -s "$tmp/url" ]] && break; sleep 0.1; done
url=$(head -n1 "$tmp/url")
[[ "$url" == http://127.0.0.1:*/?token=* ]] || fail "no URL on stdout: '$url' $(cat "$tmp/serve.err")"

# The Model tab's textures: a second server over wuzimu.dff's folder with --txd, a dictionary
# made here from make-samples' rw_ps2.txd plus a texture named "wuzimu" (the ramp_pal8 PNG).
texurl=
if [[ -n "$samples" && -f "$samples/renderware/rw-parser/wuzimu.dff" ]]; then
  "$assay" extract "$tmp/ss/rw_ps2.txd" -o "$tmp/png" >/dev/null 2>&1 &&
    "$assay" add "$tmp/ss/rw_ps2.txd" -o "$tmp/wuzimu.txd" wuzimu="$tmp/png/ramp_pal8.png" >/dev/null 2>&1 ||
    fail "a dictionary with a texture named wuzimu"
  "$assay" serve --no-open --port 0 --txd "$tmp/wuzimu.txd" "$samples/renderware/rw-parser" >"$tmp/url2" 2>"$tmp/serve2.err" &
  server2=$!
  for _ in $(seq 100); do [[ -s "$tmp/url2" ]] && break; sleep 0.1; done
  texurl=$(head -n1 "$tmp/url2")
  [[ "$texurl" == http://127.0.0.1:*/?token=* ]] || fail "no URL from the --txd server: $(cat "$tmp/serve2.err")"
fi

browse() {  # browse PROFILE ARGS... : a fresh profile each time
  local prof="$tmp/profile-$1"; shift
  timeout 40 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$prof" --virtual-time-budget=8000 "$@" 2>"$tmp/chromium.err"
}

dom=$(browse 1 --dump-dom "$url&path=ss/demo_v8_lzma.bld") || fail "chromium (archive): $(tail -3 "$tmp/chromium.err")"
grep -q 'data-rows="3"' <<<"$dom" || fail "archive: the entry table does not have 3 rows"
for name in JAPANESE.pak levels.txt readme.txt; do
  grep -q "<td class=\"long\" title=\"$name\">$name</td>" <<<"$dom" || fail "archive: no row for $name"
done
grep -q 'class="status">3 entries · igarchive' <<<"$dom" || fail "archive: status line missing"

dom=$(browse 2 --dump-dom "$url&path=ss/rw_ps2.txd::ramp_pal8") || fail "chromium (txd): $(tail -3 "$tmp/chromium.err")"
grep -q 'data-rows="2"' <<<"$dom" || fail "txd: the entry table does not have 2 rows"
img=$(grep -o '<img id="texture"[^>]*>' <<<"$dom")
grep -q 'data-loaded="1"' <<<"$img" || fail "txd: the texture preview did not decode: $img"
grep -q 'data-width="64"' <<<"$img" || fail "txd: the preview is not 64 pixels wide: $img"

mkdir -p "$outdir"
rm -f "$outdir/serve.png"
browse 3 --window-size=1400,700 --screenshot="$outdir/serve.png" "$url&path=ss/rw_ps2.txd::ramp_pal8" >/dev/null ||
  fail "chromium (screenshot)"
[[ -s "$outdir/serve.png" ]] || fail "no screenshot"
echo "ok: DOM checks passed, screenshot $outdir/serve.png"

driver=$(command -v chromedriver || true)
if [[ -z "$driver" ]]; then
  [[ "${CI:-}" == "true" || "${CI:-}" == "1" ]] && fail "chromedriver is missing (required in CI)"
  echo "SKIP: chromedriver not installed (the click-through needs it)"; exit 77
fi
timeout 180 python3 "$(dirname "$0")/browser_click.py" "$driver" "$chromium" "$url" "$samples" "$outdir" "$texurl" "$sounds" "$characters" ||
  fail "click-through (screenshot of the failure: $outdir/serve-failed.png)"
