#!/usr/bin/env bash
# Issue #11: do flag lines spread over more memory make per-class maps
# independent of the allocation? For each --home-stride, two runs at flag
# offsets 0 and 1 MiB + 4 KiB, 64 lines per class, same-line; then
# bench/analyze_lines.py compares the first k lines of each run.
# usage: bench/h100-stride.sh BIN_DIR OUT_DIR STRIDE...
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
shift 2  # the strides remain
log_device
L="--backend cuda --same-line --schedule concurrent --iters 20 --samples 5 --rotating-count 64 --home-chain 8"
for s in "$@"; do
  for off in 0 1052672; do timed "$BIN/cumap" $L --home-stride "$s" --flag-offset "$off" --out "$OUT/s$s-o$off"; done
  step python3 "$HERE/analyze_lines.py" "$OUT/s$s-o0" "$OUT/s$s-o1052672"
  rm -f "$OUT"/s$s-o*/pairs.csv "$OUT"/s$s-o*/homes.csv "$OUT"/s$s-o*/*.png
done
echo done | tee -a "$LOG"
