#!/usr/bin/env bash
# Everything bench/RESULTS.md and plots/h100/ report, in one go on an NVIDIA
# GPU machine: device tests, topology, the reference map, the harness-cost and
# repeatability targets, the hand-written reference ping-pong, the cold-cache
# and probe variants, and the coherence table.
#
# usage: bench/h100.sh BIN_DIR OUT_DIR
#   BIN_DIR holds cumap, cuda_device_tests, bench_compare, bench_floor and
#   bench_harness_vs_minimal (from a -DCUMAP_CUDA=ON build).
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR

{ date -u +"date %Y-%m-%dT%H:%M:%SZ"; uname -r;
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,ecc.mode.current,mig.mode.current --format=csv;
  nvidia-smi --query-compute-apps=pid,name --format=csv; } 2>&1 | tee -a "$LOG"

C="$BIN/cumap"
step "$BIN/cuda_device_tests" --gtest_brief=1
step compute-sanitizer --tool memcheck --error-exitcode 9 "$C" --backend cuda --units 0-3 --iters 20 --samples 2 --quiet --out "$OUT/sanitizer"

# Topology and the reference map (defaults: both placements, topology order).
step "$C" topology --backend cuda --json "$OUT/h100/topology.json"
timed "$C" --backend cuda --out "$OUT/h100"

# Harness cost and repeatability: 200 round trips per pair, one sample.
timed "$C" --backend cuda --same-line --iters 200 --samples 1 --warmup 0 --quiet --out "$OUT/speed1"
timed "$C" --backend cuda --same-line --iters 200 --samples 1 --warmup 0 --quiet --out "$OUT/speed2"
step "$BIN/bench_floor" "$OUT/speed1"
step "$BIN/bench_floor" "$OUT/speed2"
step "$BIN/bench_compare" "$OUT/speed1/matrix-same-line.csv" "$OUT/speed2/matrix-same-line.csv"
timed "$C" --backend cuda --iters 200 --samples 1 --quiet --out "$OUT/both"
step "$BIN/bench_floor" "$OUT/both"
timed "$C" --backend cuda --iters 200 --samples 1 --quiet --out "$OUT/both2"
step "$BIN/bench_compare" "$OUT/both/matrix-split-line.csv" "$OUT/both2/matrix-split-line.csv"

# The harness adds nothing: cumap's kernel vs a minimal hand-written ping-pong,
# same pairs, same flag words, one process.
PAIRS="0:1 0:2 0:16 0:33 0:66 0:100 0:131 1:2 2:16 16:33 33:66 66:100 100:131 120:121 64:120 5:77"
step "$BIN/bench_harness_vs_minimal" 200 5 $PAIRS
step "$BIN/bench_harness_vs_minimal" 200 5 $PAIRS

# Cold-cache and memory-behaviour controls, same-line, 100 x 3.
V="--backend cuda --same-line --iters 100 --samples 3 --quiet"
timed "$C" $V --out "$OUT/cc-base"
timed "$C" $V --flush-cache --out "$OUT/cc-flush"
timed "$C" $V --rotating-count 8 --out "$OUT/cc-rotate8"
timed "$C" $V --l2-persist --out "$OUT/cc-persist"
for p in exch acq-rel volatile; do timed "$C" $V --probe $p --out "$OUT/cc-probe-$p"; done
timed "$C" --backend cuda --split-line --iters 100 --samples 3 --quiet --flush-cache --out "$OUT/cc-flush-split"
for d in cc-flush cc-rotate8 cc-persist cc-probe-exch cc-probe-acq-rel cc-probe-volatile; do
  step "$BIN/bench_compare" "$OUT/cc-base/matrix-same-line.csv" "$OUT/$d/matrix-same-line.csv"
done
timed "$C" --backend cuda --same-line --ordered --iters 100 --samples 3 --quiet --out "$OUT/ordered"
step "$C" check-coherence --backend cuda --json "$OUT/coherence.json"
echo "done" | tee -a "$LOG"
