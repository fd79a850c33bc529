#!/usr/bin/env bash
# Issue #22's runs on two GPUs joined by NVLink (device kind nvidia-h200-x2):
# the link as the driver reports it, device tests (one GPU and two), every
# GPU listed, a small map across both GPUs first, then the defaults across
# both (the wall-time target), single-GPU maps of each GPU at the defaults
# for the same-GPU comparison, and the analysis.
# usage: bench/h200x2.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
step nvidia-smi topo -m
C="$BIN/cumap"
CUMAP_BINARY="$C" step "$BIN/cuda_device_tests" --gtest_brief=1
step "$C" --list-devices
timed "$C" --backend cuda --devices 0,1 --units 0-7 --out "$OUT/small"
step cat "$OUT/small/gpus.csv"
timed "$C" --backend cuda --devices 0,1 --out "$OUT/across"
phases "$OUT/across"
kernel_seconds "$OUT/across"
for d in 0 1; do
  timed "$C" --backend cuda --device "$d" --out "$OUT/gpu$d"
  phases "$OUT/gpu$d"
done
step python3 "$HERE/analyze_gpus.py" "$OUT/across" 0="$OUT/gpu0" 1="$OUT/gpu1"
echo done | tee -a "$LOG"
