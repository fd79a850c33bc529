#!/usr/bin/env bash
# Imports cumap's CSVs into LibreOffice Calc (headless) and checks that every
# latency cell arrives as a number: only the header words and the placement
# names may be text. Registered by CMake only where soffice is installed.
#   spreadsheet_import.sh CUMAP SOFFICE
set -euo pipefail
cumap=$1 soffice=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$cumap" --backend cpu --iters 20 --samples 3 --quiet --out "$dir/out"
cd "$dir/out"
# 44 = comma, 34 = double quote, 76 = UTF-8, 1 = start at line 1.
HOME="$dir" timeout 120 "$soffice" --headless --infilter="CSV:44,34,76,1" --convert-to fods \
  matrix-same-line.csv pairs.csv >/dev/null 2>&1
strings_in() { grep -o '<text:p>[^<]*</text:p>' "$1" | sed 's/<[^>]*>//g' | grep -v '^[-0-9.]*$' | sort -u; }
matrix_text=$(strings_in matrix-same-line.fods)
[[ "$matrix_text" == "unit" ]] || { echo "matrix CSV: text cells besides the header: $matrix_text"; exit 1; }
pairs_text=$(strings_in pairs.fods | tr '\n' ' ')
expected="a b cold_ns copy cycles_median iters min_ns oneway_ns_median p05_ns p95_ns placement rtt_ns_median same-line samples split-line timed_out "
[[ "$pairs_text" == "$expected" ]] || { echo "pairs.csv: unexpected text cells: $pairs_text"; exit 1; }
floats=$(grep -c 'office:value-type="float"' matrix-same-line.fods || true)
[[ $floats -gt 0 ]] || { echo "matrix CSV: no numeric cells"; exit 1; }
echo "LibreOffice imported both CSVs with numeric cells"
