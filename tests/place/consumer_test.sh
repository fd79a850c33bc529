#!/usr/bin/env bash
# The placement library as a user's project gets it: installed from the
# build tree (cmake --install, component place), then found by
# find_package(cumap) in a project of its own, built and run against a
# committed GPU run (without a GPU the library must refuse it, naming the
# serial it cannot check).
#   consumer_test.sh BUILD_DIR SOURCE_DIR [CXX CXX_FLAGS]
# The consumer is built with the library's compiler and flags: a library
# built with the sanitizers (scripts/build-sanitized) needs their runtimes
# in the program that links it, as any user's would.
set -euo pipefail
build=$1
source=$2
compiler=(); [[ -n ${3:-} ]] && compiler=(-DCMAKE_CXX_COMPILER="$3")
flags=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --component place > /dev/null
test -f "$work/prefix/include/cumap/place.hpp"
test -f "$work/prefix/include/cumap/place_device.cuh"
cmake --install "$build" --prefix "$work/prefix" --component tool > /dev/null
"$work/prefix/bin/cumap" --version > /dev/null
# The installed header stands alone: nothing of cumap's source tree is installed beside it.
if [[ -e "$work/prefix/include/cumap/backend.hpp" ]]; then echo "cumap's internal headers were installed"; exit 1; fi
cmake -S "$source/tests/place/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" "${compiler[@]}" \
  -DCMAKE_CXX_FLAGS="$flags" > /dev/null
cmake --build "$work/build" > /dev/null
"$work/build/consumer" "$source/plots/h200"
