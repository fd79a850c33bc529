#!/usr/bin/env bash
# The runs behind bench/RESULTS.md's wave-2 section and plots/h100/, on one
# NVIDIA GPU: before/after the plan seam, the reference map, two flag offsets,
# the speed target (100 round trips per line), --schedule auto per probe, the
# dsm path, and a map beside a busy neighbour process. Output: OUT_DIR with
# log.txt and one directory per run (bench/analyze_wave2.py compares two).
# usage: bench/h100-final.sh BIN_DIR OUT_DIR   (BIN_DIR: cumap, cumap-before, bench_compare, bench_floor)
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
C="$BIN/cumap"
# Before/after: the old tool's single-address map, twice, against the new per-class maps of ref.
timed "$BIN/cumap-before" --backend cuda --quiet --same-line --order index --out "$OUT/before1"
timed "$BIN/cumap-before" --backend cuda --quiet --same-line --order index --out "$OUT/before2"
step "$C" topology --backend cuda --json "$OUT/topology.json"
timed "$C" --backend cuda --out "$OUT/ref"
step "$BIN/bench_floor" "$OUT/ref"
timed "$C" --backend cuda --flag-offset 1052672 --out "$OUT/ref-off"
# Speed: both placements, 16 lines per class, 100 round trips per line.
timed "$C" --backend cuda --iters 20 --samples 5 --out "$OUT/speed"
step "$BIN/bench_floor" "$OUT/speed"
for p in exch acq-rel volatile; do timed "$C" --backend cuda --same-line --probe "$p" --out "$OUT/auto-$p"; done
timed "$C" --backend cuda --via dsm --probe volatile --out "$OUT/dsm"
timed "$C" --backend cuda --via dsm --probe mbarrier --quiet --out "$OUT/dsm-mbarrier"
# A busy neighbour: a matrix-product loop in another process on the same GPU.
timed "$C" --backend cuda --same-line --out "$OUT/quiet"
python3 -c "
import torch, time
a = torch.randn(8192, 8192, device='cuda', dtype=torch.bfloat16)
t = time.time()
while time.time() - t < 40: b = a @ a; torch.cuda.synchronize()
" & NB=$!
sleep 8
timed "$C" --backend cuda --same-line --out "$OUT/busy"
kill $NB 2>/dev/null; wait $NB 2>/dev/null
step "$BIN/bench_compare" "$OUT/quiet/matrix-same-line.csv" "$OUT/busy/matrix-same-line.csv"
echo done | tee -a "$LOG"
