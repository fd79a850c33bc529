#!/usr/bin/env bash
# The shape of what cumap writes, for comparing two builds of it: a change
# that only moves code must leave it the same.
#   bench/refactor/output-shape.sh CUMAP_BINARY OUT_DIR [BENCH_ENGINE]
# Writes OUT_DIR/shape.txt: a CPU map's file names, every CSV's header, the
# tree of meta.json's keys (values vary run to run and are left out), the
# sha256 of PNGs rendered from committed matrices (those must match byte for
# byte), and, with BENCH_ENGINE (build/bench/engine/bench_engine), the sha256
# of every file of a map of a fake 132-SM chip and of two fake 16-SM chips,
# whose values are the same run to run once the clock's readings (seconds,
# dates) and the output directory are blanked. Compare two with
# `diff A/shape.txt B/shape.txt`.
set -euo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rm -rf "$out" && mkdir -p "$out"
"$bin" --backend cpu --units 0-1 --iters 20 --samples 2 --warmup 2 --quiet --out "$out/map" || true
{
  echo "# files"
  (cd "$out/map" && ls | sort)
  echo "# csv headers"
  for f in "$out"/map/*.csv; do
    [[ $(basename "$f") == matrix-* || $(basename "$f") == line-spread-* ]] && continue  # headers are unit ids
    printf '%s: %s\n' "$(basename "$f")" "$(head -1 "$f")"
  done
  echo "# meta.json keys"
  python3 - "$out/map/meta.json" <<'PY'
import json, sys
def walk(v, path):
    if isinstance(v, dict):
        for k in sorted(v): walk(v[k], f"{path}.{k}")
    elif isinstance(v, list):
        for x in v[:1]: walk(x, f"{path}[]")
        if not v: print(f"{path}[] (empty)")
    else:
        print(path, type(v).__name__)
walk(json.load(open(sys.argv[1])), "")
PY
  echo "# rendered PNGs"
  for m in plots/h100/matrix-same-line-home0.csv plots/h100/line-spread-same-line.csv; do
    "$bin" render "$root/$m" -o "$out/$(basename "$m" .csv).png" --order "$root/plots/h100/topology.json"
    "$bin" render "$root/$m" -o "$out/$(basename "$m" .csv)-plain.png"
  done
  (cd "$out" && sha256sum ./*.png)
  if [[ -n ${3:-} ]]; then
    echo "# fake chips' files (clock readings and --out blanked)"
    "$(realpath "$3")" "$out/engine-132" 132 1 > /dev/null
    "$(realpath "$3")" "$out/engine-2x16" 16 2 > /dev/null
    python3 - "$out/engine-132" "$out/engine-2x16" <<'PY'
import hashlib, pathlib, re, sys
clock = re.compile(r'("(?:[a-z_]*seconds|measuring|kernel|backend_host|checks|summaries|out_dir|timestamp_utc)":\s*)("[^"]*"|[-0-9.e+]+)')
for d in map(pathlib.Path, sys.argv[1:]):
    for f in sorted(d.iterdir()):
        data = f.read_bytes()
        if f.suffix in (".json", ".html", ".md"):
            text = clock.sub(r"\1 0", data.decode())
            text = re.sub(r"\| (date|cumap) \|[^\n]*", r"| \1 |", text)
            data = text.encode()
        print(hashlib.sha256(data).hexdigest(), f"{d.name}/{f.name}")
PY
  fi
} > "$out/shape.txt"
echo "wrote $out/shape.txt"
