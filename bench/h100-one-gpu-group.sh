#!/usr/bin/env bash
# Issue #22 on one GPU: the single-GPU path after the launch-group rewrite
# (one GPU is a group of one): device tests (the two-GPU ones skip), the
# defaults (compare with bench/h100-2026-11-24-labels64.log), --devices
# naming one GPU, and the refusals a one-GPU machine gives.
# usage: bench/h100-one-gpu-group.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
C="$BIN/cumap"
CUMAP_BINARY="$C" step "$BIN/cuda_device_tests"
step "$BIN/dsm_device_tests" --gtest_brief=1
step "$C" --list-devices
timed "$C" --backend cuda --out "$OUT/defaults"
phases "$OUT/defaults"
kernel_seconds "$OUT/defaults"
timed "$C" --devices all --iters 20 --rotating-count 16 --out "$OUT/devices-all"
step head -c 300 "$OUT/devices-all/matrix-same-line.csv"; echo
step "$C" --devices 0,1 --out "$OUT/bad"; echo "exit code $?" | tee -a "$LOG"
step "$C" --devices 0 --flag-on a --out "$OUT/bad"; echo "exit code $?" | tee -a "$LOG"
step "$C" homes --backend cuda --out "$OUT/homes"
echo done | tee -a "$LOG"
