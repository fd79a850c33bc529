#!/usr/bin/env bash
# Issue #12's wall-time target on one NVIDIA GPU at 100 round trips per line:
# device tests, then the full map (both placements, 16 lines per class) under
# --schedule concurrent and auto, twice each, with phase_seconds.
# usage: bench/h100-wall.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
CUMAP_BINARY="$BIN/cumap" step "$BIN/cuda_device_tests" --gtest_brief=1
step "$BIN/conformance_tests" --gtest_brief=1
for s in concurrent auto; do
  for i in 1 2; do
    timed "$BIN/cumap" --backend cuda --iters 20 --samples 5 --schedule "$s" --out "$OUT/$s$i"; phases "$OUT/$s$i"
    step "$BIN/bench_floor" "$OUT/$s$i"
  done
done
step python3 "$HERE/analyze_wave2.py" "$OUT/concurrent1" "$OUT/concurrent2"
echo done | tee -a "$LOG"
