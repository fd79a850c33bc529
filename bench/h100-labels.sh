#!/usr/bin/env bash
# Issue #23's runs (canonical home-class and side labels): device tests; the
# defaults at two flag offsets, their per-class maps compared by file name
# (no matching by hand) and their sides; the dsm path without homes; bad
# values that must exit 2.
# usage: bench/h100-labels.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
C="$BIN/cumap"
CUMAP_BINARY="$C" step "$BIN/cuda_device_tests" --gtest_brief=1
step "$BIN/dsm_device_tests" --gtest_brief=1
for off in 0 1052672; do
  timed "$C" --backend cuda --flag-offset "$off" --out "$OUT/offset-$off"
  phases "$OUT/offset-$off"
done
for f in "$OUT"/offset-0/matrix-*.csv; do
  name=$(basename "$f")
  printf '%s: ' "$name" | tee -a "$LOG"
  "$BIN/bench_compare" "$f" "$OUT/offset-1052672/$name" 2>&1 | tee -a "$LOG"
done
# Sides by name: the same units in side0 and side1 in both runs.
step python3 -c "import json,sys; s=[json.load(open(d+'/homes.json')) for d in sys.argv[1:]]; \
print('unit_side identical:', s[0]['units']==s[1]['units'] and s[0]['unit_side']==s[1]['unit_side'], \
'; side of the lowest unit:', [h['unit_side'][h['units'].index(min(h['units']))] for h in s], \
'; lines per class:', [[c['lines'] for c in h['classes']] for h in s])" "$OUT/offset-0" "$OUT/offset-1052672"
timed "$C" --backend cuda --via dsm --probe volatile --out "$OUT/dsm"
step ls "$OUT/dsm"
step python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print('meta keys:', sorted(m)); print('map keys:', sorted(m['maps'][0]))" "$OUT/dsm/meta.json"
step "$C" --backend cuda --rotating-count 0 --out "$OUT/bad"; echo "exit code $?" | tee -a "$LOG"
step "$C" topology --backend cuda
echo done | tee -a "$LOG"
