#!/usr/bin/env bash
# A hostile but fair user, on the cpu backend: bad command lines, hostile
# CSVs for `render`, interrupts at random moments followed by --resume, and
# runs racing into one --out. Each case says what a user may expect; the
# script prints, per kind, how many were tried and how many behaved.
#   bench/hostile/campaign.sh CUMAP [ROUNDS (default 20)]
set -u
cumap=$(realpath "$1")
rounds=${2:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
declare -A tried ok
expect() {  # KIND OK?: count one case
  tried[$1]=$((${tried[$1]:-0} + 1))
  if [[ $2 == 1 ]]; then ok[$1]=$((${ok[$1]:-0} + 1)); else echo "unexpected ($1): ${*:3}" >&2; fi
}
base=(--backend cpu --units 0-1 --warmup 2 --home-lines 64 --quiet)
quick=("${base[@]}" --iters 20 --samples 2)

# 1. Bad input: exit 2, one line on stderr, nothing left in the directory.
bad=("--iters 0x10" "--samples ''" "--warmup ''" "--timeout-ms 0x1p3" "--iters -1" "--rotating-count 0"
     "--units 0-100000" "--home-stride 100" "--home-lines 0" "--resume ''" "--resume nowhere"
     "--max-streams 4" "--probe mbarrier" "--via dsm" "--l2-persist" "--order sideways" "--colormap nope"
     "--flag-offset 3" "--devices 0,1 --flag-on a" "--schedule sometimes" "--concurrency -2")
for b in "${bad[@]}"; do
  rm -rf cwd && mkdir cwd
  (cd cwd && eval "\"$cumap\" ${quick[*]} --out o $b" >../out.txt 2>../err.txt)
  code=$?
  lines=$(wc -l <err.txt)
  left=$(find cwd -mindepth 1 | wc -l)
  expect bad-input $([[ $code == 2 && $lines == 1 && $left == 0 ]] && echo 1 || echo 0) "$b: exit $code, $lines lines, $left left"
done

# 2. Hostile matrix CSVs for render: exit 0 or 2, never a crash, never a PNG on exit 2.
csvs=("" "unit\n" "unit,0\n0,\n" "unit,0,1\n0,,nan\n1,inf,\n" "unit,0,1\n0,,1e308\n1,-1e308,\n"
      "unit,0,1\n0,,1\n" "unit,0,0\n0,,1\n0,1,\n" "unit,a,b\na,,1\nb,1,\n" "\"unit\",\"0\"\n\"0\",\"\"\n"
      "unit,0,1\r\n0,,5\r\n1,5,\r\n" "unit,0,1\n0,,1,2\n1,1,\n" "$(head -c 300 /dev/urandom | base64)")
for c in "${csvs[@]}"; do
  printf "$c" >m.csv 2>/dev/null || printf '%s' "$c" >m.csv
  rm -f m.png
  "$cumap" render m.csv -o m.png >/dev/null 2>&1
  code=$?
  expect render $([[ ($code == 0 && -s m.png) || ($code == 2 && ! -e m.png) ]] && echo 1 || echo 0) "csv $(printf %q "$c"): exit $code"
done

# 3. Interrupts at random moments, then --resume alone: the set completes.
for ((i = 0; i < rounds; i++)); do
  rm -rf D
  "$cumap" "${base[@]}" --iters 20000 --samples 2 --out D &
  pid=$!
  sleep "0.$((RANDOM % 9 + 1))"
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  code=$?
  if [[ $code == 130 && -f D/meta.json ]]; then
    "$cumap" --resume D --quiet >/dev/null 2>&1
    code=$?
  fi
  complete=$(python3 -c "import json;m=json.load(open('D/meta.json'));print(int(all(x['complete'] for x in m['maps'])))" 2>/dev/null)
  expect interrupt-resume $([[ $code == 0 && $complete == 1 ]] && echo 1 || echo 0) "round $i: exit $code complete $complete"
done

# 4. Two runs into one --out at once: one refused (exit 2) or both in turn;
#    the set left is one run's (meta.json and pairs.csv agree).
for ((i = 0; i < rounds; i++)); do
  rm -rf R
  "$cumap" "${base[@]}" --iters 20 --out R --samples 3 >/dev/null 2>&1 &
  a=$!
  "$cumap" "${base[@]}" --iters 20 --out R --samples 4 >/dev/null 2>&1 &
  b=$!
  wait $a; ca=$?
  wait $b; cb=$?
  samples=$(python3 -c "import json;print(json.load(open('R/meta.json'))['options']['samples'])" 2>/dev/null)
  rows=$(awk -F, 'NR>1 {print $18}' R/pairs.csv 2>/dev/null | sort -u | tr -d '\n')
  fine=0
  [[ ($ca == 0 || $ca == 2) && ($cb == 0 || $cb == 2) && ($ca == 0 || $cb == 0) && "$samples" == "$rows" ]] && fine=1
  expect concurrent-runs $fine "round $i: exits $ca $cb, meta samples $samples, pairs.csv samples $rows"
done

printf '%-18s %6s %12s\n' kind tried "as expected"
total=0 good=0
for k in bad-input render interrupt-resume concurrent-runs; do
  printf '%-18s %6d %12d\n' "$k" "${tried[$k]:-0}" "${ok[$k]:-0}"
  total=$((total + ${tried[$k]:-0})) good=$((good + ${ok[$k]:-0}))
done
echo "$good of $total as expected"
((good == total))
