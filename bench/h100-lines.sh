#!/usr/bin/env bash
# Issue #11/#12 follow-up on one NVIDIA GPU: where a run's wall time goes
# (phase_seconds), whether a shorter home probe (--home-chain 8) finds the
# same classes, and how many lines per home class a map needs to be
# independent of the flag allocation (64 lines per class, runs at two flag
# offsets; bench/analyze_lines.py compares the first k lines of each, plain
# and corrected by the home table). Then --cross-home.
# usage: bench/h100-lines.sh BIN_DIR OUT_DIR
set -u -o pipefail
. "$(dirname "${BASH_SOURCE[0]}")/log_steps.sh"  # BIN, OUT, LOG, HERE from BIN_DIR OUT_DIR
log_device
C="$BIN/cumap"
timed "$C" topology --backend cuda
timed "$C" --backend cuda --iters 20 --samples 5 --out "$OUT/speed32"; phases "$OUT/speed32"
timed "$C" --backend cuda --iters 20 --samples 5 --home-chain 8 --out "$OUT/speed8"; phases "$OUT/speed8"
L="--backend cuda --schedule concurrent --iters 20 --samples 5 --rotating-count 64"
timed "$C" $L --out "$OUT/L0a"; phases "$OUT/L0a"
timed "$C" $L --home-chain 8 --out "$OUT/L0b"; phases "$OUT/L0b"
timed "$C" $L --flag-offset 1052672 --out "$OUT/L1a"; phases "$OUT/L1a"
timed "$C" $L --flag-offset 1052672 --home-chain 8 --out "$OUT/L1b"; phases "$OUT/L1b"
step python3 "$HERE/analyze_lines.py" "$OUT/L0a" "$OUT/L0b" "$OUT/L1a" "$OUT/L1b"
step python3 "$HERE/analyze_wave2.py" "$OUT/speed32" "$OUT/speed8"
timed "$C" --backend cuda --cross-home --iters 20 --samples 5 --out "$OUT/cross"; phases "$OUT/cross"
echo done | tee -a "$LOG"
