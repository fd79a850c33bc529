#!/usr/bin/env bash
# The GPU measurements behind bench/RESULTS.md and plots/, by suite, on one
# NVIDIA GPU machine (two for `gpus`). Every command and its output go to the
# terminal and to OUT/log.txt; the chip's identity comes first.
#
# usage: bench/device.sh [--bin DIR] [--out DIR] SUITE...
#        bench/device.sh --list
#   --bin  binaries of a -DCUMAP_CUDA=ON build (default .carry/bin, as
#          bench/pack-for-device.sh leaves them): cumap, cuda_device_tests,
#          dsm_device_tests, bench_compare, bench_floor, bench_engine; where a
#          suite needs them also conformance_tests, bench_harness_vs_minimal,
#          cumap-before (another build of cumap, for `builds`)
#   --out  where the runs go (default out/device): log.txt and one directory
#          per run; OUT/plots is the reference output set (`reference`)
# Environment: CUMAP_ARGS extra options for the `offsets` maps (e.g.
# "--lines-per-class 32 --iters 100"), STRIDES for `stride` (default
# "128 4224 65664"), CONFIGS for `defaults` (lines "LINES ITERS SAMPLES
# WARMUP"), STEP_TIMEOUT seconds per command (default 300).
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
BIN="$root/.carry/bin"
OUT="$root/out/device"

# Suites in the order `all` runs them, each with what it measures.
suites=(
  "tests      cuda_device_tests and dsm_device_tests (conformance_tests too where present), run directly"
  "sanitizer  compute-sanitizer: memcheck on a 4-SM map; racecheck and synccheck on a 4-SM map of every probe"
  "reference  the default map, cumap topology and the dsm map into OUT/plots (as plots/h100/), serial floor"
  "homes      cumap homes; --home-chain 8 against 32 on two 100-round-trip maps"
  "defaults   choosing the default counts: a 64 x 1000 reference, a grid of lines x round trips at two offsets each, --iters 10 against 200, home discovery together against --home-serial"
  "target     issue #29's test: the default command (only --out) three times, at a second flag offset, and once with its lines stamped, against a 64 x 1000 reference; the disk's fsync rate; bench_engine with the default counts"
  "cost       the default map at 16, 32, 64 and every SM, and at 16 and 64 lines per class: wall and kernel seconds; the default map three times"
  "sync       cumap barrier three times and cumap contention twice into OUT/plots/barrier and OUT/plots/contention, repeats compared; barrier twice with --launches 1 and twice with 50"
  "offsets    the defaults (plus CUMAP_ARGS) at flag offsets 0 and 1052672, every matrix file compared by name, sides, classes"
  "stride     64 lines per class at each --home-stride of STRIDES, two offsets each, by first k lines"
  "speed      the 100-round-trip map (16 lines, concurrent) three times, then under auto twice: kernel, wall, phases"
  "engine     bench_engine: the host's own time for an H100-sized map on a fake chip"
  "harness    kernel against serial floor, run-to-run repeatability, cumap's kernel against a minimal ping-pong"
  "variants   same-line 100 x 3 with --flush-cache, --l2-persist, each probe, --ordered, each against the base"
  "auto       --schedule auto per probe, --cross-home, serial against concurrent on the same lines"
  "dsm        --via dsm with every probe: files, coverage, cluster barrier"
  "coherence  cumap check-coherence: SM 0 reading / SM 131 writing twice, SM 66 / SM 2 with a 5 ms window"
  "refusals   options that must exit 2 and write nothing"
  "devices    NVML: --list-devices, nvidia-smi topo -m, the serial in meta.json, --devices on one GPU"
  "neighbour  a map beside another process's matrix-product loop (needs python3 with torch)"
  "builds     BIN/cumap against BIN/cumap-before, same options, every matrix file compared by name"
  "gpus       two GPUs: the default map across them into OUT/plots/x2 and twice more, at a second flag offset (analyze_cross.py, every matrix file by name), GPU 0 alone (analyze_gpus.py), bench_engine 132 2"
  "gpus-lines two GPUs: the default map across them at two flag offsets, cells across GPUs by lines per class (analyze_cross.py), the map at other --cross-lines (CROSS_LINES)"
  "gpus-cost  two GPUs: the map across them at 16, 32, 64 and every SM per GPU, and the one-GPU default map"
  "place      cumap::place's examples: classes against an independent timing, ping-pong, one-side barrier, chain; across two GPUs where there are two"
  "gpus-sync  two GPUs: cumap barrier --devices 0,1 twice (repeat compared) and cumap contention --devices 0,1 once into OUT/plots/barrier-x2 and contention-x2"
)
# `all`: every suite that runs on one GPU with the default binaries.
all_suites=(tests sanitizer reference homes offsets stride speed engine harness variants auto dsm coherence refusals devices)

usage() { sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
list() { printf '%s\n' "${suites[@]}"; echo "all        ${all_suites[*]}"; }

args=()
while (($#)); do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --list) list; exit 0 ;;
    -h|--help) usage; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
((${#args[@]})) || { usage; echo; list; exit 2; }
BIN=$(realpath -m "$BIN"); OUT=$(realpath -m "$OUT"); LOG="$OUT/log.txt"
C="$BIN/cumap"
G=(--backend cuda)

# --- logging ---------------------------------------------------------------
say() { printf '%s\n' "$*" | tee -a "$LOG"; }
# step CMD...: the command and its output (and its exit code when not 0).
step() {
  printf '\n$ %s\n' "$*" | tee -a "$LOG"
  timeout "${STEP_TIMEOUT:-300}" "$@" 2>&1 | tee -a "$LOG"
  local rc=${PIPESTATUS[0]}
  ((rc == 0)) || say "exit code $rc"
  return 0
}
# timed CMD...: step, then the wall time.
timed() {
  local t0
  t0=$(date +%s%N)
  step "$@"
  awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "wall %.2f s\n", (b - a) / 1e9 }' | tee -a "$LOG"
}
# A run's phase_seconds and its wall time before the outputs, from meta.json.
phases() {
  python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print('phases', ' '.join(f\"{p['phase']} {p['seconds']:.2f}\" for p in m['phase_seconds']), 'wall_seconds (before outputs)', round(m['wall_seconds'],2))" "$1/meta.json" 2>&1 | tee -a "$LOG"
}
# Each placement's kernel time (device_seconds), and where its wall time went, from meta.json.
kernel_seconds() {
  python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print('kernel seconds', [round(p['stats']['device_seconds'],3) for p in m['maps']]); print('placement seconds', [{k: round(v, 3) for k, v in p.get('seconds', {}).items()} for p in m['maps']])" "$1/meta.json" 2>&1 | tee -a "$LOG"
}
# A map with its wall time, phases and kernel time.
map() {
  local out=$1; shift
  timed "$C" "$@" --out "$out"
  [[ -f "$out/meta.json" ]] && { phases "$out"; kernel_seconds "$out"; }
  return 0
}
# Every matrix file of run A against the same file name of run B.
compare_by_name() {
  local f
  for f in "$1"/matrix-*.csv; do
    [[ -f "$f" ]] || continue
    printf '%s: ' "$(basename "$f")" | tee -a "$LOG"
    "$BIN/bench_compare" "$f" "$2/$(basename "$f")" 2>&1 | tee -a "$LOG"
  done
}
# Whether two runs gave every unit the same side, the side of the lowest unit, lines per class.
same_sides() {
  step python3 -c "import json,sys; s=[json.load(open(d+'/homes.json')) for d in sys.argv[1:]]; \
print('unit_side identical:', s[0]['units']==s[1]['units'] and s[0]['unit_side']==s[1]['unit_side'], \
'; side of the lowest unit:', [h['unit_side'][h['units'].index(min(h['units']))] for h in s], \
'; lines per class:', [[c['lines'] for c in h['classes']] for h in s])" "$1" "$2"
}
need() { local b; for b in "$@"; do [[ -x "$BIN/$b" ]] || { say "skipped: $BIN/$b is missing"; return 1; }; done; }

# The date, the binary and the chip first (name, serial, PCI bus, driver).
identity() {
  say "# bench/device.sh ${args[*]}"
  step date -u +%Y-%m-%dT%H:%M:%SZ
  step nvidia-smi --query-gpu=index,name,serial,pci.bus_id,driver_version --format=csv
  step nvidia-smi --query-gpu=clocks.max.sm,memory.total,ecc.mode.current,mig.mode.current --format=csv
  step nvidia-smi --query-compute-apps=pid,name,used_memory --format=csv
  step uname -r
  step "$C" --version
}

# --- suites ----------------------------------------------------------------
suite_tests() {
  need cuda_device_tests && CUMAP_BINARY="$C" step "$BIN/cuda_device_tests"
  need dsm_device_tests && step "$BIN/dsm_device_tests"
  [[ -x "$BIN/conformance_tests" ]] && step "$BIN/conformance_tests" --gtest_brief=1
  return 0
}

suite_sanitizer() {
  command -v compute-sanitizer >/dev/null || { say "skipped: compute-sanitizer is not installed"; return; }
  step compute-sanitizer --tool memcheck --error-exitcode 9 "$C" "${G[@]}" --units 0-3 --iters 20 --samples 2 \
    --quiet --out "$OUT/sanitizer-memcheck"
  local p tool
  for p in cas exch acq-rel volatile; do
    for tool in racecheck synccheck; do
      step compute-sanitizer --tool "$tool" --error-exitcode 9 "$C" "${G[@]}" --quiet --units 0-3 --iters 10 \
        --samples 2 --home-lines 8 --lines-per-class 1 --probe "$p" --out "$OUT/sanitizer-$tool-$p"
    done
  done
}

# The reference outputs: copy OUT/plots to plots/<chip>/ (pairs.csv and
# homes.csv are large; plots/README.md says which files are kept).
suite_reference() {
  map "$OUT/plots" "${G[@]}"
  step "$BIN/bench_floor" "$OUT/plots"
  step "$C" topology "${G[@]}" --json "$OUT/plots/topology.json"
  timed "$C" "${G[@]}" --via dsm --probe volatile --out "$OUT/plots/dsm"
  step ls "$OUT/plots" "$OUT/plots/dsm"
}

suite_homes() {
  timed "$C" homes "${G[@]}" --out "$OUT/homes"
  map "$OUT/homes-chain32" "${G[@]}" --iters 20 --samples 5 --home-chain 32
  map "$OUT/homes-chain8" "${G[@]}" --iters 20 --samples 5 --home-chain 8
  step python3 "$here/analyze_runs.py" "$OUT/homes-chain32" "$OUT/homes-chain8"
}

suite_offsets() {
  local off extra
  read -r -a extra <<<"${CUMAP_ARGS:-}"
  for off in 0 1052672; do map "$OUT/offset-$off" "${G[@]}" "${extra[@]}" --flag-offset "$off"; done
  compare_by_name "$OUT/offset-0" "$OUT/offset-1052672"
  same_sides "$OUT/offset-0" "$OUT/offset-1052672"
  step python3 "$here/analyze_runs.py" "$OUT/offset-0" "$OUT/offset-1052672"
  step python3 "$here/analyze_lines.py" "$OUT/offset-0" "$OUT/offset-1052672"
}

# CONFIGS: "LINES ITERS SAMPLES WARMUP" per configuration of the grid.
suite_defaults() {
  local cfg lines iters samples warmup off runs=()
  map "$OUT/reference" "${G[@]}" --quiet --lines-per-class 64 --iters 200 --samples 5 --warmup 20
  while read -r lines iters samples warmup; do
    [[ -n "$lines" ]] || continue
    cfg="$lines-$iters-$samples-$warmup"
    for off in 0 1052672; do
      map "$OUT/grid-$cfg-offset$off" "${G[@]}" --quiet --lines-per-class "$lines" --iters "$iters" \
        --samples "$samples" --warmup "$warmup" --flag-offset "$off"
    done
    runs+=("$lines x $iters x $samples (warm-up $warmup):$OUT/grid-$cfg-offset0:$OUT/grid-$cfg-offset1052672")
  done <<<"${CONFIGS:-24 20 3 8
16 20 5 8
20 20 4 8
32 10 3 4
24 10 5 8
16 10 5 8}"
  step python3 "$here/analyze_defaults.py" "$OUT/reference" "${runs[@]}"
  # --iters independence: the same lines at 10 and at 200 round trips per sample.
  map "$OUT/iters200" "${G[@]}" --quiet --lines-per-class 16 --iters 200 --samples 5 --warmup 8
  step python3 "$here/analyze_defaults.py" "$OUT/iters200" "16 x 10 x 5 against 16 x 200 x 5:$OUT/grid-16-10-5-8-offset0:$OUT/grid-16-10-5-8-offset1052672"
  # Home discovery: every SM at once against one at a time, twice each.
  timed "$C" homes "${G[@]}" --quiet --out "$OUT/homes-together1"
  timed "$C" homes "${G[@]}" --quiet --out "$OUT/homes-together2"
  timed "$C" homes "${G[@]}" --quiet --home-serial --out "$OUT/homes-serial1"
  timed "$C" homes "${G[@]}" --quiet --home-serial --out "$OUT/homes-serial2"
  step python3 "$here/analyze_homes.py" "$OUT/homes-together1" "$OUT/homes-serial1"
  step python3 "$here/analyze_homes.py" "$OUT/homes-together2" "$OUT/homes-serial2"
  step python3 "$here/analyze_homes.py" "$OUT/homes-serial1" "$OUT/homes-serial2"
  step python3 "$here/analyze_homes.py" "$OUT/homes-together1" "$OUT/homes-together2"
  rm -f "$OUT"/grid-*/pairs.csv "$OUT"/reference/pairs.csv "$OUT"/iters200/pairs.csv
}

suite_cost() {
  local units lines i
  for units in 0-15 0-31 0-63 all; do
    for lines in 16 64; do
      if [[ $units == all ]]; then map "$OUT/cost-all-$lines" "${G[@]}" --quiet --lines-per-class "$lines"
      else map "$OUT/cost-$units-$lines" "${G[@]}" --quiet --units "$units" --lines-per-class "$lines"; fi
    done
  done
  for i in 1 2 3; do map "$OUT/default$i" "${G[@]}"; done
  step python3 "$here/analyze_runs.py" "$OUT/default1" "$OUT/default2"
  rm -f "$OUT"/cost-*/pairs.csv
}

suite_target() {
  local i
  step dd if=/dev/zero of="$OUT/fsync-test" bs=1M count=64 conv=fsync
  rm -f "$OUT/fsync-test"
  for i in 1 2 3; do map "$OUT/default$i" "${G[@]}"; done
  map "$OUT/default-offset" "${G[@]}" --flag-offset 1052672
  # Once more with every line stamped: what the process spends after its last line.
  timed python3 "$here/stamp_lines.py" "$C" "${G[@]}" --out "$OUT/default4"
  phases "$OUT/default4"
  map "$OUT/reference" "${G[@]}" --quiet --lines-per-class 64 --iters 200 --samples 5 --warmup 20
  step python3 "$here/analyze_defaults.py" "$OUT/reference" "the default command:$OUT/default1:$OUT/default-offset"
  step python3 "$here/analyze_runs.py" "$OUT/default1" "$OUT/default2"
  step "$BIN/bench_engine" "$OUT/engine" 132 1 24
  rm -rf "$OUT"/default*/pairs.csv "$OUT"/reference/pairs.csv "$OUT/engine"
}

suite_sync() {
  timed "$C" barrier "${G[@]}" --out "$OUT/plots/barrier"
  timed "$C" barrier "${G[@]}" --quiet --out "$OUT/barrier-repeat"
  step python3 "$here/analyze_sync.py" "$OUT/plots/barrier" "$OUT/barrier-repeat"
  timed "$C" barrier "${G[@]}" --quiet --out "$OUT/barrier-repeat-2"
  step python3 "$here/analyze_sync.py" "$OUT/barrier-repeat" "$OUT/barrier-repeat-2"
  timed "$C" contention "${G[@]}" --out "$OUT/plots/contention"
  timed "$C" contention "${G[@]}" --quiet --out "$OUT/contention-repeat"
  step python3 "$here/analyze_sync.py" "$OUT/plots/contention" "$OUT/contention-repeat"
  # What the launches buy: the same repeat with one launch per case, and with half the default.
  timed "$C" barrier "${G[@]}" --quiet --launches 1 --out "$OUT/barrier-one-launch-a"
  timed "$C" barrier "${G[@]}" --quiet --launches 1 --out "$OUT/barrier-one-launch-b"
  step python3 "$here/analyze_sync.py" "$OUT/barrier-one-launch-a" "$OUT/barrier-one-launch-b"
  timed "$C" barrier "${G[@]}" --quiet --launches 50 --out "$OUT/barrier-50-launches-a"
  timed "$C" barrier "${G[@]}" --quiet --launches 50 --out "$OUT/barrier-50-launches-b"
  step python3 "$here/analyze_sync.py" "$OUT/barrier-50-launches-a" "$OUT/barrier-50-launches-b"
}

suite_stride() {
  local s off
  for s in ${STRIDES:-128 4224 65664}; do
    for off in 0 1052672; do
      timed "$C" "${G[@]}" --quiet --same-line --schedule concurrent --iters 20 --samples 5 --lines-per-class 64 \
        --home-stride "$s" --flag-offset "$off" --out "$OUT/stride$s-offset$off"
    done
    step python3 "$here/analyze_lines.py" "$OUT/stride$s-offset0" "$OUT/stride$s-offset1052672"
    rm -f "$OUT"/stride"$s"-offset*/pairs.csv "$OUT"/stride"$s"-offset*/homes.csv "$OUT"/stride"$s"-offset*/*.png
  done
}

suite_speed() {
  local i
  for i in 1 2 3; do
    map "$OUT/speed-concurrent$i" "${G[@]}" --iters 20 --samples 5 --lines-per-class 16 --schedule concurrent
    step "$BIN/bench_floor" "$OUT/speed-concurrent$i"
  done
  step python3 "$here/analyze_runs.py" "$OUT/speed-concurrent1" "$OUT/speed-concurrent2"
  for i in 1 2; do
    map "$OUT/speed-auto$i" "${G[@]}" --iters 20 --samples 5 --lines-per-class 16 --schedule auto
  done
}

suite_engine() {
  need bench_engine || return 0
  step "$BIN/bench_engine" "$OUT/engine"
  rm -rf "$OUT/engine"
}

# One flag line per home class (--lines-per-class 1), as the 2026-11-22 figures.
suite_harness() {
  local i setting
  for i in 1 2; do
    timed "$C" "${G[@]}" --quiet --same-line --lines-per-class 1 --iters 200 --samples 1 --warmup 0 --out "$OUT/harness-same$i"
    step "$BIN/bench_floor" "$OUT/harness-same$i"
  done
  step "$BIN/bench_compare" "$OUT/harness-same1/matrix-same-line.csv" "$OUT/harness-same2/matrix-same-line.csv"
  for i in 1 2; do
    timed "$C" "${G[@]}" --quiet --lines-per-class 1 --iters 200 --samples 1 --out "$OUT/harness-both$i"
    step "$BIN/bench_floor" "$OUT/harness-both$i"
  done
  step "$BIN/bench_compare" "$OUT/harness-both1/matrix-split-line.csv" "$OUT/harness-both2/matrix-split-line.csv"
  # Repeatability: three runs per setting, runs 1-2 and 2-3 compared.
  for setting in "200 1" "1000 1" "200 5"; do
    read -r iters samples <<<"$setting"
    for i in 1 2 3; do
      timed "$C" "${G[@]}" --quiet --same-line --lines-per-class 1 --iters "$iters" --samples "$samples" --warmup 0 \
        --out "$OUT/repeat-$iters-$samples-$i"
    done
    for i in 1 2; do
      step "$BIN/bench_compare" "$OUT/repeat-$iters-$samples-$i/matrix-same-line.csv" \
        "$OUT/repeat-$iters-$samples-$((i + 1))/matrix-same-line.csv"
    done
  done
  # cumap's kernel against a minimal hand-written ping-pong, same pairs, same flag words, one process.
  need bench_harness_vs_minimal || return 0
  local pairs=(0:1 0:2 0:16 0:33 0:66 0:100 0:131 1:2 2:16 16:33 33:66 66:100 100:131 120:121 64:120 5:77)
  step "$BIN/bench_harness_vs_minimal" 200 5 "${pairs[@]}"
  step "$BIN/bench_harness_vs_minimal" 200 5 "${pairs[@]}"
}

suite_variants() {
  local V=("${G[@]}" --quiet --same-line --iters 100 --samples 3) d p
  timed "$C" "${V[@]}" --out "$OUT/variant-base"
  timed "$C" "${V[@]}" --flush-cache --out "$OUT/variant-flush"
  timed "$C" "${V[@]}" --l2-persist --out "$OUT/variant-persist"
  for p in exch acq-rel volatile; do timed "$C" "${V[@]}" --probe "$p" --out "$OUT/variant-probe-$p"; done
  timed "$C" "${V[@]}" --ordered --out "$OUT/variant-ordered"
  timed "$C" "${G[@]}" --quiet --split-line --iters 100 --samples 3 --flush-cache --out "$OUT/variant-flush-split"
  for d in flush persist probe-exch probe-acq-rel probe-volatile; do
    step "$BIN/bench_compare" "$OUT/variant-base/matrix-same-line.csv" "$OUT/variant-$d/matrix-same-line.csv"
  done
  # Cold round trips (pairs.csv's cold_ns), base against flushed.
  for d in base flush flush-split; do
    step python3 -c "import csv,statistics,sys; r=[float(x['cold_ns']) for x in csv.DictReader(open(sys.argv[1])) if x['cold_ns']]; print('cold_ns median', round(statistics.median(r),1), 'over', len(r), 'rows')" "$OUT/variant-$d/pairs.csv"
  done
}

# --schedule auto per probe at 100 round trips on 4 lines per class (a serial
# fallback stays short), --cross-home, and serial against concurrent on the
# same 2 lines per class.
suite_auto() {
  local p
  for p in exch acq-rel volatile; do
    map "$OUT/auto-$p" "${G[@]}" --same-line --probe "$p" --iters 20 --samples 5 --lines-per-class 4
  done
  map "$OUT/auto-cross-home" "${G[@]}" --cross-home --iters 20 --samples 5
  local S=("${G[@]}" --quiet --same-line --iters 20 --samples 5 --lines-per-class 2)
  timed "$C" "${S[@]}" --schedule serial --out "$OUT/serial1"
  timed "$C" "${S[@]}" --schedule serial --out "$OUT/serial2"
  timed "$C" "${S[@]}" --schedule concurrent --out "$OUT/concurrent"
  step "$BIN/bench_compare" "$OUT/serial1/matrix-same-line.csv" "$OUT/serial2/matrix-same-line.csv"
  step "$BIN/bench_compare" "$OUT/serial1/matrix-same-line.csv" "$OUT/concurrent/matrix-same-line.csv"
}

suite_dsm() {
  local p
  timed "$C" "${G[@]}" --via dsm --probe volatile --out "$OUT/dsm-volatile"
  step ls "$OUT/dsm-volatile"
  step cat "$OUT/dsm-volatile/cluster-barrier.csv"
  step python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print('meta keys:', sorted(m)); print('map keys:', sorted(m['maps'][0])); print('stats:', json.dumps(m['maps'][0]['stats'])[:2000])" "$OUT/dsm-volatile/meta.json"
  for p in cas acq-rel exch mbarrier; do
    timed "$C" "${G[@]}" --via dsm --probe "$p" --iters 50 --samples 3 --out "$OUT/dsm-$p"
  done
}

suite_coherence() {
  step "$C" check-coherence "${G[@]}" --json "$OUT/coherence-1.json"
  step "$C" check-coherence "${G[@]}" --json "$OUT/coherence-2.json"
  step "$C" check-coherence "${G[@]}" --reader 66 --writer 2 --window-ms 5 --json "$OUT/coherence-66-2.json"
}

suite_refusals() {
  step "$C" "${G[@]}" --lines-per-class 0 --out "$OUT/refused"
  step "$C" "${G[@]}" --lines-per-class 100000000 --out "$OUT/refused"
  step "$C" "${G[@]}" --units 0-100000 --out "$OUT/refused"
  step "$C" --devices 0 --flag-on a --out "$OUT/refused"
  local gpus
  gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
  ((gpus == 1)) && step "$C" --devices 0,1 --out "$OUT/refused"
  step ls -a "$OUT/refused"
}

suite_devices() {
  step nvidia-smi topo -m
  step "$C" --list-devices
  timed "$C" "${G[@]}" --quiet --units 0-15 --iters 20 --lines-per-class 4 --out "$OUT/devices-small"
  step python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['device']; print('serial', d.get('serial'), 'pci', d.get('pci_bus_id'))" "$OUT/devices-small/meta.json"
  map "$OUT/devices-all" --devices all --iters 20 --lines-per-class 16
  step head -c 300 "$OUT/devices-all/matrix-same-line.csv"
}

suite_neighbour() {
  python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null || { say "skipped: python3 with torch and CUDA is needed"; return; }
  map "$OUT/neighbour-quiet" "${G[@]}" --same-line
  python3 -c "
import torch
a = torch.randn(8192, 8192, device='cuda', dtype=torch.bfloat16)
while True: b = a @ a; torch.cuda.synchronize()
" &
  local nb=$!
  sleep 8
  map "$OUT/neighbour-busy" "${G[@]}" --same-line
  kill "$nb" 2>/dev/null; wait "$nb" 2>/dev/null
  step "$BIN/bench_compare" "$OUT/neighbour-quiet/matrix-same-line.csv" "$OUT/neighbour-busy/matrix-same-line.csv"
}

suite_builds() {
  need cumap-before || return 0
  timed "$BIN/cumap-before" "${G[@]}" --quiet --same-line --out "$OUT/build-before1"
  timed "$BIN/cumap-before" "${G[@]}" --quiet --same-line --out "$OUT/build-before2"
  timed "$C" "${G[@]}" --quiet --same-line --out "$OUT/build-now"
  compare_by_name "$OUT/build-before1" "$OUT/build-before2"
  compare_by_name "$OUT/build-before1" "$OUT/build-now"
}

two_gpus() {
  local gpus
  gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
  ((gpus >= 2)) || { say "skipped: $gpus GPU(s); this suite needs two"; return 1; }
}

suite_gpus() {
  local i
  two_gpus || return 0
  step nvidia-smi topo -m
  step "$C" --list-devices
  # The reference set (plots/<model>x2/): the default command, as a user types it.
  map "$OUT/plots/x2" "${G[@]}" --devices 0,1
  phases "$OUT/plots/x2"
  for i in 2 3; do map "$OUT/gpus-default$i" "${G[@]}" --devices 0,1 --quiet; done
  map "$OUT/gpus-offset" "${G[@]}" --devices 0,1 --quiet --flag-offset 1052672
  step python3 "$here/analyze_cross.py" "$OUT/plots/x2" "$OUT/gpus-offset"
  compare_by_name "$OUT/plots/x2" "$OUT/gpus-offset"
  map "$OUT/gpus-gpu0" "${G[@]}" --device 0 --quiet
  step python3 "$here/analyze_gpus.py" "$OUT/plots/x2" 0="$OUT/gpus-gpu0"
  need bench_engine && step "$BIN/bench_engine" "$OUT/gpus-engine" 132 2
  rm -rf "$OUT"/gpus-*/pairs.csv "$OUT/plots/x2/pairs.csv" "$OUT/gpus-engine"
}

# How many lines a pair across GPUs needs (the default map's cells across
# GPUs from its first k lines, two flag offsets), and the map's time at
# other --cross-lines (CROSS_LINES, default "8 12").
suite_gpus-lines() {
  local k
  two_gpus || return 0
  step nvidia-smi topo -m
  map "$OUT/across-offset0" "${G[@]}" --devices 0,1
  map "$OUT/across-offset1" "${G[@]}" --devices 0,1 --flag-offset 1052672
  step python3 "$here/analyze_cross.py" "$OUT/across-offset0" "$OUT/across-offset1"
  rm -f "$OUT"/across-offset*/pairs.csv
  for k in ${CROSS_LINES:-8 12}; do
    map "$OUT/across-cross-lines$k" "${G[@]}" --devices 0,1 --quiet --cross-lines "$k"
  done
  rm -f "$OUT"/across-*/pairs.csv
}

# What a map across two GPUs costs by SMs per GPU, beside the one-GPU default.
suite_gpus-cost() {
  local units
  two_gpus || return 0
  for units in 0-15 0-31 0-63; do map "$OUT/across-units$units" "${G[@]}" --devices 0,1 --quiet --units "$units"; done
  map "$OUT/across-all" "${G[@]}" --devices 0,1 --quiet
  map "$OUT/one-gpu" "${G[@]}" --device 0 --quiet
  rm -f "$OUT"/across-*/pairs.csv "$OUT"/one-gpu/pairs.csv
}

# Barriers and contention across two GPUs (participant sets interleaving
# the GPUs, counters on each GPU in turn, two-level by GPU): cumap barrier
# twice, the repeat compared case by case, and cumap contention once, each
# with its wall time; then what their summaries say.
suite_gpus-sync() {
  two_gpus || return 0
  step nvidia-smi topo -m
  timed "$C" barrier "${G[@]}" --devices 0,1 --out "$OUT/plots/barrier-x2"
  timed "$C" barrier "${G[@]}" --devices 0,1 --quiet --out "$OUT/barrier-x2-repeat"
  step python3 "$here/analyze_sync.py" "$OUT/plots/barrier-x2" "$OUT/barrier-x2-repeat"
  timed "$C" contention "${G[@]}" --devices 0,1 --out "$OUT/plots/contention-x2"
  step cat "$OUT/plots/barrier-x2/summary.md" "$OUT/plots/contention-x2/summary.md"
}

# The placement library's examples (examples/): each prints a cost on the
# library's lines against the lines a program gets without it; the classes
# checked against a timing of the examples' own; across GPUs with two.
suite_place() {
  need example_pingpong example_barrier example_chain example_verify_classes || return 0
  step "$BIN/example_verify_classes" 0
  step "$BIN/example_pingpong" 0
  step "$BIN/example_barrier" 0
  step "$BIN/example_chain" 0
  two_gpus && need example_across && step "$BIN/example_across" 0 1
  return 0
}

# --- main ------------------------------------------------------------------
run=()
for s in "${args[@]}"; do
  if [[ $s == all ]]; then
    run+=("${all_suites[@]}")
  elif declare -F "suite_$s" >/dev/null; then
    run+=("$s")
  else
    echo "bench/device.sh: no suite '$s'" >&2; list >&2; exit 2
  fi
done
[[ -x "$C" ]] || { echo "bench/device.sh: no cumap in $BIN (--bin DIR)" >&2; exit 2; }
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$(dirname "$BIN")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[[ -z ${CUMAP_FONT:-} && -f "$(dirname "$BIN")/DejaVuSans.ttf" ]] && export CUMAP_FONT="$(dirname "$BIN")/DejaVuSans.ttf"
identity
for s in "${run[@]}"; do
  say ""
  say "## suite $s"
  "suite_$s"
done
say ""
say "done"
