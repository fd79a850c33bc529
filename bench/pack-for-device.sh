#!/usr/bin/env bash
# Packs what a device session needs into DEST (default .carry/, ignored by
# git; name it in the device tool's `carry`): the binaries built here, the
# non-system shared libraries they load (the device image lacks Debian's
# libpng, freetype, libcsv, fmt, libgomp, brotli) and DejaVu Sans. There:
#   export LD_LIBRARY_PATH=$PWD/.carry/lib CUMAP_FONT=$PWD/.carry/DejaVuSans.ttf
#   .carry/bin/cuda_device_tests; bench/<script>.sh .carry/bin $OUT/run
# usage: bench/pack-for-device.sh [BUILD_DIR] [DEST]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath "${1:-$root/build}")
dest=$(realpath -m "${2:-$root/.carry}")
rm -rf "$dest" && mkdir -p "$dest/bin" "$dest/lib"
bins=("$build/cumap" "$build/tests/backends/cuda/cuda_device_tests" "$build/tests/backends/cuda/dsm_device_tests"
      "$build/bench/compare/bench_compare" "$build/bench/compare/bench_floor" "$build/bench/engine/bench_engine")
cp "${bins[@]}" "$dest/bin/"
# Every library the binaries load except the C runtime itself and the driver.
for b in "${bins[@]}"; do ldd "$b"; done | awk '/=> \// { print $3 }' | sort -u |
  grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libcuda)\.so' | xargs -I{} cp -L {} "$dest/lib/"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$dest/"
du -sh "$dest"
