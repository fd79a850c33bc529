#!/usr/bin/env bash
# The shape of what cumap writes, for comparing two builds of it: a change
# that only moves code must leave it the same.
#   bench/refactor/output-shape.sh CUMAP_BINARY OUT_DIR
# Writes OUT_DIR/shape.txt: a CPU map's file names, every CSV's header, the
# tree of meta.json's keys (values vary run to run and are left out), and the
# sha256 of PNGs rendered from committed matrices (those must match byte for
# byte). Compare two with `diff A/shape.txt B/shape.txt`.
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
} > "$out/shape.txt"
echo "wrote $out/shape.txt"
