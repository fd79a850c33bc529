#!/usr/bin/env python3
"""Where the wall time of a whole cumap map goes, seen from outside the process.

usage: time_run.py [RUNS (3)] [-- CUMAP_ARGS...]   (default: --backend cuda --devices 0,1)
Runs .carry/bin/cumap (bench/pack-for-device.sh) RUNS times into /tmp/m<i>,
with LD_LIBRARY_PATH and CUMAP_FONT set to what .carry holds, and appends to
$OUT/times.txt (stderr to $OUT/stderr.txt), per run: the process wall, the
run's own wall_seconds (meta.json, before the outputs), when the first file
and pairs.csv were last written ("none" with --no-pairs-csv) and meta.json
was (file times, seconds after the start), when the last line was printed and how long the process took to
end after it; then the phases and each placement's seconds from meta.json.
What meta.json cannot say (the outputs, the exit) is what this is for.
"""
import json
import os
import subprocess
import sys
import time

args = sys.argv[1:]
runs = int(args.pop(0)) if args and args[0] != "--" else 3
if args and args[0] == "--":
    args = args[1:]
cumap_args = args or ["--backend", "cuda", "--devices", "0,1"]
carry = os.getcwd() + "/.carry"
env = dict(os.environ, LD_LIBRARY_PATH=carry + "/lib", CUMAP_FONT=carry + "/DejaVuSans.ttf")
out = os.environ.get("OUT", ".")
log = open(out + "/times.txt", "a")
for i in range(runs):
    d = f"/tmp/m{i}"
    start = time.time()
    p = subprocess.Popen([carry + "/bin/cumap"] + cumap_args + ["--out", d], stdout=subprocess.PIPE,
                         stderr=open(out + "/stderr.txt", "a"), text=True, env=env)
    last = None
    for _ in p.stdout:
        last = time.time()
    p.wait()
    end = time.time()
    last = last or end
    meta = json.load(open(d + "/meta.json"))
    written = {f: os.stat(f"{d}/{f}").st_mtime for f in os.listdir(d)}
    print(f"{' '.join(cumap_args)}: rc {p.returncode} wall {end - start:.3f} inside {meta['wall_seconds']:.3f} "
          f"first-file +{min(written.values()) - start:.3f} "
          f"pairs {'+%.3f' % (written['pairs.csv'] - start) if 'pairs.csv' in written else 'none'} "
          f"meta +{written['meta.json'] - start:.3f} last-line +{last - start:.3f} "
          f"exit-after-last-line {end - last:.3f}", file=log)
    print("  phases", [(x["phase"], round(x["seconds"], 3)) for x in meta["phase_seconds"]], file=log)
    print("  maps", json.dumps([(m.get("placement"), m.get("seconds")) for m in meta.get("maps", [])]), file=log)
    log.flush()
