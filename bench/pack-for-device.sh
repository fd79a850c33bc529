#!/usr/bin/env bash
# Packs what a device session needs into DEST (default .carry/, ignored by
# git; name it in the device tool's `carry`): the binaries built here, the
# non-system shared libraries they load (the device image lacks Debian's
# libpng, freetype, libcsv, fmt, libgomp, brotli) and DejaVu Sans. There:
#   bench/device.sh tests reference     (finds .carry/bin, .carry/lib and the font itself)
# usage: bench/pack-for-device.sh [BUILD_DIR] [DEST]
# Binaries are found by name anywhere under BUILD_DIR, so the test folders'
# layout does not matter; those not built (bench_harness_vs_minimal without
# CUDA, say) are left out with a note.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath "${1:-$root/build}")
dest=$(realpath -m "${2:-$root/.carry}")
rm -rf "$dest" && mkdir -p "$dest/bin" "$dest/lib"
names=(cumap cuda_device_tests dsm_device_tests conformance_tests
       bench_compare bench_floor bench_engine bench_harness_vs_minimal
       example_pingpong example_barrier example_chain example_across example_verify_classes)
bins=()
for n in "${names[@]}"; do
  # The newest of that name: a build tree can keep a stale copy where a
  # target used to be built.
  f=$(find "$build" -type f -name "$n" -perm -u+x -not -path '*/CMakeFiles/*' -printf '%T@ %p\n' |
      sort -rn | head -1 | cut -d' ' -f2-)
  if [[ -n $f ]]; then bins+=("$f"); else echo "pack-for-device: $n not built, left out"; fi
done
cp "${bins[@]}" "$dest/bin/"
# Every library the binaries load except the C runtime itself and the driver.
for b in "${bins[@]}"; do ldd "$b"; done | awk '/=> \// { print $3 }' | sort -u |
  grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libcuda)\.so' | xargs -I{} cp -L {} "$dest/lib/"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$dest/"
du -sh "$dest"
