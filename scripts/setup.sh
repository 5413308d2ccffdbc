#!/usr/bin/env bash
# Installs exactly the Debian packages assay needs, skipping those already present.
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config git python3
      liblzma-dev zlib1g-dev liblz4-dev libfmt-dev libcli11-dev nlohmann-json3-dev libspng-dev libdeflate-dev
      libiso9660-dev libcdio-dev libgtest-dev libgmock-dev libbenchmark-dev
      clang libclang-rt-14-dev xorriso
      libcpp-httplib-dev chromium chromium-driver          # assay serve (issue 13)
      pybind11-dev python3-dev python3-pytest            # Python module (issue 14)
      libimagequant-dev libsquish-dev                    # texture import
      libjs-three                                        # the viewer's 3D view (three.js, embedded)
      libtinygltf-dev ffmpeg                             # tests only: glTF reader, audio reference
      ccache)                                            # a second build folder or clone compiles nothing twice
command -v npm >/dev/null || pkgs+=(nodejs npm)          # tests only: the glTF validator (below)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The Khronos glTF validator (npm, tests only): tests/node/package-lock.json pins it.
node_dir="$(cd "$(dirname "$0")/.." && pwd)/tests/node"
if [ ! -d "$node_dir/node_modules/gltf-validator" ]; then
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
