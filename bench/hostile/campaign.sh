#!/usr/bin/env bash
# A hostile but fair user, on the cpu backend: bad command lines, hostile
# CSVs for `render`, interrupts at random moments followed by --resume, runs
# racing into one --out, output paths that are not regular files, readers
# given pipes, /dev/zero and deep JSON, sets of another command, the
# permissions of a fresh set, runs killed at random moments, hostile numbers
# in meta.json, and the small inconsistencies of issue 40. Each case says
# what a user may expect; the script prints, per kind, how many were tried
# and how many behaved. Run it on the sanitizer build's binary too
# (build-asan/cumap): a report there is a crash here. One round runs in
# ctest as cli.HostileCampaign (tests/cli/CMakeLists.txt).
#   bench/hostile/campaign.sh CUMAP [ROUNDS (default 20)]
# CAMPAIGN_STRIDE=N tries every N-th hostile meta.json of part 10 (default
# every one): the sanitizer build, 10-40 times slower, samples them.
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
#    One home line, so every home discovery finds one class: a CPU on a
#    loaded VM shows one class or two, and --resume refuses to combine pairs
#    measured under other classes (a refusal tested in ctest on its own).
one_line=(--backend cpu --units 0-1 --warmup 2 --same-line --home-lines 1 --quiet)
for ((i = 0; i < rounds; i++)); do
  rm -rf D
  "$cumap" "${one_line[@]}" --iters 5000000 --samples 2 --out D &
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

# 5. Output paths that are not regular files: exit 2, the path as it was.
mkfifo fifo.json fifo.png
printf 'target\n' >target
ln -sf target link.json
ln -sf target link.png
printf 'unit,0,1\n0,,5\n1,5,\n' >m.csv
for c in "topology --backend cpu --json fifo.json" "topology --backend cpu --json link.json" \
         "topology --backend cpu --json /dev/stdout" "check-coherence --backend cpu --json fifo.json" \
         "render m.csv -o fifo.png" "render m.csv -o link.png" "topology --backend cpu --json nowhere/t.json"; do
  # shellcheck disable=SC2086  # the case is meant to split
  timeout 10 "$cumap" $c >/dev/null 2>err.txt
  code=$?
  kept=0
  [[ -p fifo.json && -p fifo.png && -L link.json && -L link.png && $(cat target) == target ]] && kept=1
  expect special-paths $([[ $code == 2 && $(wc -l <err.txt) == 1 && $kept == 1 ]] && echo 1 || echo 0) "$c: exit $code"
done
# /dev/null itself, as root, in a private mount namespace where one can be made.
if unshare -m true 2>/dev/null; then
  for c in "topology --backend cpu --json /dev/null" "check-coherence --backend cpu --json /dev/null"; do
    kind=$(unshare -m sh -c "mount -t tmpfs tmpfs /dev && mknod -m 666 /dev/null c 1 3 && \
      \"$cumap\" $c >/dev/null 2>&1; echo \$?; stat -c %F /dev/null" 2>/dev/null | tr '\n' ' ')
    expect special-paths $([[ $kind == "2 character special file " ]] && echo 1 || echo 0) "$c: $kind"
  done
fi

# 6. Every reader given a named pipe, /dev/zero and JSON nested 100 000
#    deep: exit 2 within a second, never a hang, a memory blow-up or a crash.
"$cumap" "${quick[@]}" --out ok >/dev/null 2>&1
python3 -c "print('{\"groups\":[{\"name\":\"g\",\"units\":[' + '['*100000 + ']'*100000 + ']}]}')" >deep.json
for f in meta.json homes.json pairs.csv; do
  rm -rf "pipe-$f" "zero-$f" "deep-$f"
  cp -r ok "pipe-$f" && rm "pipe-$f/$f" && mkfifo "pipe-$f/$f"
  cp -r ok "zero-$f" && ln -sf /dev/zero "zero-$f/$f"
  cp -r ok "deep-$f" && cp deep.json "deep-$f/$f"
done
readers=("summary fifo.json" "summary /dev/zero" "summary deep.json" "summary pipe-meta.json"
         "render m.csv -o r.png --order fifo.json" "render m.csv -o r.png --order /dev/zero"
         "render m.csv -o r.png --order deep.json" "render /dev/zero -o r.png")
for f in meta.json homes.json pairs.csv; do readers+=("--resume pipe-$f" "--resume zero-$f"); done
readers+=("--resume deep-meta.json" "--resume deep-homes.json")
readers+=("${quick[*]} --out pipe-meta.json" "${quick[*]} --out zero-meta.json" "${quick[*]} --out deep-meta.json")
for c in "${readers[@]}" "FONT=fifo.json" "FONT=/dev/zero"; do
  start=$(date +%s.%N)
  if [[ $c == FONT=* ]]; then
    CUMAP_FONT=${c#FONT=} timeout 10 "$cumap" "${quick[@]}" --out F >/dev/null 2>err.txt
  else
    # shellcheck disable=SC2086
    timeout 10 "$cumap" $c >/dev/null 2>err.txt
  fi
  code=$?
  took=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")
  fast=$(python3 -c "print(int($took < 1.0))")
  expect hostile-readers $([[ $code == 2 && $fast == 1 && $(wc -l <err.txt) == 1 ]] && echo 1 || echo 0) "$c: exit $code in ${took}s"
done

# 7. A set of another command is replaced only with --replace.
sync=(--backend cpu --units 0-1 --home-lines 16 --episodes 20 --launches 1 --quiet)
for c in "barrier ${sync[*]}" "contention ${sync[*]}" "homes --backend cpu --home-lines 16 --quiet"; do
  rm -rf K && cp -r ok K
  before=$(find K -type f -exec sha256sum {} + | sort)
  # shellcheck disable=SC2086
  "$cumap" $c --out K >/dev/null 2>err.txt
  code=$?
  after=$(find K -type f -exec sha256sum {} + | sort)
  expect other-kinds $([[ $code == 2 && $before == "$after" ]] && grep -q -- --replace err.txt && echo 1 || echo 0) "$c over a map: exit $code"
  # shellcheck disable=SC2086
  "$cumap" $c --out K --replace >/dev/null 2>&1
  code=$?
  expect other-kinds $([[ $code == 0 && ! -e K/pairs.csv ]] && echo 1 || echo 0) "$c --replace over a map: exit $code"
done

# 8. A fresh set under umask 022 is 0755 with 0644 files.
rm -rf P
(umask 022 && "$cumap" "${quick[@]}" --out P >/dev/null 2>&1)
modes=$(stat -c %a P P/* | sort -u | tr '\n' ' ')
expect permissions $([[ $modes == "644 755 " ]] && echo 1 || echo 0) "modes $modes"

# 9. Runs killed at random moments leave nothing the next run does not clear.
for ((i = 0; i < rounds; i++)); do
  rm -rf S .S.cumap-*
  "$cumap" "${base[@]}" --iters 20000 --samples 2 --out S >/dev/null 2>&1 &
  pid=$!
  sleep "0.$((RANDOM % 9 + 1))"
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  "$cumap" "${quick[@]}" --out S >/dev/null 2>&1
  code=$?
  left=$(find . -maxdepth 1 -name '.S.cumap-*' | wc -l)
  expect killed-runs $([[ $code == 0 && $left == 0 ]] && echo 1 || echo 0) "round $i: exit $code, $left left"
done

# 10. Every number of a map's meta.json made hostile: summary says what is
#     wrong (2) or shows what it can (0), never anything else.
python3 - ok/meta.json hostile <<'PY'
import json, sys, os
meta = json.load(open(sys.argv[1]))
paths = []
def walk(v, path):
    if isinstance(v, dict):
        for k in v: walk(v[k], path + [k])
    elif isinstance(v, list):
        for i, x in enumerate(v): walk(x, path + [i])
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        paths.append(path)
walk(meta, [])
os.makedirs(sys.argv[2], exist_ok=True)
n = 0
for path in paths:
    for value in (1e300, -1e300, 0, -1, 2**64 - 1, -2**63, 2.5):
        m = json.loads(json.dumps(meta))
        v = m
        for k in path[:-1]: v = v[k]
        v[path[-1]] = value
        json.dump(m, open(f"{sys.argv[2]}/{n}.json", "w"))
        n += 1
PY
stride=${CAMPAIGN_STRIDE:-1}
n=0
for f in hostile/*.json; do
  ((n++ % stride == 0)) || continue
  for format in md csv json; do
    "$cumap" summary "$f" --format "$format" >/dev/null 2>err.txt
    code=$?
    expect hostile-numbers $([[ $code == 0 || ($code == 2 && $(wc -l <err.txt) == 1) ]] && echo 1 || echo 0) "$f $format: exit $code"
  done
done

# 11. The small ones: refused before measuring, one line, exit 2.
"$cumap" barrier "${sync[@]}" --out B >/dev/null 2>&1
for c in "barrier ${sync[*]} --k 999999999 --out B2" "barrier ${sync[*]} --k 1 --out B2" "--version foo" \
         "${quick[*]} --devices all --out B2" "homes --backend cpu --devices 0 --out B2" "--resume B"; do
  # shellcheck disable=SC2086
  timeout 10 "$cumap" $c >/dev/null 2>err.txt
  code=$?
  once=$(grep -o -- '--resume:' err.txt | wc -l)
  expect small-ones $([[ $code == 2 && $(wc -l <err.txt) == 1 && $once -le 1 && ! -e B2 ]] && echo 1 || echo 0) "$c: exit $code"
done

printf '%-18s %6s %12s\n' kind tried "as expected"
total=0 good=0
for k in bad-input render interrupt-resume concurrent-runs special-paths hostile-readers other-kinds permissions \
         killed-runs hostile-numbers small-ones; do
  printf '%-18s %6d %12d\n' "$k" "${tried[$k]:-0}" "${ok[$k]:-0}"
  total=$((total + ${tried[$k]:-0})) good=$((good + ${ok[$k]:-0}))
done
echo "$good of $total as expected"
((good == total))
