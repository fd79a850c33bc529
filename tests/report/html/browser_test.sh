#!/usr/bin/env bash
# report.html in a real browser: Chromium, headless, opens
#   - the report.html of a CPU map made now by the built cumap, and
#   - a fake 132-SM chip's (report_html_sample), under a device name that
#     tries to end the data's <script>, and a map across two fake chips;
# each must build its maps without a script error (the page sets
# data-status="ok", data-cells and, on an error, data-errors on <body>),
# screenshot as a picture (not blank), and do the same with no network
# (unshare -n where allowed) without asking for anything but the file
# itself (Chromium's net log). Then the report.html of a CPU barrier run,
# a page without a script: its table and plot are there, its screenshot is
# a picture, and offline it asks for nothing.
# Skips (exit 77) where Chromium is not installed: apt-get install chromium
# (.ci/run installs it).
#   browser_test.sh CUMAP REPORT_HTML_SAMPLE PNG_COLOURS
set -euo pipefail
cumap=$1 sample=$2 png_colours=$3

# CUMAP_CHROMIUM names the browser; else the first of these on PATH.
browser=""
for name in ${CUMAP_CHROMIUM:-chromium chromium-browser google-chrome}; do
  if command -v "$name" >/dev/null; then browser=$(command -v "$name") && break; fi
done
if [[ -z $browser ]]; then
  echo "SKIP: no Chromium (${CUMAP_CHROMIUM:-chromium}) to open report.html in (apt-get install chromium; .ci/run installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  echo "--- chromium's messages (last 20 lines):"
  tail -n 20 "$work/chromium.log" || true
  exit 1
}

# No network: a network namespace of its own where allowed (root, or user
# namespaces), else a proxy that answers nothing. Either way Chromium's net
# log says what the page asked for.
if unshare -n true 2>/dev/null; then
  offline_prefix=(unshare -n)
  offline_flags=()
else
  echo "note: unshare -n is not allowed here; the offline runs use a dead proxy instead"
  offline_prefix=()
  offline_flags=(--proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>')
fi

# browse online|offline PAGE FLAGS...: Chromium with a fresh profile and
# none of its own background requests.
browse() {
  local mode=$1 page=$2
  shift 2
  local prefix=() flags=()
  if [[ $mode == offline ]]; then
    prefix=("${offline_prefix[@]}")
    flags=("${offline_flags[@]}" --log-net-log="$work/net.json")
  fi
  timeout 120 "${prefix[@]}" "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
    --user-data-dir="$(mktemp -d -p "$work")" "${flags[@]}" "$@" "file://$page" 2>>"$work/chromium.log"
}

# asked_nothing_offline WHAT SCHEMES: the page's own requests (not the
# browser's: they carry the file's isolation key) went to no URL but those of
# SCHEMES (a grep alternation).
asked_nothing_offline() {
  local what=$1 schemes=$2 asked
  asked=$(grep '"network_isolation_key":"file://' "$work/net.json" | grep -o '"url":"[^"]*"' |
    grep -v "\"url\":\"\($schemes\):" || true)
  [[ -z $asked ]] || fail "$what: the page asked the network for: $asked"
}

# screenshot_drawn MODE PAGE WHAT SIZE: the page's screenshot is a picture.
screenshot_drawn() {
  local mode=$1 page=$2 what=$3 size=$4
  browse "$mode" "$page" --screenshot="$work/shot.png" --window-size="$size" >/dev/null ||
    fail "$what: chromium --screenshot failed"
  "$png_colours" "$work/shot.png" 64 || fail "$what: the screenshot is (nearly) blank"
}

# check online|offline PAGE WHAT MIN_CELLS: the page built its maps and its
# screenshot is a picture; offline, it asked the network for nothing.
check() {
  local mode=$1 page=$2 what=$3 min_cells=$4
  local dom body cells
  dom=$(browse "$mode" "$page" --dump-dom) || fail "$what: chromium --dump-dom failed"
  body=$(tr '\n' ' ' <<<"$dom" | grep -o '<body[^>]*>' | head -n 1 || true)
  [[ $body == *'data-status="ok"'* ]] || fail "$what: the page did not finish drawing: $body"
  [[ $body != *data-errors* ]] || fail "$what: script errors: $body"
  cells=$(sed -n 's/.*data-cells="\([0-9]*\)".*/\1/p' <<<"$body")
  ((${cells:-0} >= min_cells)) || fail "$what: ${cells:-no} map cells drawn, expected at least $min_cells"
  [[ $mode != offline ]] || asked_nothing_offline "$what" 'file'
  screenshot_drawn "$mode" "$page" "$what" 1200,900
  echo "ok: $what ($cells map cells)"
  printf '%s\n' "$dom" >"$work/last-dom.html"
}

"$cumap" --backend cpu --out "$work/cpu" --iters 50 --samples 3 --quiet
[[ -f $work/cpu/report.html ]] || fail "cumap wrote no report.html"
check online "$work/cpu/report.html" "CPU map" 4
check offline "$work/cpu/report.html" "CPU map, no network" 4

name="fake H100 </script><script>document.body.dataset.status='broken out'</script><!--"
"$sample" "$work/h100.html" 132 "$name"
check online "$work/h100.html" "132-SM fake chip" $((132 * 132))
grep -qF '<h1 id="title">fake H100 &lt;/script&gt;&lt;script&gt;' "$work/last-dom.html" ||
  fail "the device name is not shown as text in the title"
check offline "$work/h100.html" "132-SM fake chip, no network" $((132 * 132))

# A map across two fake chips: the "Across GPUs" section draws its sentences
# and both tables (the one-GPU pages above hide it).
"$sample" "$work/two.html" 24 "two fake chips" 2
check online "$work/two.html" "map across 2 fake chips" $((48 * 48))
grep -q '<ul id="across-findings"><li>A signal between GPUs' "$work/last-dom.html" ||
  fail "map across GPUs: no sentences in the Across GPUs section"
grep -q '<table id="across-structure"><tr><th>placement</th>' "$work/last-dom.html" ||
  fail "map across GPUs: no cross-GPU structure table"
grep -q '<section id="across-section" hidden' "$work/last-dom.html" && fail "map across GPUs: the section is hidden"

# check_sync online|offline PAGE WHAT: the barrier or contention page shows
# its table and plot; offline, it asked the network for nothing.
check_sync() {
  local mode=$1 page=$2 what=$3
  local dom
  dom=$(browse "$mode" "$page" --dump-dom) || fail "$what: chromium --dump-dom failed"
  grep -q '<table class="cases">' <<<"$dom" || fail "$what: no table of cases"
  grep -q '<img class="plot"[^>]*src="data:image/png;base64,' <<<"$dom" || fail "$what: no embedded plot"
  [[ $mode != offline ]] || asked_nothing_offline "$what" 'file\|data'
  screenshot_drawn "$mode" "$page" "$what" 1200,1200
  echo "ok: $what"
}

"$cumap" barrier --backend cpu --home-lines 16 --episodes 50 --out "$work/barrier" --quiet
[[ -f $work/barrier/report.html ]] || fail "cumap barrier wrote no report.html"
check_sync online "$work/barrier/report.html" "CPU barrier"
check_sync offline "$work/barrier/report.html" "CPU barrier, no network"

echo "report.html: $(stat -c %s "$work/cpu/report.html") bytes (CPU map), $(stat -c %s "$work/h100.html") bytes (132 SMs)," \
  "$(stat -c %s "$work/barrier/report.html") bytes (CPU barrier)"
