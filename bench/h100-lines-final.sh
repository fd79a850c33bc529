#!/usr/bin/env bash
# The runs behind bench/RESULTS.md's "lines and pilots" section and plots/h100/
# (defaults: lines 4224 bytes apart, line correction, --home-chain 8, auto by
# pilots): device tests, cumap homes, the reference map, the same at another
# flag offset, the speed target (100 round trips per line), auto per probe,
# cross-home. Output: OUT_DIR with log.txt and one directory per run.
# usage: bench/h100-lines-final.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
C="$BIN/cumap"
CUMAP_BINARY="$C" step "$BIN/cuda_device_tests" --gtest_brief=1
step "$BIN/conformance_tests" --gtest_brief=1
timed "$C" homes --backend cuda --out "$OUT/homes"
step "$C" topology --backend cuda --json "$OUT/topology.json"
timed "$C" --backend cuda --out "$OUT/ref"; phases "$OUT/ref"
step "$BIN/bench_floor" "$OUT/ref"
timed "$C" --backend cuda --flag-offset 1052672 --out "$OUT/ref-off"; phases "$OUT/ref-off"
step python3 "$HERE/analyze_wave2.py" "$OUT/ref" "$OUT/ref-off"
# Speed: both placements, 16 lines per class, 100 round trips per line.
timed "$C" --backend cuda --iters 20 --samples 5 --out "$OUT/speed"; phases "$OUT/speed"
step "$BIN/bench_floor" "$OUT/speed"
timed "$C" --backend cuda --iters 20 --samples 5 --flag-offset 1052672 --out "$OUT/speed-off"; phases "$OUT/speed-off"
step python3 "$HERE/analyze_wave2.py" "$OUT/speed" "$OUT/speed-off"
# --schedule auto per probe: pilots choose the concurrency (4 lines per class keep a serial fallback short).
for p in exch acq-rel volatile; do
  timed "$C" --backend cuda --same-line --probe "$p" --iters 20 --samples 5 --rotating-count 4 --out "$OUT/auto-$p"
done
timed "$C" --backend cuda --cross-home --iters 20 --samples 5 --out "$OUT/cross"; phases "$OUT/cross"
echo done | tee -a "$LOG"
