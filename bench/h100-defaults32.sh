#!/usr/bin/env bash
# The runs behind bench/RESULTS.md's "third session" section, second part,
# and plots/h100/: today's defaults (32 lines per home class) at two flag
# offsets, compared whole (analyze_wave2.py) and by their first k lines
# (analyze_lines.py); cumap topology for plots/; issue #12's speed target at
# 100 round trips per line with 32 and with 16 lines per class.
# usage: bench/h100-defaults32.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
C="$BIN/cumap"
step "$C" topology --backend cuda --json "$OUT/topology.json"
for off in 0 1052672; do
  timed "$C" --backend cuda --flag-offset "$off" --out "$OUT/ref$off"; phases "$OUT/ref$off"
done
step python3 "$HERE/analyze_wave2.py" "$OUT/ref0" "$OUT/ref1052672"
step python3 "$HERE/analyze_lines.py" "$OUT/ref0" "$OUT/ref1052672"
for lines in 32 16 16; do
  timed "$C" --backend cuda --iters 20 --samples 5 --rotating-count "$lines" --schedule concurrent --out "$OUT/speed$lines"
  phases "$OUT/speed$lines"
  kernel_seconds "$OUT/speed$lines"
done
echo done | tee -a "$LOG"
