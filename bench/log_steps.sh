# Sourced by the bench/h100*.sh scripts: every command and its output go to
# the terminal and to $LOG; `timed` adds the wall time. Each step is bounded.
step() { printf '\n$ %s\n' "$*" | tee -a "$LOG"; timeout 300 "$@" 2>&1 | tee -a "$LOG"; }
timed() {
  printf '\n$ %s\n' "$*" | tee -a "$LOG"
  local t0
  t0=$(date +%s%N)
  timeout 300 "$@" 2>&1 | tee -a "$LOG"
  awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "wall %.2f s\n", (b - a) / 1e9 }' | tee -a "$LOG"
}
