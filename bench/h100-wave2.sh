#!/usr/bin/env bash
# Wave 2 on an NVIDIA GPU, in one go: device tests, the map before and after
# the plan seam at the same flag address, the reference map with homes,
# two flag offsets, serial against concurrent on the same lines, the volatile
# probe under --schedule auto, the DSM path, topology with sides, and
# compute-sanitizer. Everything goes to OUT_DIR (log.txt has every command and
# its output); bench/analyze_wave2.py reads it back.
#
# usage: bench/h100-wave2.sh BIN_DIR OUT_DIR
#   BIN_DIR: cumap, cumap-before (the pre-seam build), cuda_device_tests,
#   conformance_tests, bench_compare, bench_floor, and optionally dsm_device_tests.
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR

{ date -u +"date %Y-%m-%dT%H:%M:%SZ"; uname -r;
  nvidia-smi --query-gpu=name,serial,pci.bus_id,driver_version,clocks.max.sm,ecc.mode.current,mig.mode.current --format=csv;
  nvidia-smi --query-compute-apps=pid,name --format=csv; } 2>&1 | tee -a "$LOG"

C="$BIN/cumap"
G=(--backend cuda --quiet)
export CUMAP_BINARY="$C"
step "$BIN/cuda_device_tests" --gtest_brief=1
step "$BIN/conformance_tests" --gtest_brief=1
[[ -x "$BIN/dsm_device_tests" ]] && step "$BIN/dsm_device_tests" --gtest_brief=1

# 1. Before and after the seam, the flag at the same address (line 0 of a
#    64 KiB allocation; the new build probes one line only, so every pair uses it).
timed "$BIN/cumap-before" "${G[@]}" --same-line --order index --out "$OUT/before1"
timed "$BIN/cumap-before" "${G[@]}" --same-line --order index --out "$OUT/before2"
timed "$C" "${G[@]}" --same-line --schedule serial --home-lines 1 --rotating-count 1 --order index --out "$OUT/after1"
step "$BIN/bench_compare" "$OUT/before1/matrix-same-line.csv" "$OUT/before2/matrix-same-line.csv"
step "$BIN/bench_compare" "$OUT/before1/matrix-same-line.csv" "$OUT/after1/matrix-same-line.csv"

# 2. The reference map at the defaults (homes, both placements, auto schedule).
step "$C" topology --backend cuda --json "$OUT/topology.json"
timed "$C" --backend cuda --out "$OUT/ref"
step "$BIN/bench_floor" "$OUT/ref"

# 3. Two flag offsets, 100 round trips per line (also the speed target).
timed "$C" "${G[@]}" --iters 20 --samples 5 --flag-offset 0 --out "$OUT/off0"
timed "$C" "${G[@]}" --iters 20 --samples 5 --flag-offset 1052672 --out "$OUT/off1"
step "$BIN/bench_floor" "$OUT/off0"
step "$BIN/bench_compare" "$OUT/off0/matrix-same-line.csv" "$OUT/off1/matrix-same-line.csv"
step "$BIN/bench_compare" "$OUT/off0/matrix-split-line.csv" "$OUT/off1/matrix-split-line.csv"

# 4. Serial against concurrent on the same lines (2 lines per class).
S=(--same-line --iters 20 --samples 5 --rotating-count 2)
timed "$C" "${G[@]}" "${S[@]}" --schedule serial --out "$OUT/ser1"
timed "$C" "${G[@]}" "${S[@]}" --schedule serial --out "$OUT/ser2"
timed "$C" "${G[@]}" "${S[@]}" --schedule concurrent --out "$OUT/conc"
step "$BIN/bench_compare" "$OUT/ser1/matrix-same-line.csv" "$OUT/ser2/matrix-same-line.csv"
step "$BIN/bench_compare" "$OUT/ser1/matrix-same-line.csv" "$OUT/conc/matrix-same-line.csv"
for p in exch acq-rel volatile; do
  timed "$C" --backend cuda --same-line --iters 20 --samples 5 --probe "$p" --out "$OUT/auto-$p"
done

# 5. Inside clusters: the DSM path, every probe.
timed "$C" --backend cuda --via dsm --probe volatile --out "$OUT/dsm"
for p in cas acq-rel exch mbarrier; do
  timed "$C" "${G[@]}" --via dsm --probe "$p" --iters 50 --samples 3 --out "$OUT/dsm-$p"
done

# 6. compute-sanitizer on a small map of every probe.
for p in cas exch acq-rel volatile; do
  for tool in racecheck synccheck; do
    step compute-sanitizer --tool "$tool" --error-exitcode 9 "$C" "${G[@]}" --units 0-3 --iters 10 --samples 2 \
      --home-lines 8 --rotating-count 1 --probe "$p" --out "$OUT/san-$tool-$p"
  done
done
echo "done" | tee -a "$LOG"
