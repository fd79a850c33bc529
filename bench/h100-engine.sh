#!/usr/bin/env bash
# The runs behind bench/RESULTS.md's "third session" section: device tests;
# the host side alone (bench_engine); issue #12's wall-time target at 100
# round trips per line (concurrent twice, auto once); issue #11's allocation
# independence at the defaults and with 32 lines per class at the same kernel
# time (--iters 50: 250 round trips per line), each at two flag offsets.
# usage: bench/h100-engine.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
C="$BIN/cumap"
device_tests_and_engine
for i in 1 2; do
  timed "$C" --backend cuda --iters 20 --samples 5 --schedule concurrent --out "$OUT/concurrent$i"; phases "$OUT/concurrent$i"
done
step python3 "$HERE/analyze_wave2.py" "$OUT/concurrent1" "$OUT/concurrent2"
timed "$C" --backend cuda --iters 20 --samples 5 --out "$OUT/auto"; phases "$OUT/auto"
for off in 0 1052672; do
  timed "$C" --backend cuda --flag-offset "$off" --out "$OUT/ref$off"; phases "$OUT/ref$off"
done
step python3 "$HERE/analyze_wave2.py" "$OUT/ref0" "$OUT/ref1052672"
for off in 0 1052672; do
  timed "$C" --backend cuda --rotating-count 32 --iters 50 --flag-offset "$off" --out "$OUT/lines32-$off"
  phases "$OUT/lines32-$off"
done
step python3 "$HERE/analyze_wave2.py" "$OUT/lines32-0" "$OUT/lines32-1052672"
echo done | tee -a "$LOG"
