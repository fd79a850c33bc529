#!/usr/bin/env bash
# The runs behind bench/RESULTS.md's "fourth session" section: device tests;
# the host side alone (bench_engine); issue #12's wall-time target at 100
# round trips per line, 16 lines per class (three runs); issue #11's
# allocation independence with 64 lines per class at 250 round trips per line
# (two flag offsets, compared whole and by their first k lines); and the
# defaults for plots/h100/.
# usage: bench/h100-fourth.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
C="$BIN/cumap"
device_tests_and_engine
for i in 1 2 3; do
  timed "$C" --backend cuda --iters 20 --samples 5 --rotating-count 16 --schedule concurrent --out "$OUT/speed$i"
  phases "$OUT/speed$i"
  kernel_seconds "$OUT/speed$i"
done
for off in 0 1052672; do
  timed "$C" --backend cuda --rotating-count 64 --iters 50 --flag-offset "$off" --out "$OUT/lines64-$off"
  phases "$OUT/lines64-$off"
done
step python3 "$HERE/analyze_wave2.py" "$OUT/lines64-0" "$OUT/lines64-1052672"
step python3 "$HERE/analyze_lines.py" "$OUT/lines64-0" "$OUT/lines64-1052672"
step "$C" topology --backend cuda --json "$OUT/topology.json"
timed "$C" --backend cuda --out "$OUT/defaults"; phases "$OUT/defaults"
echo done | tee -a "$LOG"
