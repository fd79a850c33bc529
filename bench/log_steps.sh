# Sourced by the bench/h100*.sh scripts (their arguments: BIN_DIR OUT_DIR):
# sets BIN and OUT (made absolute; OUT created), LOG (OUT/log.txt) and HERE
# (bench/). Every command and its output go to the terminal and to $LOG;
# `timed` adds the wall time. Each step is bounded.
BIN=$(realpath "$1"); OUT=$(realpath -m "$2"); mkdir -p "$OUT"; LOG="$OUT/log.txt"
HERE=$(dirname "${BASH_SOURCE[0]}")
step() { printf '\n$ %s\n' "$*" | tee -a "$LOG"; timeout 300 "$@" 2>&1 | tee -a "$LOG"; }
timed() {
  printf '\n$ %s\n' "$*" | tee -a "$LOG"
  local t0
  t0=$(date +%s%N)
  timeout 300 "$@" 2>&1 | tee -a "$LOG"
  awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "wall %.2f s\n", (b - a) / 1e9 }' | tee -a "$LOG"
}
# The date and the GPU(s) of this session, at the top of $LOG.
log_device() {
  { date -u +"date %Y-%m-%dT%H:%M:%SZ";
    nvidia-smi --query-gpu=name,serial,pci.bus_id,driver_version,clocks.max.sm --format=csv; } 2>&1 | tee -a "$LOG"
}
# A run's phase_seconds and wall time (before its outputs) from its meta.json.
phases() {
  python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print('phases', ' '.join(f\"{p['phase']} {p['seconds']:.2f}\" for p in m['phase_seconds']), 'wall_seconds (before outputs)', round(m['wall_seconds'],2))" "$1/meta.json" | tee -a "$LOG"
}
# Each placement's kernel time (device_seconds) from a run's meta.json.
kernel_seconds() {
  python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print('kernel seconds', [round(p['stats']['device_seconds'],3) for p in m['maps']])" "$1/meta.json" | tee -a "$LOG"
}
# A session's first checks: the device tests (CUMAP_BINARY: the cumap they
# run) and the host side alone (bench_engine, its files removed after).
device_tests_and_engine() {
  CUMAP_BINARY="$BIN/cumap" step "$BIN/cuda_device_tests" --gtest_brief=1
  step "$BIN/bench_engine" "$OUT/engine"
  rm -rf "$OUT/engine"
}
